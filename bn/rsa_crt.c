/* RSA CRT for the method route (rsa_crt.h). */
#include <string.h>

#include "bn/modexp.h"
#include "bn/mont_cache.h"
#include "kernels/bn/crt.h"
#include "kernels/bn/scratch.h"
#include "kernels/ct.h"
#include "rsa_crt.h"

#define MAX_HALF_LIMBS (CS_BN_MAX_LIMBS / 2)

int cs_rsa_api_complete(const cs_rsa_api *r)
{
    return r->get0_key && r->get0_factors && r->get0_crt && r->extra_primes && r->bn_new &&
           r->bn_free && r->with_flags && r->copy && r->cmp && r->dup && r->stock_mod_exp;
}

/* Montgomery contexts of the primes a thread signs with, for libcrypto's
 * paired function when it serves the pair (it builds one per call when
 * given none: about 6 us a prime here, 1-2% of an RSA-3072 signature). Per
 * thread, so never shared or freed under another thread; a slot is reused
 * round robin and its old context freed. Each slot belongs to the libcrypto
 * that made it (their BN_MONT_CTX layouts differ). */
#define MONT_SLOTS 4
static __thread struct {
    const cs_ossl *api;
    const cs_rsa_api *r;
    BIGNUM *m;
    BN_MONT_CTX *mont;
} slots[MONT_SLOTS] __attribute__((tls_model("initial-exec")));
static __thread unsigned next_slot __attribute__((tls_model("initial-exec")));

/* The context for modulus m (this thread's cache, else built), or NULL
 * (libcrypto then builds its own). */
static BN_MONT_CTX *mont_for(const cs_ossl *api, const cs_rsa_api *r, const BIGNUM *m,
                             BN_CTX *ctx)
{
    if (!api->mont_ctx_new || !api->mont_ctx_set || !api->mont_ctx_free)
        return NULL;
    for (unsigned i = 0; i < MONT_SLOTS; i++)
        if (slots[i].api == api && slots[i].m && r->cmp(slots[i].m, m) == 0)
            return slots[i].mont;
    unsigned i = next_slot++ % MONT_SLOTS;
    BIGNUM *copy = r->dup(m);
    BN_MONT_CTX *mont = copy ? api->mont_ctx_new() : NULL;
    if (!mont || !api->mont_ctx_set(mont, copy, ctx)) {
        if (mont)
            api->mont_ctx_free(mont);
        if (copy)
            r->bn_free(copy);
        return NULL;
    }
    if (slots[i].m) { /* freed by the library that made them */
        slots[i].api->mont_ctx_free(slots[i].mont);
        slots[i].r->bn_free(slots[i].m);
    }
    slots[i].api = api, slots[i].r = r, slots[i].m = copy, slots[i].mont = mont;
    return mont;
}

/* The limbs of one recombination, in per-thread scratch (secret: wiped). */
struct crt_work {
    cs_mont mp;
    cs_limb p[MAX_HALF_LIMBS], q[MAX_HALF_LIMBS], iqmp[MAX_HALF_LIMBS];
    cs_limb mpl[MAX_HALF_LIMBS], mql[MAX_HALF_LIMBS];
    cs_limb r[CS_BN_MAX_LIMBS];
    uint8_t buf[CS_BN_MAX_BITS / 8];
};

/* Reads the non-negative x (below 2^(64n)) as n limbs through w->buf. */
static int load(const cs_ossl *api, cs_limb *out, const BIGNUM *x, size_t n,
                struct crt_work *w)
{
    int nbytes = (int)(n * CS_LIMB_BYTES);
    if (api->bn2lebinpad(x, w->buf, nbytes) != nbytes)
        return 0;
    cs_limbs_from_le_bytes(out, n, w->buf, (size_t)nbytes);
    return 1;
}

/* out = the CRT recombination of mp = c^dmp1 mod p and mq = c^dmq1 mod q
 * (cs_bn_crt_recombine, constant time). Returns 1, 0 on an OpenSSL error,
 * -1 when the key is not one it serves (iqmp not below p): stock's then. */
static int recombine(const cs_ossl *api, BIGNUM *out, const BIGNUM *mp, const BIGNUM *mq,
                     const BIGNUM *p, const BIGNUM *q, const BIGNUM *iqmp, size_t n,
                     struct crt_work *w)
{
    if (!load(api, w->p, p, n, w) || !load(api, w->q, q, n, w) ||
        !load(api, w->iqmp, iqmp, n, w) || !load(api, w->mpl, mp, n, w) ||
        !load(api, w->mql, mq, n, w))
        return -1; /* an iqmp longer than p: stock's to serve */
    if (cs_mont_cache_get(&w->mp, w->p, n, NULL) < 0 ||
        cs_bn_crt_recombine(w->r, w->mpl, w->mql, w->p, w->q, w->iqmp, &w->mp, n) < 0)
        return -1;
    int nbytes = (int)(2 * n * CS_LIMB_BYTES);
    cs_limbs_to_le_bytes(w->buf, (size_t)nbytes, w->r, 2 * n);
    return api->lebin2bn(w->buf, nbytes, out) != NULL;
}

/* Whether the key and input are ones this code serves (public facts only:
 * which parameters exist, their lengths, the input against n). */
static int servable(const cs_ossl *api, const cs_rsa_api *r, const void *rsa,
                    const BIGNUM *i, const BIGNUM *const k[8])
{
    for (int j = 0; j < 8; j++)
        if (!k[j] || api->is_negative(k[j]))
            return 0;
    const BIGNUM *n = k[0], *p = k[3], *q = k[4];
    unsigned bits = (unsigned)api->num_bits(p);
    return r->extra_primes(rsa) == 0 && bits == (unsigned)api->num_bits(q) &&
           bits >= CS_BN_MIN_BITS && 2 * bits <= CS_BN_MAX_BITS && api->is_odd(p) &&
           api->is_odd(q) && !api->is_negative(i) && api->ucmp(i, n) < 0;
}

int cs_rsa_crt(cs_ossl *api, const cs_rsa_api *r, BIGNUM *r0, const BIGNUM *i, void *rsa,
               BN_CTX *ctx)
{
    const BIGNUM *k[8] = {NULL}; /* n e d p q dmp1 dmq1 iqmp */
    if (!cs_ossl_resolve(api) || !ctx)
        return r->stock_mod_exp(r0, i, rsa, ctx);
    r->get0_key(rsa, &k[0], &k[1], &k[2]);
    r->get0_factors(rsa, &k[3], &k[4]);
    r->get0_crt(rsa, &k[5], &k[6], &k[7]);
    if (!servable(api, r, rsa, i, k))
        return r->stock_mod_exp(r0, i, rsa, ctx);
    const BIGNUM *n = k[0], *e = k[1], *d = k[2], *p = k[3], *q = k[4];
    size_t half = ((size_t)api->num_bits(p) + CS_LIMB_BITS - 1) / CS_LIMB_BITS;

    struct crt_work *w = cs_scratch_take(sizeof *w);
    BIGNUM *ci = r->bn_new();
    int ret = 0;
    api->ctx_start(ctx);
    BIGNUM *aq = api->ctx_get(ctx), *ap = api->ctx_get(ctx), *mq = api->ctx_get(ctx);
    BIGNUM *mp = api->ctx_get(ctx), *res = api->ctx_get(ctx), *vrfy = api->ctx_get(ctx);
    if (!w || !ci || !vrfy)
        goto done;
    /* i mod q and i mod p through libcrypto's constant-time division (the
     * flag on the dividend), as its own CRT code does. */
    r->with_flags(ci, i, BN_FLG_CONSTTIME);
    if (!api->nnmod(aq, ci, q, ctx) || !api->nnmod(ap, ci, p, ctx))
        goto done;
    /* One paired call: the halves as stock orders them (q first). */
    if (cs_modexp_x2_entry(api, mq, aq, k[6], q, mont_for(api, r, q, ctx), mp, ap, k[5], p,
                           mont_for(api, r, p, ctx), ctx) != 1)
        goto done;
    ret = recombine(api, res, mp, mq, p, q, k[7], half, w);
    if (ret < 0) {
        ret = r->stock_mod_exp(r0, i, rsa, ctx);
        goto done;
    }
    /* Stock's fault check: res^e must give i back, else i^d mod n. */
    if (ret && !cs_modexp_entry(api, 0, vrfy, res, e, n, ctx, NULL))
        ret = 0;
    if (ret && r->cmp(vrfy, i) != 0)
        ret = cs_modexp_entry(api, 1, res, i, d, n, ctx, NULL);
    if (ret)
        ret = r->copy(r0, res) != NULL;
done:
    api->ctx_end(ctx);
    if (ci)
        r->bn_free(ci);
    if (w) {
        cs_wipe(w, sizeof *w);
        cs_scratch_give(w, sizeof *w);
    }
    return ret;
}
