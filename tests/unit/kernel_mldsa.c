/* ML-DSA kernel against the Wycheproof vectors in tests/vectors, for
 * every built-in implementation this CPU can run: key from seed (public key
 * must match), deterministic and hedged signing, external mu, invalid
 * contexts and key lengths (mldsa_*_sign_seed_test.json), and verification
 * (mldsa_*_verify_test.json). One TAP line per vector and implementation.
 * Read with tests/unit/support/vectors.c (no Python needed, so the test
 * also runs under qemu for the cross builds). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"
#include "support/vectors.h"


/* Hex member key of t as a new buffer (length in *n, empty if absent);
 * *present says whether it was there. */
static uint8_t *hexfield(const json *t, const char *key, size_t *n, int *present)
{
    *present = json_get_str(t, key) != NULL;
    return vec_json_hex(t, key, n);
}

/* Opens wycheproof/NAME, NAME being name_fmt printed with ps (one TAP line:
 * read and parsed); 0, or -1. */
static int load(vec_wyc *w, const char *name_fmt, int ps)
{
    char name[64], path[128];
    snprintf(name, sizeof name, name_fmt, ps);
    snprintf(path, sizeof path, "wycheproof/%s", name);
    return tap_ok(vec_wyc_open(w, path) == 0, "parse %s", name) ? 0 : -1;
}

/* mu = H(H(pk) || 0 || |ctx| || ctx || msg) through the public streaming
 * SHAKE256, to check the vectors' mu the way the provider computes it. */
static void mu_of(int ps, uint8_t mu[64], const uint8_t *pk, const uint8_t *ctx, size_t ctxlen,
                  const uint8_t *msg, size_t msglen)
{
    uint8_t tr[64], pre[2] = {0, (uint8_t)ctxlen};
    cs_shake256 st;
    cs_mldsa_pk_tr(&cs_mldsa_portable, ps, tr, pk);
    cs_shake256_init(&st, NULL);
    cs_shake256_absorb(&st, tr, 64);
    cs_shake256_absorb(&st, pre, 2);
    cs_shake256_absorb(&st, ctx, ctxlen);
    /* feed the message in odd pieces to exercise the incremental path */
    for (size_t off = 0; off < msglen;) {
        size_t n = msglen - off < 7 ? msglen - off : 7;
        cs_shake256_absorb(&st, msg + off, n);
        off += n;
    }
    cs_shake256_squeeze(&st, mu, 32);
    cs_shake256_squeeze(&st, mu + 32, 32);
}

static void sign_vectors(const cs_mldsa_impl *impl, int ps)
{
    vec_wyc w;
    if (load(&w, "mldsa_%d_sign_seed_test.json", ps))
        return;
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(sigb);
    size_t g = (size_t)-1;
    for (const json *grp; (grp = vec_wyc_group(&w));) {
        g++;
        size_t seedlen, pklen;
        int has;
        uint8_t *seed = hexfield(grp, "privateSeed", &seedlen, &has);
        uint8_t *wantpk = hexfield(grp, "publicKey", &pklen, &has);
        int keyok = seedlen == CS_MLDSA_SEED_BYTES;
        cs_mldsa_prepared *prs = NULL, *prv = NULL; /* every vector also goes through these */
        if (keyok) {
            int rc = cs_mldsa_keygen(impl, ps, pk, sk, seed);
            prs = cs_mldsa_prepare_sk(impl, ps, sk);
            prv = cs_mldsa_prepare_pk(impl, ps, pk);
            tap_ok(prs && prv && !memcmp(cs_mldsa_prepared_tr(prs), sk + 64, 64) &&
                       !memcmp(cs_mldsa_prepared_tr(prv), sk + 64, 64),
                   "ML-DSA-%d %s prepared keys, tr = H(pk), group %zu", ps, impl->name, g);
            tap_ok(rc == 0 && pklen == pkb && !memcmp(pk, wantpk, pkb),
                   "ML-DSA-%d %s keygen from seed, group %zu", ps, impl->name, g);
            uint8_t pk2[CS_MLDSA_MAX_PK_BYTES];
            tap_ok(cs_mldsa_pk_from_sk(impl, ps, pk2, sk) == 0 && !memcmp(pk2, pk, pkb),
                   "ML-DSA-%d %s pk_from_sk, group %zu", ps, impl->name, g);
        }
        for (const json *tc; (tc = vec_wyc_test(&w));) {
            int id = vec_wyc_id(tc), valid = vec_wyc_valid(tc);
            size_t msglen, ctxlen, mulen, rndlen, wantlen;
            int has_msg, has_ctx, has_mu, has_rnd;
            uint8_t *msg = hexfield(tc, "msg", &msglen, &has_msg);
            uint8_t *ctx = hexfield(tc, "ctx", &ctxlen, &has_ctx);
            uint8_t *mu = hexfield(tc, "mu", &mulen, &has_mu);
            uint8_t *rnd = hexfield(tc, "rnd", &rndlen, &has_rnd);
            uint8_t *want = hexfield(tc, "sig", &wantlen, &has);
            uint8_t zero[32] = {0};
            const uint8_t *r = has_rnd ? rnd : zero;
            int ok = 1;
            if (!keyok) {
                /* The API takes exactly 32 seed bytes: a caller with any
                 * other length has no key, so nothing can be signed. */
                ok = !valid;
            } else if (has_rnd && rndlen != 32) {
                ok = !valid;
            } else {
                if (has_msg) {
                    int rc = cs_mldsa_sign(impl, ps, sig, sk, msg, msglen, ctx, ctxlen, r);
                    if (valid)
                        ok &= rc == 0 && wantlen == sigb && !memcmp(sig, want, sigb) &&
                              cs_mldsa_verify(impl, ps, sig, sigb, msg, msglen, ctx, ctxlen,
                                              pk) == 0;
                    else
                        ok &= rc != 0;
                    memset(sig, 0, sigb);
                    rc = cs_mldsa_sign_prepared(prs, sig, msg, msglen, ctx, ctxlen, r);
                    if (valid)
                        ok &= rc == 0 && !memcmp(sig, want, sigb) &&
                              cs_mldsa_verify_prepared(prv, sig, sigb, msg, msglen, ctx,
                                                       ctxlen) == 0;
                    else
                        ok &= rc != 0;
                }
                if (has_mu && mulen == 64) {
                    int rc = cs_mldsa_sign_mu(impl, ps, sig, sk, mu, r);
                    ok &= valid ? rc == 0 && !memcmp(sig, want, sigb) &&
                                      cs_mldsa_verify_mu(impl, ps, sig, sigb, mu, pk) == 0
                                : 1;
                    memset(sig, 0, sigb);
                    rc = cs_mldsa_sign_mu_prepared(prs, sig, mu, r);
                    ok &= valid ? rc == 0 && !memcmp(sig, want, sigb) &&
                                      cs_mldsa_verify_mu_prepared(prv, sig, sigb, mu) == 0
                                : 1;
                    if (has_msg && ctxlen <= 255) {
                        uint8_t mu2[64];
                        mu_of(ps, mu2, pk, ctx, ctxlen, msg, msglen);
                        ok &= !memcmp(mu2, mu, 64);
                    }
                }
            }
            tap_ok(ok, "ML-DSA-%d %s sign tcId %d (%s), plain and prepared", ps, impl->name, id,
                   valid ? "valid" : "invalid");
            free(msg), free(ctx), free(mu), free(rnd), free(want);
        }
        cs_mldsa_prepared_free(prs);
        cs_mldsa_prepared_free(prv);
        free(seed), free(wantpk);
    }
    free(pk), free(sk), free(sig);
    vec_wyc_close(&w);
}

static void verify_vectors(const cs_mldsa_impl *impl, int ps)
{
    vec_wyc w;
    if (load(&w, "mldsa_%d_verify_test.json", ps))
        return;
    size_t pkb = cs_mldsa_pk_bytes(ps);
    for (const json *grp; (grp = vec_wyc_group(&w));) {
        size_t pklen;
        int has;
        uint8_t *pk = hexfield(grp, "publicKey", &pklen, &has);
        cs_mldsa_prepared *prv = pklen == pkb ? cs_mldsa_prepare_pk(impl, ps, pk) : NULL;
        for (const json *tc; (tc = vec_wyc_test(&w));) {
            int id = vec_wyc_id(tc), valid = vec_wyc_valid(tc);
            size_t msglen, ctxlen, siglen;
            uint8_t *msg = hexfield(tc, "msg", &msglen, &has);
            uint8_t *ctx = hexfield(tc, "ctx", &ctxlen, &has);
            uint8_t *sig = hexfield(tc, "sig", &siglen, &has);
            /* A public key of the wrong length is rejected by the caller
             * (the API takes pk at its fixed size). */
            int rc = pklen != pkb ? -1
                                  : cs_mldsa_verify(impl, ps, sig, siglen, msg, msglen, ctx,
                                                    ctxlen, pk);
            /* The same verdict through the prepared public key. */
            int rc2 = prv ? cs_mldsa_verify_prepared(prv, sig, siglen, msg, msglen, ctx, ctxlen)
                          : -1;
            tap_ok((rc == 0) == valid && rc2 == rc,
                   "ML-DSA-%d %s verify tcId %d (%s), plain and prepared", ps, impl->name, id,
                   valid ? "valid" : "invalid");
            free(msg), free(ctx), free(sig);
        }
        cs_mldsa_prepared_free(prv);
        free(pk);
    }
    vec_wyc_close(&w);
}

int main(void)
{
    static const int sets[] = {44, 65, 87};
    uint32_t have = cs_cpu_probe();
    tap_ok(cs_mldsa_impls[0] == &cs_mldsa_portable, "portable is the first impl");
    for (unsigned i = 0; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *impl = cs_mldsa_impls[i];
        if (!impl_runs(impl->name, impl->cpu_features, have))
            continue;
        for (unsigned s = 0; s < 3; s++) {
            sign_vectors(impl, sets[s]);
            verify_vectors(impl, sets[s]);
        }
    }
    return tap_done();
}
