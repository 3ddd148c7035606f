/* `cryptoshim bench mldsa [-n N] [-p 44|65|87]`: in-process timings of ML-DSA
 * keygen, sign and verify for every implementation this CPU may run
 * (CPU features, CRYPTOSHIM_CPU, CRYPTOSHIM_KERNELS), per parameter set.
 * Per operation: median time (TSC cycles on x86-64, nanoseconds elsewhere)
 * and mean operations per second of thread CPU time. Signing is hedged
 * over varying messages, so its mean includes the average rejection count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/controls.h"
#include "cli.h"
#include "tools/bench/timer.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct result {
    uint64_t median;
    double per_sec;
};

enum { OP_KEYGEN, OP_SIGN, OP_VERIFY };

/* Runs n operations of kind op; fills r. Returns -1 if any failed. */
static int run(const cs_mldsa_impl *im, int ps, int op, unsigned n, uint64_t *t,
               struct result *r)
{
    static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES],
        sig[CS_MLDSA_MAX_SIG_BYTES];
    uint8_t seed[32] = {42}, rnd[32] = {7}, msg[64] = "cryptoshim bench";
    size_t sigb = cs_mldsa_sig_bytes(ps);
    int bad = 0;
    uint8_t vmsg[sizeof msg];
    memcpy(vmsg, msg, sizeof msg);
    if (cs_mldsa_keygen(im, ps, pk, sk, seed) || cs_mldsa_sign(im, ps, sig, sk, msg, sizeof msg,
                                                               NULL, 0, rnd))
        return -1;
    double c0 = cs_timer_thread_cpu();
    for (unsigned i = 0; i < n; i++) {
        seed[1] = rnd[1] = (uint8_t)i;
        seed[2] = rnd[2] = (uint8_t)(i >> 8);
        msg[60] = (uint8_t)i, msg[61] = (uint8_t)(i >> 8);
        uint64_t t0 = cs_timer_ticks();
        switch (op) {
        case OP_KEYGEN:
            bad |= cs_mldsa_keygen(im, ps, pk, sk, seed);
            break;
        case OP_SIGN:
            bad |= cs_mldsa_sign(im, ps, sig, sk, msg, sizeof msg, NULL, 0, rnd);
            break;
        default:
            /* the same valid signature each time */
            bad |= cs_mldsa_verify(im, ps, sig, sigb, vmsg, sizeof vmsg, NULL, 0, pk) != 0;
            break;
        }
        t[i] = cs_timer_ticks() - t0;
    }
    double secs = cs_timer_thread_cpu() - c0;
    qsort(t, n, sizeof t[0], cmp_u64);
    r->median = t[n / 2];
    r->per_sec = secs > 0 ? n / secs : 0;
    return bad ? -1 : 0;
}

int cli_bench_mldsa(int argc, char **argv)
{
    unsigned n = 300;
    int only = 0;
    for (int i = 1; i < argc; i++) {
        unsigned long v;
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            if (!cli_parse_number(argv[++i], 1, 1000000, &v)) {
                fprintf(stderr, "cryptoshim bench mldsa: -n wants 1 to 1000000\n");
                return 2;
            }
            n = (unsigned)v;
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            if (!cli_parse_number(argv[++i], 44, 87, &v) || (v != 44 && v != 65 && v != 87)) {
                fprintf(stderr, "cryptoshim bench mldsa: -p wants 44, 65 or 87\n");
                return 2;
            }
            only = (int)v;
        } else if (!strcmp(argv[i], "-k")) /* per-hook timings instead */
            return cli_bench_mldsa_hooks();
        else {
            fprintf(stderr, "usage: cryptoshim bench mldsa [-n N] [-p 44|65|87] | -k\n");
            return 2;
        }
    }
    if (n < 1 || (only && !cs_mldsa_params_get(only))) {
        fprintf(stderr, "cryptoshim bench mldsa: bad -n or -p\n");
        return 2;
    }
    uint64_t *t = malloc(n * sizeof *t);
    if (!t)
        return 1;
    static const int sets[3] = {44, 65, 87};
    static const char *const ops[3] = {"keygen", "sign", "verify"};
    int status = 0;
    printf("%-10s %-10s %-7s %14s %12s\n", "kernel", "set", "op", "median " CS_TIMER_TICK_UNIT,
           "ops/s (cpu)");
    for (unsigned k = 0; cs_mldsa_impls[k]; k++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[k];
        uint32_t need = cs_mldsa_impl_cpu_features(im);
        const char *name = cs_mldsa_impl_name(im);
        if ((cs_cpu_features() & need) != need || !cs_kernel_allowed(name)) {
            printf("%-10s (not usable here)\n", name);
            continue;
        }
        for (unsigned s = 0; s < 3; s++) {
            if (only && only != sets[s])
                continue;
            for (int op = 0; op < 3; op++) {
                struct result r;
                char set[16];
                snprintf(set, sizeof set, "ML-DSA-%d", sets[s]);
                if (run(im, sets[s], op, n, t, &r)) {
                    printf("%-10s %-10s %-7s FAILED\n", name, set, ops[op]);
                    status = 1;
                    continue;
                }
                printf("%-10s %-10s %-7s %14llu %12.0f\n", name, set, ops[op],
                       (unsigned long long)r.median, r.per_sec);
                fflush(stdout);
            }
        }
    }
    free(t);
    return status;
}
