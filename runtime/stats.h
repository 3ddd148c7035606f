/* Call counters shared by every process that preloads the shim with the same
 * CRYPTOSHIM_STATS file.
 *
 * The counters live in a System V shared memory segment; the file only names
 * it (one text line: segment id and a random token the segment also holds).
 * Why: a MAP_SHARED file mapping raises SIGBUS in every process using it once
 * anyone who may write the file truncates it (or when a sparse file cannot be
 * backed on a full filesystem). A SysV segment has a size fixed at shmget()
 * and no call can shrink it; IPC_RMID only unlinks its id, and memory stays
 * mapped until the last process detaches. So once the constructor has
 * attached, counting touches only that memory: no syscall, no file, and no
 * SIGBUS path whatever happens to the file. fork() inherits the attachment;
 * exec() detaches, and the new image's constructor attaches again through the
 * file. The segment outlives the processes, so `cryptoshim stats PATH` reads
 * it afterwards; segments whose file is gone are removed by the next process
 * that creates a segment (cs_stats_open). */
#ifndef CRYPTOSHIM_STATS_H
#define CRYPTOSHIM_STATS_H

#include <stddef.h>
#include <stdint.h>

#define CS_STATS_MAGIC 0x33545343u /* "CST3" in the segment, either byte order */
#define CS_STATS_SLOTS 1024        /* exact (op, kernel, bits) counters */
#define CS_STATS_OVERFLOW 1024     /* (op, kernel, power-of-two size class) */
#define CS_STATS_NAME 24
/* The file's whole content: "cryptoshim-stats 3 shm NNNNNNNNNN token HEX32\n"
 * (fixed width, so a stale name is rewritten in place). */
#define CS_STATS_FILE_TAG "cryptoshim-stats 3 shm "
#define CS_STATS_FILE_LEN 73

/* One counter: (operation, kernel, bits). A slot is claimed by CAS on key.
 * Every field at its natural alignment on 32- and 64-bit ABIs alike, so a
 * reader of the other byte order or word size finds the same offsets. */
typedef struct cs_stats_slot {
    uint64_t key; /* hash of the three fields, 0 = free */
    uint64_t calls;
    uint32_t bits; /* in the overflow table: the class's upper bound */
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

#define CS_STATS_PATH_MAX 512

/* The shared segment. */
typedef struct cs_stats_segment {
    uint32_t magic;
    uint32_t size; /* sizeof(cs_stats_segment) */
    uint64_t token[2];
    uint64_t lost; /* counts that found no slot in either table (never expected) */
    /* Where the naming file was, for removing segments whose file is gone:
     * only by a process in the same mount namespace and root directory. */
    uint64_t mntns_ino, root_dev, root_ino;
    char path[CS_STATS_PATH_MAX]; /* absolute; empty: never removed */
    cs_stats_slot slot[CS_STATS_SLOTS];
    cs_stats_slot overflow[CS_STATS_OVERFLOW];
    cs_stats_note_slot note[CS_STATS_NOTES];
} cs_stats_segment;

/* Opens or creates the file at path and attaches its segment. The file is
 * accepted only if it is a regular file (not a symlink) with one link, owned
 * by the effective user, not writable by group or others, and either ours
 * (the header above) or absent (then created 0600 whole, by link()). An
 * unrelated file is never written. Constructor only. Returns 0, or -1 and
 * leaves counting off with the reason in cs_stats_error(). */
int cs_stats_open(const char *path);

/* Whether cs_stats_open(path) would count here, without creating or
 * writing anything; why says what it would do or why not. For `info`. */
int cs_stats_check(const char *path, char *why, size_t cap);

/* Why the last cs_stats_open failed ("" if it did not). */
const char *cs_stats_error(void);

/* Counts one call of op served by kernel ("libcrypto" when passed through)
 * for a modulus of `bits` bits or ML-DSA parameter set `bits` (44/65/87).
 * When the exact table is full, the call goes to its (op, kernel, size class)
 * counter. No-op when stats are off; never makes a syscall. */
void cs_stats_count(const char *op, const char *kernel, unsigned bits);

/* Records a status line under key (e.g. "route libcrypto.so.3" = "symbols"),
 * replacing an earlier value for the same key. For decisions made once (a
 * route chosen), not for hot paths. No-op when stats are off. */
void cs_stats_note(const char *key, const char *value);

/* Reads the counters named by path into *out (host byte order), for
 * `cryptoshim stats`; the segment may come from a shim of either byte order
 * (an emulated guest). Returns 0, or -1 with a one-line reason in err. */
int cs_stats_read(const char *path, cs_stats_segment *out, char *err, size_t errlen);

#endif
