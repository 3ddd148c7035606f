/* The stats segment's counter tables: every call is counted, whether its
 * (operation, kernel, bits) gets an exact counter or, once those are
 * crowded, its size-class counter; counts from forked children land in the
 * same segment; notes keep working. Reads back through cs_stats_read, as
 * `cryptoshim stats` does. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/stats.h"
#include "support/tap.h"

static cs_stats_segment seg;

/* Sum of calls over both tables for op (NULL: any). */
static unsigned long long total(const char *op)
{
    unsigned long long sum = 0;
    for (unsigned i = 0; i < CS_STATS_SLOTS; i++)
        if (seg.slot[i].ready && (!op || !strcmp(seg.slot[i].op, op)))
            sum += seg.slot[i].calls;
    for (unsigned i = 0; i < CS_STATS_OVERFLOW; i++)
        if (seg.overflow[i].ready && (!op || !strcmp(seg.overflow[i].op, op)))
            sum += seg.overflow[i].calls;
    return sum;
}

int main(void)
{
    char dir[] = "/tmp/cs-stats-XXXXXX", path[64], err[256];
    if (!mkdtemp(dir))
        return tap_ok(0, "mkdtemp"), tap_done();
    snprintf(path, sizeof path, "%s/t.stats", dir);
    if (!tap_ok(cs_stats_open(path) == 0, "a new stats file is created and attached (%s)",
                cs_stats_error()))
        return tap_done();

    /* 600 distinct moduli, 3 calls each: fits the exact table. */
    for (unsigned b = 1000; b < 1600; b++)
        for (int i = 0; i < 3; i++)
            cs_stats_count("mod_exp", "portable", b);
    tap_ok(cs_stats_read(path, &seg, err, sizeof err) == 0, "read back: %s", err);
    unsigned exact = 0;
    for (unsigned i = 0; i < CS_STATS_SLOTS; i++)
        exact += seg.slot[i].ready;
    tap_ok(total("mod_exp") == 1800 && seg.lost == 0,
           "600 distinct sizes: 1800 calls counted, none lost (%llu, %u exact rows)",
           total("mod_exp"), exact);

    /* 3000 more distinct sizes: the exact table fills, the rest goes to size
     * classes, and the total still matches. */
    for (unsigned b = 2000; b < 5000; b++)
        cs_stats_count("mod_exp_consttime", "libcrypto", b);
    cs_stats_read(path, &seg, err, sizeof err);
    unsigned classes = 0;
    for (unsigned i = 0; i < CS_STATS_OVERFLOW; i++)
        classes += seg.overflow[i].ready;
    tap_ok(total("mod_exp_consttime") == 3000 && total(NULL) == 4800 && seg.lost == 0 && classes > 0,
           "3000 more sizes: counted by size class once the table is full (%llu, %u class rows)",
           total("mod_exp_consttime"), classes);
    int class_ok = 1;
    for (unsigned i = 0; i < CS_STATS_OVERFLOW; i++)
        if (seg.overflow[i].ready && seg.overflow[i].bits != 2048 && seg.overflow[i].bits != 4096 &&
            seg.overflow[i].bits != 8192)
            class_ok = 0;
    tap_ok(class_ok, "size classes are powers of two covering the sizes counted");

    /* A forked child counts into the same segment. */
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 100; i++)
            cs_stats_count("mldsa_sign", "portable", 65);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    cs_stats_read(path, &seg, err, sizeof err);
    tap_ok(total("mldsa_sign") == 100, "a forked child's counts are seen (%llu)", total("mldsa_sign"));

    cs_stats_note("route libcrypto.so.3", "symbols");
    cs_stats_note("route libcrypto.so.3", "dlsym");
    cs_stats_read(path, &seg, err, sizeof err);
    int notes = 0, found = 0;
    for (unsigned i = 0; i < CS_STATS_NOTES; i++)
        if (seg.note[i].ready) {
            notes++;
            found |= !strcmp(seg.note[i].name, "route libcrypto.so.3") &&
                     !strcmp(seg.note[i].value, "dlsym");
        }
    tap_ok(notes == 1 && found, "cs_stats_note: one line per key, latest value");

    /* The file is only a name: truncating it does not touch the counters
     * (no SIGBUS here), and a reader then refuses it. */
    if (truncate(path, 0) == 0)
        cs_stats_count("mod_exp", "portable", 1000);
    tap_ok(cs_stats_read(path, &seg, err, sizeof err) < 0 && strstr(err, "not a cryptoshim"),
           "counting goes on after the file is truncated; the reader refuses the empty file");
    unlink(path);

    /* A segment written by a shim of the other byte order (an emulated
     * big-endian guest on this host) reads the same. */
    int id = shmget(IPC_PRIVATE, sizeof(cs_stats_segment), IPC_CREAT | 0600);
    cs_stats_segment *g = id < 0 ? (void *)-1 : shmat(id, NULL, 0);
    if (g != (void *)-1) {
        const uint64_t token[2] = {0x0123456789abcdefULL, 0xfedcba9876543210ULL};
        g->magic = __builtin_bswap32(CS_STATS_MAGIC);
        g->size = __builtin_bswap32(sizeof *g);
        g->token[0] = __builtin_bswap64(token[0]);
        g->token[1] = __builtin_bswap64(token[1]);
        g->slot[7].key = __builtin_bswap64(42);
        g->slot[7].calls = __builtin_bswap64(123456789);
        g->slot[7].bits = __builtin_bswap32(2048);
        g->slot[7].ready = __builtin_bswap32(1);
        strcpy(g->slot[7].op, "mod_exp");
        strcpy(g->slot[7].kernel, "s390x_mlgr");
        shmdt(g);
        FILE *f = fopen(path, "w");
        fprintf(f, CS_STATS_FILE_TAG "%010d token %016llx%016llx\n", id,
                (unsigned long long)token[0], (unsigned long long)token[1]);
        fclose(f);
        int r = cs_stats_read(path, &seg, err, sizeof err);
        tap_ok(r == 0 && seg.slot[7].ready == 1 && seg.slot[7].calls == 123456789 &&
                   seg.slot[7].bits == 2048 && !strcmp(seg.slot[7].kernel, "s390x_mlgr"),
               "a segment of the other byte order reads the same (%s)", err);
        shmctl(id, IPC_RMID, NULL);
        unlink(path);
    } else
        tap_ok(0, "create a test segment");
    rmdir(dir);
    return tap_done();
}
