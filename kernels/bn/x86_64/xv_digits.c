/* Digit conversions and R' constants for the x86-64 digit kernels (xv.h):
 * what their prepare, load and store primitives share. Built for every
 * x86-64 CPU: plain C, no ISA flags. */
#include <string.h>

#include "../../ct.h"
#include "xv.h"

/* Writes the n-limb number a as c->words digits of c->w bits. */
static void to_digits(const cs_bn_prep *c, uint64_t *d, const cs_limb *a, size_t n)
{
    const uint64_t mask = c->w == 64 ? ~0ull : (1ull << c->w) - 1;
    for (size_t j = 0; j < c->words; j++) {
        size_t off = j * c->w, idx = off / 64;
        unsigned sh = off % 64;
        uint64_t v = 0;
        if (idx < n) {
            v = a[idx] >> sh;
            if (sh + c->w > 64 && idx + 1 < n)
                v |= a[idx + 1] << (64 - sh);
        }
        d[j] = v & mask;
    }
}

/* Writes the normalised digits d (value below 2^(64n)) as n limbs. */
static void from_digits(const cs_bn_prep *c, cs_limb *a, size_t n, const uint64_t *d)
{
    memset(a, 0, n * sizeof *a);
    for (size_t j = 0; j < c->words; j++) {
        size_t off = j * c->w, idx = off / 64;
        unsigned sh = off % 64;
        if (idx < n)
            a[idx] |= d[j] << sh;
        if (sh + c->w > 64 && idx + 1 < n)
            a[idx + 1] |= d[j] >> (64 - sh);
    }
}

/* out (outn limbs) = in (inn limbs) shifted up sh bits, truncated. */
static void shl(cs_limb *out, size_t outn, const cs_limb *in, size_t inn, unsigned sh)
{
    size_t w = sh / 64;
    unsigned b = sh % 64;
    for (size_t i = 0; i < outn; i++) {
        cs_limb lo = i >= w && i - w < inn ? in[i - w] : 0;
        cs_limb lo2 = i >= w + 1 && i - w - 1 < inn ? in[i - w - 1] : 0;
        out[i] = b ? (lo << b) | (lo2 >> (64 - b)) : lo;
    }
}

/* y -= q*m over n+1 limbs (m has n); returns the borrow out of the top. */
static cs_limb sub_mul(cs_limb *y, const cs_limb *m, size_t n, cs_limb q)
{
    cs_limb mc = 0, br = 0;
    for (size_t i = 0; i <= n; i++) {
        cs_dlimb p = (cs_dlimb)(i < n ? m[i] : 0) * q + mc;
        mc = (cs_limb)(p >> 64);
        cs_dlimb t = (cs_dlimb)y[i] - (cs_limb)p - br;
        y[i] = (cs_limb)t;
        br = (cs_limb)(t >> 64) & 1;
    }
    return br;
}

/* Whether y (n+1 limbs) >= m (n limbs). */
static int geq1(const cs_limb *y, const cs_limb *m, size_t n)
{
    if (y[n])
        return 1;
    for (size_t i = n; i-- > 0;)
        if (y[i] != m[i])
            return y[i] > m[i];
    return 1;
}

/* x = x * 2^k mod m for 0 < k < 64 and x < m. With m moved up to a full top
 * limb (M), the quotient of x 2^k by m is one limb, estimated from the top
 * two limbs against M's top limb plus one: never above the true quotient
 * and at most a few below it, so a few subtractions finish. */
static void mul_pow2(cs_limb *x, unsigned k, const cs_mont *mt)
{
    size_t n = mt->n;
    unsigned s = (unsigned)(64 * n - mt->bits);
    cs_limb M[CS_BN_MAX_LIMBS + 1], Y[CS_BN_MAX_LIMBS + 1];
    shl(M, n, mt->m, n, s);
    shl(Y, n + 1, x, n, k + s);
    cs_dlimb top = ((cs_dlimb)Y[n] << 64) | Y[n - 1];
    cs_dlimb q = top / ((cs_dlimb)M[n - 1] + 1);
    sub_mul(Y, M, n, (cs_limb)q);
    while (geq1(Y, M, n))
        sub_mul(Y, M, n, 1);
    /* Y = (x 2^k mod m) 2^s: move it back down (s may exceed a limb when
     * m's top limbs are zero). */
    size_t w = s / 64;
    unsigned b = s % 64;
    for (size_t i = 0; i < n; i++) {
        cs_limb lo = i + w <= n ? Y[i + w] : 0, hi = i + w + 1 <= n ? Y[i + w + 1] : 0;
        x[i] = b ? (lo >> b) | (hi << (64 - b)) : lo;
    }
}

/* x = x / 2^k mod m for 0 < k < 64 and x < m: add the multiple of m that
 * clears the low k bits (t = x n0 mod 2^k), shift, subtract m if needed. */
static void div_pow2(cs_limb *x, unsigned k, const cs_mont *mt)
{
    size_t n = mt->n;
    cs_limb Y[CS_BN_MAX_LIMBS + 1];
    cs_limb t = (x[0] * mt->n0) & (((cs_limb)1 << k) - 1);
    cs_limb c = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb p = (cs_dlimb)mt->m[i] * t + x[i] + c;
        Y[i] = (cs_limb)p;
        c = (cs_limb)(p >> 64);
    }
    Y[n] = c;
    for (size_t i = 0; i < n; i++)
        x[i] = (Y[i] >> k) | (Y[i + 1] << (64 - k));
    cs_limb z[CS_BN_MAX_LIMBS + 1];
    memcpy(z, x, n * sizeof *x);
    z[n] = Y[n] >> k;
    if (geq1(z, mt->m, n))
        sub_mul(z, mt->m, n, 1);
    memcpy(x, z, n * sizeof *x);
}

/* x = x * 2^d mod m (d may be negative: halving), for x < m, up to 63 bits
 * at a time. The modulus and these powers of two are public, so branches
 * are fine here. */
static void shift_mod(cs_limb *x, long d, const cs_mont *mt)
{
    for (long u = d; u > 0; u -= 63)
        mul_pow2(x, (unsigned)(u < 63 ? u : 63), mt);
    for (long u = -d; u > 0; u -= 63)
        div_pow2(x, (unsigned)(u < 63 ? u : 63), mt);
}

/* See xv.h. */
int xv_prepare(cs_bn_prep *c, const cs_mont *mont, unsigned w, cs_bn_mul_fn *amm,
               cs_bn_mul_fn *asqr)
{
    if (mont->bits < 64)
        return -1;
    size_t n = mont->n;
    c->w = w;
    c->iters = w == 64 ? n : (mont->bits + 2 + w - 1) / w;
    c->words = w == 64 ? n : (c->iters + 3) & ~(size_t)3;
    if (c->words > XV_MAXK)
        return -1;
    c->n0 = w == 64 ? mont->n0 : mont->n0 & ((1ull << w) - 1);
    c->mul = amm;
    c->sqr = asqr;
    c->select = xv_select_avx2;
    to_digits(c, c->m, mont->m, n);
    /* R'^2 = R^2 2^(2w iters - 128n) and R'^2/R = R 2^(same), mod m. */
    long shift = 2 * (long)(w * c->iters) - 128 * (long)n;
    cs_limb t[CS_BN_MAX_LIMBS];
    memcpy(t, mont->rr, n * sizeof *t);
    shift_mod(t, shift, mont);
    to_digits(c, c->rr, t, n);
    memcpy(t, mont->one, n * sizeof *t);
    shift_mod(t, shift, mont);
    to_digits(c, c->rx, t, n);
    return 0;
}

/* See xv.h. */
void xv_load(cs_limb *x, const cs_limb *a, const cs_bn_prep *p)
{
    to_digits(p, x, a, p->n);
}

/* See xv.h: the digits as limbs, then one conditional subtraction by mask
 * (the value is at most m). */
void xv_store(cs_limb *r, const cs_limb *x, const cs_bn_prep *p)
{
    size_t n = p->n;
    from_digits(p, r, n, x);
    cs_limb t[CS_BN_MAX_LIMBS];
    cs_limb m[CS_BN_MAX_LIMBS];
    from_digits(p, m, n, p->m);
    cs_dlimb br = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb d = (cs_dlimb)r[i] - m[i] - br;
        t[i] = (cs_limb)d;
        br = (d >> 64) & 1;
    }
    cs_limb keep = (cs_limb)0 - (cs_limb)br; /* all ones when r < m */
    for (size_t i = 0; i < n; i++)
        r[i] = cs_ct_select(keep, r[i], t[i]);
    cs_wipe(t, n * sizeof *t);
}
