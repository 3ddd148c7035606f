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

#define MAX_ROUNDS CLI_BENCH_MAX_ROUNDS
#define MAX_IMPLS 8

enum { OP_KEYGEN, OP_ENCAPS, OP_DECAPS, OP_PREPARE, OP_ENCAPS_PREP, OP_DECAPS_PREP, OPS };
static const char *const op_names[OPS] = {"keygen", "encaps", "decaps",
                                          "prepare", "enc.prep", "dec.prep"};

/* A table's implementations, parameter set and operation. */
struct bench {
    const void *use[MAX_IMPLS];
    int ps, op;
};

/* One round: n calls of the operation by b->use[k] (cli_bench_fn).
 * Returns -1 if a call failed or decapsulation disagreed. */
static int run(void *vb, unsigned k, unsigned n, uint64_t *t, double *secs)
{
    const struct bench *b = vb;
    const cs_mlkem_impl *im = b->use[k];
    int ps = b->ps, op = b->op;
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
    return bad ? -1 : 0;
}

int cli_bench_mlkem(int argc, char **argv)
{
    unsigned n = 300, rounds = 3;
    unsigned long only = 0;
    const cli_opt opts[] = {{"-p", 512, 1024, &only}};
    if (!cli_bench_args(argc, argv, &n, &rounds, MAX_ROUNDS, opts, 1) ||
        (only && !cs_mlkem_ek_bytes((int)only))) {
        fprintf(stderr, "usage: cryptoshim bench mlkem [-n N] [-r ROUNDS (1-%d)] "
                        "[-p 512|768|1024]\n", MAX_ROUNDS);
        return 2;
    }
    struct bench b;
    const void **use = b.use;
    unsigned nimpl = cli_bench_impls(CS_IMPL_MLKEM, use, MAX_IMPLS, 10, NULL);
    uint64_t *t = malloc(n * sizeof *t);
    if (!t)
        return 1;
    static const int sets[3] = {512, 768, 1024};
    int status = 0;
    printf("%-10s %-12s %-8s %14s %22s %12s\n", "kernel", "set", "op",
           "median " CS_TIMER_TICK_UNIT, "range of rounds", "ops/s (cpu)");
    for (unsigned s = 0; s < 3; s++) {
        if (only && only != (unsigned long)sets[s])
            continue;
        char set[16];
        snprintf(set, sizeof set, "ML-KEM-%d", sets[s]);
        b.ps = sets[s];
        for (b.op = 0; b.op < OPS; b.op++) {
            cli_bench_row row[MAX_IMPLS];
            status |= cli_bench_rounds(run, &b, nimpl, rounds, n, t, row);
            for (unsigned k = 0; k < nimpl; k++)
                if (row[k].failed)
                    printf("%-10s %-12s %-8s FAILED\n", cs_impl_name(use[k]), set, op_names[b.op]);
                else
                    printf("%-10s %-12s %-8s %14llu %22s %12.0f\n", cs_impl_name(use[k]), set,
                           op_names[b.op], (unsigned long long)row[k].median, row[k].range,
                           row[k].per_sec);
        }
    }
    free(t);
    return status;
}
