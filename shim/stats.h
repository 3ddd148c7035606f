/* Call counters shared by every process that preloads the shim with the same
 * CRYPTOSHIM_STATS file: a file-backed shared mapping set up once in the
 * constructor, updated with atomics, so no syscall is made when counting. */
#ifndef CRYPTOSHIM_STATS_H
#define CRYPTOSHIM_STATS_H

#include <stdint.h>

#define CS_STATS_MAGIC 0x31545343u /* "CST1" little-endian */
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

typedef struct cs_stats_file {
    uint32_t magic;
    uint32_t nslots;
    uint64_t dropped; /* counts that found no free slot */
    cs_stats_slot slot[CS_STATS_SLOTS];
} cs_stats_file;

/* Maps path (created 0600 with O_NOFOLLOW if missing). Constructor only.
 * Returns 0, or -1 and leaves counting off. */
int cs_stats_open(const char *path);

/* Counts one call of op served by kernel ("libcrypto" when passed through)
 * for a modulus of `bits` bits or ML-DSA parameter set `bits` (44/65/87).
 * No-op when stats are off; never makes a syscall. */
void cs_stats_count(const char *op, const char *kernel, unsigned bits);

#endif
