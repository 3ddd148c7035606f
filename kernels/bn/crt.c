/* RSA CRT recombination (crt.h). */
#include <string.h>

#include "../ct.h"
#include "crt.h"

/* x -= y over n limbs, returning the borrow (0 or 1). */
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

/* x += y & mask over n limbs (mask all ones or zero). */
static void add_masked(cs_limb *x, const cs_limb *y, cs_limb mask, size_t n)
{
    cs_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb s = (cs_dlimb)x[i] + (y[i] & mask) + carry;
        x[i] = (cs_limb)s;
        carry = (cs_limb)(s >> CS_LIMB_BITS);
    }
}

int cs_bn_crt_recombine(cs_limb *out, const cs_limb *mp, const cs_limb *mq, const cs_limb *p,
                        const cs_limb *q, const cs_limb *iqmp, const cs_mont *mont_p, size_t n)
{
    cs_limb t[CS_BN_MAX_LIMBS / 2], d[CS_BN_MAX_LIMBS / 2], r[CS_BN_MAX_LIMBS];
    if (!n || n > CS_BN_MAX_LIMBS / 2)
        return -1;
    memcpy(t, iqmp, n * sizeof *t);
    cs_limb below = sub_n(t, p, n);
    CS_DECLASSIFY(&below, sizeof below);
    if (!below)
        return -1;
    /* d = mq mod p: one masked subtraction, as q < 2p */
    memcpy(d, mq, n * sizeof *d);
    cs_limb keep = (cs_limb)0 - sub_n(d, p, n); /* all ones when mq < p */
    for (size_t i = 0; i < n; i++)
        d[i] = (cs_limb)cs_ct_select(keep, mq[i], d[i]);
    /* t = (mp - d) mod p */
    memcpy(t, mp, n * sizeof *t);
    add_masked(t, p, (cs_limb)0 - sub_n(t, d, n), n);
    /* h = t * iqmp mod p = mont(mont(t, iqmp), R^2) */
    cs_bn_portable.mont_mul(d, t, iqmp, mont_p);
    cs_bn_portable.mont_mul(t, d, mont_p->rr, mont_p);
    /* r = h * q + mq, below p * q */
    memset(r, 0, 2 * n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        cs_limb carry = 0;
        for (size_t j = 0; j < n; j++) {
            cs_dlimb s = (cs_dlimb)t[i] * q[j] + r[i + j] + carry;
            r[i + j] = (cs_limb)s;
            carry = (cs_limb)(s >> CS_LIMB_BITS);
        }
        r[i + n] = carry;
    }
    cs_limb carry = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        cs_dlimb s = (cs_dlimb)r[i] + (i < n ? mq[i] : 0) + carry;
        out[i] = (cs_limb)s;
        carry = (cs_limb)(s >> CS_LIMB_BITS);
    }
    cs_wipe(t, sizeof t);
    cs_wipe(d, sizeof d);
    cs_wipe(r, sizeof r);
    return 0;
}
