/* `cryptoshim stats PATH`: the counters named by a CRYPTOSHIM_STATS file. */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/stats.h"
#include "cli.h"

/* Prints the rows of one counter table; overflow rows (size classes) show
 * their range of bits as "LO..HI". */
static void print_table(const cs_stats_slot *t, unsigned n, int classes)
{
    for (unsigned i = 0; i < n; i++) {
        const cs_stats_slot *s = &t[i];
        if (!s->ready)
            continue;
        if (classes)
            printf("%.*s\t%.*s\t%u..%u\t%llu\n", CS_STATS_NAME, s->op, CS_STATS_NAME, s->kernel,
                   s->bits / 2 + 1, s->bits, (unsigned long long)s->calls);
        else
            printf("%.*s\t%.*s\t%u\t%llu\n", CS_STATS_NAME, s->op, CS_STATS_NAME, s->kernel,
                   s->bits, (unsigned long long)s->calls);
    }
}

int cli_stats(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cryptoshim stats PATH\n");
        return 2;
    }
    static cs_stats_segment seg;
    char err[256];
    if (cs_stats_read(argv[1], &seg, err, sizeof err) < 0) {
        fprintf(stderr, "cryptoshim stats: %s\n", err);
        return 1;
    }
    printf("operation\tkernel\tbits\tcalls\n");
    print_table(seg.slot, CS_STATS_SLOTS, 0);
    print_table(seg.overflow, CS_STATS_OVERFLOW, 1);
    /* Status notes (routes taken) after the counter rows, as comment lines. */
    for (unsigned i = 0; i < CS_STATS_NOTES; i++) {
        const cs_stats_note_slot *n = &seg.note[i];
        if (n->ready)
            printf("# %.*s: %.*s\n", CS_STATS_NOTE_KEY, n->name, CS_STATS_NOTE_VALUE, n->value);
    }
    if (seg.lost) {
        printf("# lost: %llu\n", (unsigned long long)seg.lost);
        fprintf(stderr, "cryptoshim stats: %llu calls found no counter\n",
                (unsigned long long)seg.lost);
        return 1;
    }
    return 0;
}
