/* Differential test of every non-portable ML-DSA implementation this CPU
 * runs (the AVX2 backend on x86-64) against the portable one over 10,000
 * random seeds and messages per parameter set: identical public and
 * private keys, identical deterministic signatures (and hedged ones with
 * the same rnd on every fourth trial), and each signature verifies under
 * the other implementation. About 20 s natively; prints one TAP line per
 * (implementation, parameter set). Elsewhere it skips (no second impl). */
#include <stdio.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "support/tap.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define TRIALS 10000

/* AVX2 with OS support for YMM state (the features the impls declare). */
static uint32_t cpu_features(void)
{
    uint32_t f = 0;
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5))) {
        unsigned lo, hi;
        __get_cpuid(1, &a, &b, &c, &d);
        if (c & (1u << 27)) {
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6) == 6)
                f |= CS_CPU_AVX2 | CS_CPU_BMI2;
        }
    }
#endif
    return f;
}

/* Runs TRIALS random trials of im against portable for set ps; returns the
 * number of mismatches (the first few are described). */
static unsigned compare(const cs_mldsa_impl *im, int ps)
{
    static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES],
        sk1[CS_MLDSA_MAX_SK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES], sig1[CS_MLDSA_MAX_SIG_BYTES],
        sig2[CS_MLDSA_MAX_SIG_BYTES];
    const cs_mldsa_impl *P = &cs_mldsa_portable;
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    unsigned bad = 0;
    for (unsigned t = 0; t < TRIALS; t++) {
        uint8_t seed[32], rnd[32] = {0}, msg[160], ctx[32];
        size_t mlen = tap_rng_u64() % sizeof msg, clen = tap_rng_u64() % sizeof ctx;
        tap_rng_bytes(seed, sizeof seed);
        tap_rng_bytes(msg, mlen);
        tap_rng_bytes(ctx, clen);
        int ok = cs_mldsa_keygen(im, ps, pk1, sk1, seed) == 0 &&
                 cs_mldsa_keygen(P, ps, pk2, sk2, seed) == 0 && !memcmp(pk1, pk2, pkb) &&
                 !memcmp(sk1, sk2, skb);
        const char *what = "keygen";
        for (int hedged = 0; ok && hedged <= (t % 4 == 3); hedged++) {
            if (hedged)
                tap_rng_bytes(rnd, sizeof rnd);
            what = hedged ? "hedged sign" : "deterministic sign";
            ok = cs_mldsa_sign(im, ps, sig1, sk1, msg, mlen, ctx, clen, rnd) == 0 &&
                 cs_mldsa_sign(P, ps, sig2, sk2, msg, mlen, ctx, clen, rnd) == 0 &&
                 !memcmp(sig1, sig2, sigb);
            if (ok) {
                what = "verify";
                ok = cs_mldsa_verify(im, ps, sig2, sigb, msg, mlen, ctx, clen, pk1) == 0 &&
                     cs_mldsa_verify(P, ps, sig1, sigb, msg, mlen, ctx, clen, pk2) == 0;
            }
        }
        if (!ok && bad++ < 5)
            tap_diag("ML-DSA-%d %s trial %u: %s differs from portable", ps, im->name, t, what);
    }
    return bad;
}

int main(void)
{
    static const int sets[3] = {44, 65, 87};
    uint32_t have = cpu_features();
    unsigned others = 0;
    tap_rng_seed(0x4d4c44534121ULL);
    for (unsigned i = 1; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if ((im->cpu_features & have) != im->cpu_features) {
            tap_skip("%s: CPU lacks its features", im->name);
            continue;
        }
        others++;
        for (unsigned s = 0; s < 3; s++)
            tap_ok(compare(im, sets[s]) == 0,
                   "ML-DSA-%d %s: %d random keys and signatures equal portable's", sets[s],
                   im->name, TRIALS);
    }
    if (!others)
        tap_skip("no implementation besides portable runs here");
    return tap_done();
}
