/* `cryptoshim calibrate` for the families other than the big numbers
 * (ML-DSA, ML-KEM, X25519/Ed25519, and Keccak with ML-DSA): the shim's own
 * implementations measured against each other here, interleaved, so a
 * calibrated policy names the fastest that runs on this CPU (on an AVX-512
 * CPU without IFMA this is what settles avx512 against avx2). Whether the
 * shim serves a family at all stays the decision of the policy in force
 * (the CLI's libcrypto may have no ML-DSA or ML-KEM to measure against):
 * where it leaves the family to libcrypto, so does the calibrated file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/c25519/c25519.h"
#include "kernels/mldsa/mldsa_backend.h"
#include "kernels/mlkem/mlkem.h"
#include "runtime/dispatch.h"
#include "runtime/registry.h"
#include "runtime/timer.h"
#include "cli.h"

#define ROUNDS 7
#define MAX_IMPLS 8

/* One representative batch of family's work on impl: ML-DSA-65 keygen,
 * sign and verify; ML-KEM-768 keygen, encaps and decaps; X25519 key
 * generation and derive, Ed25519 public key, sign and verify (where the
 * table has them: tables differ in any of these). Returns 0, or -1 if a
 * call fails. */
static int work(int family, const void *impl)
{
    static uint8_t a[4896], b[4896], c[4896], ss[32];
    uint8_t seed[64] = {1, 2, 3}, msg[64] = "cryptoshim calibrate";
    switch (family) {
    case CS_IMPL_MLDSA: {
        const cs_mldsa_impl *im = impl;
        if (cs_mldsa_keygen(im, 65, a, b, seed) ||
            cs_mldsa_sign(im, 65, c, b, msg, sizeof msg, NULL, 0, seed + 32) ||
            cs_mldsa_verify(im, 65, c, cs_mldsa_sig_bytes(65), msg, sizeof msg, NULL, 0, a))
            return -1;
        return 0;
    }
    case CS_IMPL_MLKEM: {
        const cs_mlkem_impl *im = impl;
        if (im->keygen(768, a, b, seed, seed + 32) || im->encaps(768, c, ss, a, seed + 32) ||
            im->decaps(768, ss, c, b))
            return -1;
        return 0;
    }
    case CS_IMPL_C25519: {
        const cs_c25519_impl *im = impl;
        im->x25519_base(a, seed);
        if (!im->x25519(b, seed + 32, a))
            return -1;
        if (im->ed25519_sign) {
            im->ed25519_pubkey(a, seed);
            im->ed25519_sign(c, NULL, 0, msg, sizeof msg, seed, a);
            if (!im->ed25519_verify(c, NULL, 0, msg, sizeof msg, a))
                return -1;
        }
        return 0;
    }
    default: return -1;
    }
}

/* Thread CPU seconds per batch of impl, over about `seconds`. */
static double per_batch(int family, const void *impl, double seconds)
{
    unsigned n = 0;
    double t0 = cs_timer_thread_cpu(), t;
    do {
        if (work(family, impl))
            return -1;
        n++;
    } while ((t = cs_timer_thread_cpu() - t0) < seconds);
    return t / n;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Writes family's rules to out: the fastest usable implementation by the
 * median of ROUNDS interleaved rounds, then the choice in force as the
 * fallback; or libcrypto where the policy in force leaves it there.
 * Returns the implementation written first (NULL: libcrypto), or sets
 * *failed. */
static const void *calibrate_family(FILE *out, int family, unsigned set, double budget,
                                    int *failed)
{
    const char *fname = cs_impl_family_name(family);
    const void *chosen = cs_dispatch_impl(family, (int)set), *impls[MAX_IMPLS], *impl;
    if (!chosen) {
        fprintf(out, "%s 0 65535 libcrypto  # as the policy in force: libcrypto's own (not "
                     "measured here)\n", fname);
        return NULL;
    }
    unsigned n = 0;
    for (unsigned i = 0; (impl = cs_impl_at(family, i)) && n < MAX_IMPLS; i++)
        if (cs_impl_usable(family, impl))
            impls[n++] = impl;
    double t[MAX_IMPLS][ROUNDS], med[MAX_IMPLS];
    for (unsigned r = 0; r < ROUNDS; r++)
        for (unsigned i = 0; i < n; i++)
            if ((t[i][r] = per_batch(family, impls[i], budget / ROUNDS)) < 0) {
                fprintf(stderr, "cryptoshim calibrate: %s %s failed\n", fname,
                        cs_impl_name(impls[i]));
                *failed = 1;
                return chosen;
            }
    unsigned best = 0;
    fprintf(out, "# %s %u:", fname, set);
    for (unsigned i = 0; i < n; i++) {
        qsort(t[i], ROUNDS, sizeof t[i][0], cmp_double);
        med[i] = t[i][ROUNDS / 2];
        fprintf(out, " %s %.1f", cs_impl_name(impls[i]), med[i] * 1e6);
        if (med[i] < med[best])
            best = i;
    }
    const void *fastest = n ? impls[best] : chosen;
    fprintf(out, "\n%s 0 65535 %s\n", fname, cs_impl_name(fastest));
    if (fastest != chosen) /* the choice in force, where the fastest cannot run */
        fprintf(out, "%s 0 65535 %s\n", fname, cs_impl_name(chosen));
    return fastest;
}

int cli_calibrate_impls(FILE *out, double budget, int *step, int steps, double t_start)
{
    static const struct {
        int family;
        unsigned set;
    } fams[] = {{CS_IMPL_MLDSA, 65}, {CS_IMPL_MLKEM, 768}, {CS_IMPL_C25519, 25519}};
    int failed = 0;
    fprintf(out, "# The shim's own implementations against each other (microseconds of thread\n"
                 "# CPU time per batch: ML-DSA-65 keygen+sign+verify, ML-KEM-768\n"
                 "# keygen+encaps+decaps, X25519 base+derive and Ed25519 pubkey+sign+verify);\n"
                 "# whether a family is served at all is the policy in force's decision.\n");
    for (size_t f = 0; f < sizeof fams / sizeof fams[0] && !failed; f++) {
        fprintf(stderr, "calibrate: [%2d/%d] %3.0f s  %s implementations\n", ++*step, steps,
                cs_timer_wall() - t_start, cs_impl_family_name(fams[f].family));
        const void *first = calibrate_family(out, fams[f].family, fams[f].set, budget, &failed);
        if (fams[f].family == CS_IMPL_MLDSA && first)
            /* The stand-alone hashes on the chosen ML-DSA table's Keccak. */
            fprintf(out, "keccak 0 65535 %s\n", ((const cs_mldsa_impl *)first)->keccak->name);
    }
    return failed;
}
