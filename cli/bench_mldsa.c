/* `cryptoshim bench mldsa [-n N] [-p 44|65|87] [--fresh-key]`: in-process
 * timings of ML-DSA keygen, sign and verify for every implementation this
 * CPU may run (CPU features, CRYPTOSHIM_CPU, CRYPTOSHIM_KERNELS), per
 * parameter set. Per operation: median time (TSC cycles on x86-64,
 * nanoseconds elsewhere) and mean operations per second of thread CPU time.
 * Signing is hedged over varying messages, so its mean includes the average
 * rejection count. --fresh-key times signing and verification with another
 * key on every call (a TLS client checking certificates) beside the same
 * operations on one prepared key (what the provider's key cache serves). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "cli.h"
#include "runtime/timer.h"

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
    r->median = cli_median(t, n);
    r->per_sec = secs > 0 ? n / secs : 0;
    return bad ? -1 : 0;
}

/* Keys, signatures and messages for the --fresh-key rows: FRESH_KEYS
 * distinct keys, so consecutive calls never share key material (and the
 * pool outgrows the L1 cache, as a stream of certificates would). */
enum { FRESH_KEYS = 64 };
struct fresh_pool {
    uint8_t pk[FRESH_KEYS][CS_MLDSA_MAX_PK_BYTES];
    uint8_t sk[FRESH_KEYS][CS_MLDSA_MAX_SK_BYTES];
    uint8_t sig[FRESH_KEYS][CS_MLDSA_MAX_SIG_BYTES];
    uint8_t msg[FRESH_KEYS][64];
};

enum { FR_SIGN, FR_SIGN_PREP, FR_VERIFY, FR_VERIFY_PREP, FR_PREP_PK, FR_OPS };
static const char *const fresh_ops[FR_OPS] = {"sign-fresh", "sign-prep", "verify-fresh",
                                              "verify-prep", "prep-pk"};

/* Fills the pool with FRESH_KEYS keys of impl and one signature under each.
 * Returns -1 if a keygen or sign failed. */
static int fresh_fill(const cs_mldsa_impl *im, int ps, struct fresh_pool *fp)
{
    for (unsigned j = 0; j < FRESH_KEYS; j++) {
        uint8_t seed[32] = {99, (uint8_t)j}, rnd[32] = {5, (uint8_t)j};
        memset(fp->msg[j], 0, sizeof fp->msg[j]);
        snprintf((char *)fp->msg[j], sizeof fp->msg[j], "cryptoshim fresh-key %u", j);
        if (cs_mldsa_keygen(im, ps, fp->pk[j], fp->sk[j], seed) ||
            cs_mldsa_sign(im, ps, fp->sig[j], fp->sk[j], fp->msg[j], sizeof fp->msg[j], NULL, 0,
                          rnd))
            return -1;
    }
    return 0;
}

/* Runs n operations of kind op (FR_*) over the pool, call i on key and
 * message i mod FRESH_KEYS: the fresh rows from the encoded key, the
 * prepared rows on that key prepared before the clock starts (every key
 * cached), so a fresh row and its prepared row do the same signing or
 * verification work apart from the preparation; prep-pk prepares (and
 * frees) the public keys in turn. Fills r; -1 if any operation failed. */
static int run_fresh(const cs_mldsa_impl *im, int ps, int op, unsigned n, uint64_t *t,
                     const struct fresh_pool *fp, struct result *r)
{
    size_t sigb = cs_mldsa_sig_bytes(ps);
    static uint8_t sig[CS_MLDSA_MAX_SIG_BYTES];
    uint8_t rnd[32] = {11};
    cs_mldsa_prepared *pr[FRESH_KEYS] = {NULL};
    int bad = 0;
    for (unsigned j = 0; j < FRESH_KEYS && (op == FR_SIGN_PREP || op == FR_VERIFY_PREP); j++)
        if (!(pr[j] = op == FR_SIGN_PREP ? cs_mldsa_prepare_sk(im, ps, fp->sk[j])
                                         : cs_mldsa_prepare_pk(im, ps, fp->pk[j])))
            bad = 1;
    double c0 = cs_timer_thread_cpu();
    for (unsigned i = 0; i < n; i++) {
        unsigned j = i % FRESH_KEYS;
        rnd[1] = (uint8_t)i, rnd[2] = (uint8_t)(i >> 8);
        uint64_t t0 = cs_timer_ticks();
        switch (op) {
        case FR_SIGN:
            bad |= cs_mldsa_sign(im, ps, sig, fp->sk[j], fp->msg[j], sizeof fp->msg[j], NULL, 0,
                                 rnd);
            break;
        case FR_SIGN_PREP:
            bad |= !pr[j] ||
                   cs_mldsa_sign_prepared(pr[j], sig, fp->msg[j], sizeof fp->msg[j], NULL, 0, rnd);
            break;
        case FR_VERIFY:
            bad |= cs_mldsa_verify(im, ps, fp->sig[j], sigb, fp->msg[j], sizeof fp->msg[j], NULL,
                                   0, fp->pk[j]) != 0;
            break;
        case FR_VERIFY_PREP:
            bad |= !pr[j] || cs_mldsa_verify_prepared(pr[j], fp->sig[j], sigb, fp->msg[j],
                                                      sizeof fp->msg[j], NULL, 0) != 0;
            break;
        default: {
            cs_mldsa_prepared *q = cs_mldsa_prepare_pk(im, ps, fp->pk[j]);
            bad |= q == NULL;
            cs_mldsa_prepared_free(q);
            break;
        }
        }
        t[i] = cs_timer_ticks() - t0;
    }
    double secs = cs_timer_thread_cpu() - c0;
    for (unsigned j = 0; j < FRESH_KEYS; j++)
        cs_mldsa_prepared_free(pr[j]);
    r->median = cli_median(t, n);
    r->per_sec = secs > 0 ? n / secs : 0;
    return bad ? -1 : 0;
}

int cli_bench_mldsa(int argc, char **argv)
{
    unsigned n = 300;
    int only = 0, fresh = 0;
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
        } else if (!strcmp(argv[i], "--fresh-key"))
            fresh = 1;
        else if (!strcmp(argv[i], "-k")) /* per-hook timings instead */
            return cli_bench_mldsa_hooks();
        else {
            fprintf(stderr,
                    "usage: cryptoshim bench mldsa [-n N] [-p 44|65|87] [--fresh-key] | -k\n");
            return 2;
        }
    }
    if (n < 1 || (only && !cs_mldsa_params_get(only))) {
        fprintf(stderr, "cryptoshim bench mldsa: bad -n or -p\n");
        return 2;
    }
    uint64_t *t = malloc(n * sizeof *t);
    struct fresh_pool *fp = fresh ? malloc(sizeof *fp) : NULL;
    if (!t || (fresh && !fp)) {
        free(t);
        return 1;
    }
    static const int sets[3] = {44, 65, 87};
    static const char *const ops[3] = {"keygen", "sign", "verify"};
    int status = 0;
    int opw = fresh ? 12 : 7, nops = fresh ? FR_OPS : 3;
    printf("%-10s %-10s %-*s %14s %12s\n", "kernel", "set", opw, "op", "median " CS_TIMER_TICK_UNIT,
           "ops/s (cpu)");
    for (unsigned k = 0; cs_mldsa_impls[k]; k++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[k];
        const char *name = cs_mldsa_impl_name(im);
        if (!cs_impl_usable(CS_IMPL_MLDSA, im)) {
            printf("%-10s (not usable here)\n", name);
            continue;
        }
        for (unsigned s = 0; s < 3; s++) {
            if (only && only != sets[s])
                continue;
            char set[16];
            snprintf(set, sizeof set, "ML-DSA-%d", sets[s]);
            if (fresh && fresh_fill(im, sets[s], fp)) {
                printf("%-10s %-10s %-*s FAILED\n", name, set, opw, "keys");
                status = 1;
                continue;
            }
            for (int op = 0; op < nops; op++) {
                struct result r;
                const char *opname = fresh ? fresh_ops[op] : ops[op];
                if (fresh ? run_fresh(im, sets[s], op, n, t, fp, &r)
                          : run(im, sets[s], op, n, t, &r)) {
                    printf("%-10s %-10s %-*s FAILED\n", name, set, opw, opname);
                    status = 1;
                    continue;
                }
                printf("%-10s %-10s %-*s %14llu %12.0f\n", name, set, opw, opname,
                       (unsigned long long)r.median, r.per_sec);
                fflush(stdout);
            }
        }
    }
    free(t);
    free(fp);
    return status;
}
