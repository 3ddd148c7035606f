/* Call counters shared by every process that preloads the shim with the same
 * CRYPTOSHIM_STATS file: a file-backed shared mapping set up once in the
 * constructor, updated with atomics, so no syscall is made when counting. */
#ifndef CRYPTOSHIM_STATS_H
#define CRYPTOSHIM_STATS_H

#include <stdint.h>

#define CS_STATS_MAGIC 0x32545343u /* "CST2" little-endian */
#define CS_STATS_SLOTS 256
#define CS_STATS_NAME 24

/* One counter: (operation, kernel, bits). A slot is claimed by CAS on key. */
typedef struct cs_stats_slot {
    uint64_t key;   /* hash of the three fields, 0 = free */
    uint64_t calls;
    uint32_t bits;
    uint32_t ready; /* set once op/kernel are written */
    char op[CS_STATS_NAME];
    char kernel[CS_STATS_NAME];
} cs_stats_slot;

#define CS_STATS_NOTES 8
#define CS_STATS_NOTE_KEY 32
#define CS_STATS_NOTE_VALUE 96

/* A status line (e.g. which route a libcrypto takes), claimed by CAS on key
 * hash like a counter slot; value is rewritten in place. */
typedef struct cs_stats_note_slot {
    uint64_t key;   /* hash of the key text, 0 = free */
    uint32_t ready; /* set once key text is written */
    uint32_t pad;
    char name[CS_STATS_NOTE_KEY];
    char value[CS_STATS_NOTE_VALUE];
} cs_stats_note_slot;

typedef struct cs_stats_file {
    uint32_t magic;
    uint32_t nslots;
    uint64_t dropped; /* counts that found no free slot */
    cs_stats_slot slot[CS_STATS_SLOTS];
    cs_stats_note_slot note[CS_STATS_NOTES];
} cs_stats_file;

/* Maps path (created 0600 with O_NOFOLLOW if missing). Constructor only.
 * Returns 0, or -1 and leaves counting off. */
int cs_stats_open(const char *path);

/* Counts one call of op served by kernel ("libcrypto" when passed through)
 * for a modulus of `bits` bits or ML-DSA parameter set `bits` (44/65/87).
 * No-op when stats are off; never makes a syscall. */
void cs_stats_count(const char *op, const char *kernel, unsigned bits);

/* Records a status line under key (e.g. "route libcrypto.so.3" = "symbols"),
 * replacing an earlier value for the same key. For decisions made once (a
 * route chosen), not for hot paths. No-op when stats are off. */
void cs_stats_note(const char *key, const char *value);

#endif
