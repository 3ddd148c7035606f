/* Constant-time check of ML-DSA keygen and signing under valgrind memcheck
 * (run by scripts/run-tests.sh with --error-exitcode): the seed, the
 * private key and rnd are marked undefined, so any branch or memory index
 * that depends on them is reported. The kernels declassify only rho and
 * the public outputs, the rejection decisions and ctilde (see
 * kernels/mldsa/sign.c); everything else must stay secret-independent.
 * Every implementation this CPU runs is checked. Without valgrind the
 * client requests are no-ops and the test only checks results. Valgrind 3.19
 * executes no AVX-512: the second build of this file, ct_mldsa_avx512emu
 * (CT_AVX512_EMULATED, mk/ctemu.mk), links the AVX-512 kernels compiled over
 * tests/unit/ctemu/avx512_emul.h and checks only the tables that need them. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/cpu.h"
#include "support/ct_impl_runs.h"
#include "support/tap.h"


#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static void check(const cs_mldsa_impl *im, int ps, unsigned trial)
{
    static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES],
        sk[CS_MLDSA_MAX_SK_BYTES], sig[CS_MLDSA_MAX_SIG_BYTES];
    uint8_t seed[32], rnd[32], mu[64], msg[33] = "constant time, please", ctx[5] = "ctx";
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    tap_rng_bytes(seed, 32);
    tap_rng_bytes(rnd, 32);
    tap_rng_bytes(mu, 64);
    if (trial == 0)
        memset(rnd, 0, 32); /* deterministic signing too */

    SECRET(seed, 32);
    int rc = cs_mldsa_keygen(im, ps, pk, sk, seed);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0 && VALGRIND_CHECK_MEM_IS_DEFINED(pk, pkb) == 0,
           "ML-DSA-%d %s keygen (secret seed), pk public", ps, im->name);

    SECRET(sk, skb);
    SECRET(rnd, 32);
    rc = cs_mldsa_sign(im, ps, sig, sk, msg, sizeof msg, ctx, 3, rnd);
    PUBLIC(&rc, sizeof rc);
    int defined = VALGRIND_CHECK_MEM_IS_DEFINED(sig, sigb) == 0;
    tap_ok(rc == 0 && defined &&
               cs_mldsa_verify(im, ps, sig, sigb, msg, sizeof msg, ctx, 3, pk) == 0,
           "ML-DSA-%d %s sign (secret sk, rnd), signature verifies", ps, im->name);

    rc = cs_mldsa_sign_mu(im, ps, sig, sk, mu, rnd);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0 && cs_mldsa_verify_mu(im, ps, sig, sigb, mu, pk) == 0,
           "ML-DSA-%d %s sign_mu (secret sk, rnd)", ps, im->name);

    /* Prepared private key: made from the secret sk, then used to sign
     * (the state itself stays secret: NTT(s1), NTT(s2), NTT(t0), K). */
    static uint8_t sig2[CS_MLDSA_MAX_SIG_BYTES];
    cs_mldsa_prepared *prs = cs_mldsa_prepare_sk(im, ps, sk);
    PUBLIC(&prs, sizeof prs);
    rc = prs ? cs_mldsa_sign_prepared(prs, sig2, msg, sizeof msg, ctx, 3, rnd) : -1;
    PUBLIC(&rc, sizeof rc);
    defined = VALGRIND_CHECK_MEM_IS_DEFINED(sig2, sigb) == 0;
    rc |= prs ? cs_mldsa_sign_mu_prepared(prs, sig, mu, rnd) : -1;
    PUBLIC(&rc, sizeof rc);
    defined &= VALGRIND_CHECK_MEM_IS_DEFINED(sig, sigb) == 0;
    cs_mldsa_prepared *prv = cs_mldsa_prepare_pk(im, ps, pk);
    tap_ok(rc == 0 && defined && prv &&
               cs_mldsa_verify_prepared(prv, sig2, sigb, msg, sizeof msg, ctx, 3) == 0 &&
               cs_mldsa_verify_mu_prepared(prv, sig, sigb, mu) == 0,
           "ML-DSA-%d %s prepare_sk, sign_prepared, sign_mu_prepared (secret sk, rnd)", ps,
           im->name);
    cs_mldsa_prepared_free(prs);
    cs_mldsa_prepared_free(prv);

    rc = cs_mldsa_pk_from_sk(im, ps, pk2, sk);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0 && !memcmp(pk, pk2, pkb), "ML-DSA-%d %s pk_from_sk (secret sk)", ps,
           im->name);
}

int main(void)
{
    static const int sets[3] = {44, 65, 87};
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(204);
    for (unsigned i = 0; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if (!ct_impl_runs(im->name, im->cpu_features, have,
                          " (under valgrind: checked emulated by ct_mldsa_avx512emu)"))
            continue;
        for (unsigned t = 0; t < 2; t++)
            for (unsigned s = 0; s < 3; s++)
                check(im, sets[s], t);
    }
    return tap_done();
}
