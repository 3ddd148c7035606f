/* RSA CRT for the method route (rsa_crt.h). */
#include <string.h>

#include "bn/modexp.h"
#include "bn/mont_cache.h"
#include "kernels/bn/scratch.h"
#include "kernels/ct.h"
#include "rsa_crt.h"

#define MAX_HALF_LIMBS (CS_BN_MAX_LIMBS / 2)

int cs_rsa_api_complete(const cs_rsa_api *r)
{
    return r->get0_key && r->get0_factors && r->get0_crt && r->extra_primes && r->bn_new &&
           r->bn_free && r->with_flags && r->copy && r->cmp && r->stock_mod_exp;
}

/* x -= y over n limbs, returning the borrow (0 or 1); constant time. */
static cs_limb sub_n(cs_limb *x, const cs_limb *y, size_t n)
{
    cs_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb d = (cs_dlimb)x[i] - y[i] - borrow;
        x[i] = (cs_limb)d;
        borrow = (cs_limb)(d >> CS_LIMB_BITS) & 1;
    }
    return borrow;
}

/* x += y & mask over n limbs (mask all ones or zero); constant time. */
static void add_masked(cs_limb *x, const cs_limb *y, cs_limb mask, size_t n)
{
    cs_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb s = (cs_dlimb)x[i] + (y[i] & mask) + carry;
        x[i] = (cs_limb)s;
        carry = (cs_limb)(s >> CS_LIMB_BITS);
    }
}

/* The limbs of one recombination, in per-thread scratch (secret: wiped). */
struct crt_work {
    cs_mont mp;
    cs_limb p[MAX_HALF_LIMBS], q[MAX_HALF_LIMBS], iqmp[MAX_HALF_LIMBS];
    cs_limb mpl[MAX_HALF_LIMBS], mql[MAX_HALF_LIMBS], t[MAX_HALF_LIMBS], d[MAX_HALF_LIMBS];
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

/* out = mq + q * ((mp - mq) * iqmp mod p), the CRT recombination of
 * mp = c^dmp1 mod p and mq = c^dmq1 mod q (stock's formula), in constant
 * time: q < 2p (equal lengths), so one masked subtraction reduces mq mod p;
 * the product mod p is two Montgomery multiplications. Returns 1, 0 on an
 * OpenSSL error, -1 when iqmp is not below p (stock serves such a key). */
static int recombine(const cs_ossl *api, BIGNUM *out, const BIGNUM *mp, const BIGNUM *mq,
                     const BIGNUM *p, const BIGNUM *q, const BIGNUM *iqmp, size_t n,
                     struct crt_work *w)
{
    if (!load(api, w->p, p, n, w) || !load(api, w->q, q, n, w) ||
        !load(api, w->iqmp, iqmp, n, w) || !load(api, w->mpl, mp, n, w) ||
        !load(api, w->mql, mq, n, w))
        return -1; /* an iqmp longer than p: stock's to serve */
    if (cs_mont_cache_get(&w->mp, w->p, n, NULL) < 0)
        return -1;
    /* iqmp < p, as every key stock generates or checks has; one public bit
     * about the key's form (a malformed key), not about any operation. */
    memcpy(w->t, w->iqmp, n * sizeof(cs_limb));
    cs_limb below = sub_n(w->t, w->p, n);
    CS_DECLASSIFY(&below, sizeof below);
    if (!below)
        return -1;
    /* d = mq mod p */
    memcpy(w->d, w->mql, n * sizeof(cs_limb));
    cs_limb b = sub_n(w->d, w->p, n);
    memcpy(w->t, w->mql, n * sizeof(cs_limb));
    for (size_t i = 0; i < n; i++)
        w->d[i] = cs_ct_select(-(uint64_t)b, w->t[i], w->d[i]);
    /* t = (mp - d) mod p */
    memcpy(w->t, w->mpl, n * sizeof(cs_limb));
    b = sub_n(w->t, w->d, n);
    add_masked(w->t, w->p, (cs_limb)0 - b, n);
    /* h = t * iqmp mod p = mont(mont(t, iqmp), R^2) */
    cs_bn_portable.mont_mul(w->d, w->t, w->iqmp, &w->mp);
    cs_bn_portable.mont_mul(w->t, w->d, w->mp.rr, &w->mp);
    /* r = h * q + mq, below p * q */
    memset(w->r, 0, 2 * n * sizeof(cs_limb));
    for (size_t i = 0; i < n; i++) {
        cs_limb carry = 0;
        for (size_t j = 0; j < n; j++) {
            cs_dlimb s = (cs_dlimb)w->t[i] * w->q[j] + w->r[i + j] + carry;
            w->r[i + j] = (cs_limb)s;
            carry = (cs_limb)(s >> CS_LIMB_BITS);
        }
        w->r[i + n] = carry;
    }
    cs_limb carry = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        cs_dlimb s = (cs_dlimb)w->r[i] + (i < n ? w->mql[i] : 0) + carry;
        w->r[i] = (cs_limb)s;
        carry = (cs_limb)(s >> CS_LIMB_BITS);
    }
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
    if (cs_modexp_x2_entry(api, mq, aq, k[6], q, NULL, mp, ap, k[5], p, NULL, ctx) != 1)
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
