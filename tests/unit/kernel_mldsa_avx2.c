/* Differential test of every non-portable ML-DSA implementation this CPU
 * runs (the AVX2 backend on x86-64) against the portable one over 10,000
 * random seeds and messages per parameter set: identical public and
 * private keys, identical deterministic signatures (and hedged ones with
 * the same rnd on every fourth trial), and each signature verifies under
 * the other implementation. The portable results are computed once per
 * trial for all impls. About 30 s of CPU natively; one TAP line per
 * (implementation, parameter set). Elsewhere it skips (no second impl).
 * Cross-built (s390x_vx under qemu, about 100x slower than native) it runs
 * 1,000 trials per set under make test and all 10,000 under make test-cross
 * (CS_CROSS_FULL=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"


#define TRIALS_FULL 10000
#define TRIALS_EMULATED 1000

/* Trials per parameter set: every one natively and under make test-cross. */
static unsigned trials(void)
{
#if defined(__x86_64__)
    return TRIALS_FULL;
#else
    const char *full = getenv("CS_CROSS_FULL"); /* set by make test-cross */
    return full && !strcmp(full, "1") ? TRIALS_FULL : TRIALS_EMULATED;
#endif
}

/* Runs trials() random trials for set ps, each computing the portable
 * results once and comparing every impl in ims[0..n) with them; counts
 * mismatches per impl in bad[] (the first few are described). */
static void compare(const cs_mldsa_impl *const *ims, unsigned n, int ps, unsigned *bad)
{
    static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES],
        sk1[CS_MLDSA_MAX_SK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES], sig1[CS_MLDSA_MAX_SIG_BYTES],
        sig2[2][CS_MLDSA_MAX_SIG_BYTES];
    const cs_mldsa_impl *P = &cs_mldsa_portable;
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    for (unsigned t = 0, total = trials(); t < total; t++) {
        uint8_t seed[32], rnd[2][32] = {{0}}, msg[160], ctx[32];
        size_t mlen = tap_rng_u64() % sizeof msg, clen = tap_rng_u64() % sizeof ctx;
        unsigned nsig = t % 4 == 3 ? 2 : 1; /* deterministic, plus hedged every 4th */
        tap_rng_bytes(seed, sizeof seed);
        tap_rng_bytes(msg, mlen);
        tap_rng_bytes(ctx, clen);
        tap_rng_bytes(rnd[1], sizeof rnd[1]);
        int pok = cs_mldsa_keygen(P, ps, pk2, sk2, seed) == 0;
        for (unsigned h = 0; h < nsig; h++)
            pok &= cs_mldsa_sign(P, ps, sig2[h], sk2, msg, mlen, ctx, clen, rnd[h]) == 0;
        for (unsigned i = 0; i < n; i++) {
            const cs_mldsa_impl *im = ims[i];
            const char *what = "keygen";
            int ok = pok && cs_mldsa_keygen(im, ps, pk1, sk1, seed) == 0 &&
                     !memcmp(pk1, pk2, pkb) && !memcmp(sk1, sk2, skb);
            for (unsigned h = 0; ok && h < nsig; h++) {
                what = h ? "hedged sign" : "deterministic sign";
                ok = cs_mldsa_sign(im, ps, sig1, sk1, msg, mlen, ctx, clen, rnd[h]) == 0 &&
                     !memcmp(sig1, sig2[h], sigb);
                if (ok) {
                    what = "verify";
                    ok = cs_mldsa_verify(im, ps, sig2[h], sigb, msg, mlen, ctx, clen, pk1) == 0 &&
                         cs_mldsa_verify(P, ps, sig1, sigb, msg, mlen, ctx, clen, pk2) == 0;
                }
            }
            if (!ok && bad[i]++ < 5)
                tap_diag("ML-DSA-%d %s trial %u: %s differs from portable", ps, im->name, t,
                         what);
        }
    }
}

int main(void)
{
    static const int sets[3] = {44, 65, 87};
    const cs_mldsa_impl *ims[8];
    unsigned n = 0;
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(0x4d4c44534121ULL);
    for (unsigned i = 1; cs_mldsa_impls[i] && n < 8; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if (impl_runs(im->name, im->cpu_features, have))
            ims[n++] = im;
    }
    if (!n)
        tap_skip("no implementation besides portable runs here");
    for (unsigned s = 0; n && s < 3; s++) {
        unsigned bad[8] = {0};
        compare(ims, n, sets[s], bad);
        for (unsigned i = 0; i < n; i++)
            tap_ok(bad[i] == 0, "ML-DSA-%d %s: %d random keys and signatures equal portable's",
                   sets[s], ims[i]->name, trials());
    }
    return tap_done();
}
