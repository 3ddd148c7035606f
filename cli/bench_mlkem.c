/* `cryptoshim bench mlkem [-n N] [-r ROUNDS] [-p 512|768|1024]`: in-process
 * timings of ML-KEM keygen, encapsulation and decapsulation, unprepared and
 * on a prepared key (prepare: what a public-key import adds), for every
 * implementation this CPU may run (CPU features, CRYPTOSHIM_CPU,
 * CRYPTOSHIM_KERNELS), per parameter set. The implementations take turns
 * within each round (interleaved, so a busy neighbour slows all alike); per
 * operation the median of the rounds' medians (TSC cycles on x86-64,
 * nanoseconds elsewhere), the rounds' range, and operations per second of
 * thread CPU time. Inputs vary per call from fixed seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "cli.h"
#include "runtime/timer.h"

#define MAX_ROUNDS 15

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

enum { OP_KEYGEN, OP_ENCAPS, OP_DECAPS, OP_PREPARE, OP_ENCAPS_PREP, OP_DECAPS_PREP, OPS };
static const char *const op_names[OPS] = {"keygen", "encaps", "decaps",
                                          "prepare", "enc.prep", "dec.prep"};

/* One round: n calls of op on im for parameter set ps; the median ticks into *median and the
 * CPU seconds into *secs. Returns -1 if a call failed or decapsulation disagreed. */
static int run(const cs_mlkem_impl *im, int ps, int op, unsigned n, uint64_t *t,
               uint64_t *median, double *secs)
{
    static uint8_t ek[1568], dk[3168], ct[1568];
    uint8_t d[32] = {42}, z[32] = {43}, m[32] = {44}, ss[32], ss2[32];
    cs_mlkem_prepared *pr = cs_mlkem_prepared_new(ps);
    int bad = !pr || im->keygen_prepared(ps, ek, dk, d, z, pr) || im->encaps(ps, ct, ss, ek, m);
    double c0 = cs_timer_thread_cpu();
    for (unsigned i = 0; i < n; i++) {
        d[1] = m[1] = (uint8_t)i;
        d[2] = m[2] = (uint8_t)(i >> 8);
        uint64_t t0 = cs_timer_ticks();
        switch (op) {
        case OP_KEYGEN:
            bad |= im->keygen(ps, ek, dk, d, z);
            break;
        case OP_ENCAPS:
            bad |= im->encaps(ps, ct, ss, ek, m);
            break;
        case OP_DECAPS: /* the same valid ciphertext each time */
            bad |= im->decaps(ps, ss2, ct, dk);
            break;
        case OP_PREPARE:
            bad |= im->prepare(ps, pr, ek);
            break;
        case OP_ENCAPS_PREP:
            bad |= im->encaps_prepared(pr, ct, ss, m);
            break;
        default:
            bad |= im->decaps_prepared(pr, ss2, ct, dk);
            break;
        }
        t[i] = cs_timer_ticks() - t0;
    }
    *secs = cs_timer_thread_cpu() - c0;
    if (op == OP_DECAPS || op == OP_DECAPS_PREP)
        bad |= memcmp(ss, ss2, 32) != 0;
    cs_mlkem_prepared_free(pr);
    qsort(t, n, sizeof t[0], cmp_u64);
    *median = t[n / 2];
    return bad ? -1 : 0;
}

int cli_bench_mlkem(int argc, char **argv)
{
    unsigned n = 300, rounds = 3;
    int only = 0;
    for (int i = 1; i < argc; i++) {
        unsigned long v;
        if (!strcmp(argv[i], "-n") && i + 1 < argc && cli_parse_number(argv[i + 1], 1, 1000000, &v))
            n = (unsigned)v, i++;
        else if (!strcmp(argv[i], "-r") && i + 1 < argc &&
                 cli_parse_number(argv[i + 1], 1, MAX_ROUNDS, &v))
            rounds = (unsigned)v, i++;
        else if (!strcmp(argv[i], "-p") && i + 1 < argc &&
                 cli_parse_number(argv[i + 1], 512, 1024, &v) && cs_mlkem_ek_bytes((int)v))
            only = (int)v, i++;
        else {
            fprintf(stderr, "usage: cryptoshim bench mlkem [-n N] [-r ROUNDS (1-%d)] "
                            "[-p 512|768|1024]\n", MAX_ROUNDS);
            return 2;
        }
    }
    const cs_mlkem_impl *use[8];
    unsigned nimpl = 0;
    for (unsigned k = 0; cs_mlkem_impls[k] && nimpl < 8; k++) {
        const cs_mlkem_impl *im = cs_mlkem_impls[k];
        if (!cs_impl_usable(CS_IMPL_MLKEM, im))
            printf("%-10s (not usable here)\n", im->name);
        else
            use[nimpl++] = im;
    }
    uint64_t *t = malloc(n * sizeof *t);
    if (!t)
        return 1;
    static const int sets[3] = {512, 768, 1024};
    int status = 0;
    printf("%-10s %-12s %-8s %14s %22s %12s\n", "kernel", "set", "op",
           "median " CS_TIMER_TICK_UNIT, "range of rounds", "ops/s (cpu)");
    for (unsigned s = 0; s < 3; s++) {
        if (only && only != sets[s])
            continue;
        for (int op = 0; op < OPS; op++) {
            uint64_t med[8][MAX_ROUNDS];
            double secs[8] = {0};
            int failed[8] = {0};
            for (unsigned r = 0; r < rounds; r++)
                for (unsigned k = 0; k < nimpl; k++) {
                    double sec;
                    failed[k] |= run(use[k], sets[s], op, n, t, &med[k][r], &sec);
                    secs[k] += sec;
                }
            for (unsigned k = 0; k < nimpl; k++) {
                char set[16];
                snprintf(set, sizeof set, "ML-KEM-%d", sets[s]);
                if (failed[k]) {
                    printf("%-10s %-12s %-8s FAILED\n", use[k]->name, set, op_names[op]);
                    status = 1;
                    continue;
                }
                qsort(med[k], rounds, sizeof med[k][0], cmp_u64);
                char range[48];
                snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)med[k][0],
                         (unsigned long long)med[k][rounds - 1]);
                printf("%-10s %-12s %-8s %14llu %22s %12.0f\n", use[k]->name, set, op_names[op],
                       (unsigned long long)med[k][rounds / 2], range,
                       secs[k] > 0 ? rounds * n / secs[k] : 0);
            }
        }
    }
    free(t);
    return status;
}
