/* Prepared ML-DSA keys (cs_mldsa_prepare_sk/_pk) against the unprepared
 * functions: for every implementation this CPU runs and 300 random seeds
 * (parameter sets in turn), signatures (deterministic and hedged, with a
 * context string, and on external mu) are byte-identical to the portable
 * unprepared ones, a prepared key gives the same signature when reused,
 * and prepared verification gives the unprepared verdict on valid,
 * corrupted, wrong-message and wrong-context inputs. One TAP line per
 * implementation and check. (Wycheproof vectors through the prepared path
 * are in kernel_mldsa.c.) */
#include <stdio.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"


#define SEEDS 300

static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES];
static uint8_t sig1[CS_MLDSA_MAX_SIG_BYTES], sig2[CS_MLDSA_MAX_SIG_BYTES];

/* Failure counts of one implementation over all seeds. */
struct fails {
    int prep, tr, sign, sign_mu, reuse, verify;
};

/* Verdicts of prepared and unprepared verification agree on sig/msg/ctx. */
static int same_verdict(const cs_mldsa_impl *im, const cs_mldsa_prepared *prv, int ps,
                        const uint8_t *sig, const uint8_t *msg, size_t msglen,
                        const uint8_t *ctx, size_t ctxlen, const uint8_t mu[64])
{
    size_t sigb = cs_mldsa_sig_bytes(ps);
    int a = cs_mldsa_verify(im, ps, sig, sigb, msg, msglen, ctx, ctxlen, pk);
    int b = cs_mldsa_verify_prepared(prv, sig, sigb, msg, msglen, ctx, ctxlen);
    int c = cs_mldsa_verify_mu(im, ps, sig, sigb, mu, pk);
    int d = cs_mldsa_verify_mu_prepared(prv, sig, sigb, mu);
    return a == b && c == d;
}

static void run(const cs_mldsa_impl *im, struct fails *f)
{
    static const int sets[3] = {44, 65, 87};
    const cs_mldsa_impl *port = &cs_mldsa_portable;
    for (int i = 0; i < SEEDS; i++) {
        int ps = sets[i % 3];
        size_t sigb = cs_mldsa_sig_bytes(ps);
        uint8_t seed[32], rnd[32], msg[80], ctx[16], mu[64], tr[64];
        size_t msglen = (size_t)(i % 80), ctxlen = (size_t)(i % 17) % 16;
        tap_rng_bytes(seed, sizeof seed);
        tap_rng_bytes(rnd, sizeof rnd);
        tap_rng_bytes(msg, sizeof msg);
        tap_rng_bytes(ctx, sizeof ctx);
        tap_rng_bytes(mu, sizeof mu);
        if (i % 2)
            memset(rnd, 0, sizeof rnd); /* deterministic half the time */
        if (cs_mldsa_keygen(port, ps, pk, sk, seed) != 0) {
            f->prep++;
            continue;
        }
        cs_mldsa_prepared *prs = cs_mldsa_prepare_sk(im, ps, sk);
        cs_mldsa_prepared *prv = cs_mldsa_prepare_pk(im, ps, pk);
        if (!prs || !prv || cs_mldsa_prepared_ps(prs) != ps ||
            cs_mldsa_prepared_impl(prv) != im) {
            f->prep++;
            cs_mldsa_prepared_free(prs);
            cs_mldsa_prepared_free(prv);
            continue;
        }
        cs_mldsa_pk_tr(im, ps, tr, pk);
        f->tr += memcmp(cs_mldsa_prepared_tr(prs), tr, 64) != 0 ||
                 memcmp(cs_mldsa_prepared_tr(prv), tr, 64) != 0;

        int rc1 = cs_mldsa_sign(port, ps, sig1, sk, msg, msglen, ctx, ctxlen, rnd);
        int rc2 = cs_mldsa_sign_prepared(prs, sig2, msg, msglen, ctx, ctxlen, rnd);
        f->sign += rc1 != 0 || rc2 != 0 || memcmp(sig1, sig2, sigb) != 0;
        memset(sig2, 0, sigb);
        rc2 = cs_mldsa_sign_prepared(prs, sig2, msg, msglen, ctx, ctxlen, rnd);
        f->reuse += rc2 != 0 || memcmp(sig1, sig2, sigb) != 0;

        /* Verdicts: valid, wrong message, wrong context, corrupted. */
        int v = same_verdict(im, prv, ps, sig1, msg, msglen, ctx, ctxlen, mu) &&
                cs_mldsa_verify_prepared(prv, sig1, sigb, msg, msglen, ctx, ctxlen) == 0;
        msg[0] ^= 1;
        v &= same_verdict(im, prv, ps, sig1, msg, msglen ? msglen : 1, ctx, ctxlen, mu);
        msg[0] ^= 1;
        v &= same_verdict(im, prv, ps, sig1, msg, msglen, ctx, ctxlen + 1, mu);
        sig1[(size_t)i * 7919 % sigb] ^= (uint8_t)(1u << (i % 8));
        v &= same_verdict(im, prv, ps, sig1, msg, msglen, ctx, ctxlen, mu);

        rc1 = cs_mldsa_sign_mu(port, ps, sig1, sk, mu, rnd);
        rc2 = cs_mldsa_sign_mu_prepared(prs, sig2, mu, rnd);
        f->sign_mu += rc1 != 0 || rc2 != 0 || memcmp(sig1, sig2, sigb) != 0;
        v &= same_verdict(im, prv, ps, sig2, msg, msglen, ctx, ctxlen, mu) &&
             cs_mldsa_verify_mu_prepared(prv, sig2, sigb, mu) == 0;
        /* A private state does not verify, a public one does not sign. */
        v &= cs_mldsa_verify_mu_prepared(prs, sig2, sigb, mu) != 0 &&
             cs_mldsa_sign_mu_prepared(prv, sig2, mu, rnd) != 0;
        f->verify += !v;
        cs_mldsa_prepared_free(prs);
        cs_mldsa_prepared_free(prv);
    }
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    for (unsigned i = 0; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if (!impl_runs(im->name, im->cpu_features, have))
            continue;
        struct fails f = {0};
        run(im, &f);
        tap_ok(f.prep == 0, "%s: prepare_sk/pk succeed (%d failed)", im->name, f.prep);
        tap_ok(f.tr == 0, "%s: prepared tr = H(pk) (%d differ)", im->name, f.tr);
        tap_ok(f.sign == 0, "%s: prepared signatures = portable unprepared (%d differ)",
               im->name, f.sign);
        tap_ok(f.reuse == 0, "%s: a reused prepared key signs the same (%d differ)", im->name,
               f.reuse);
        tap_ok(f.sign_mu == 0, "%s: prepared sign_mu = portable unprepared (%d differ)",
               im->name, f.sign_mu);
        tap_ok(f.verify == 0, "%s: prepared and unprepared verdicts agree (%d differ)",
               im->name, f.verify);
    }
    return tap_done();
}
