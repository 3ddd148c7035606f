/* Conversions, R' constants and exponentiation ladders for the x86-64 vector
 * kernels (xv.h). Built for every x86-64 CPU: plain C, no ISA flags; the
 * digit multiplication is called through the context. */
#include <string.h>

#include "../scratch.h"
#include "../../ct.h"
#include "xv.h"

/* Digits of the table for windowed exponentiation: 32 KiB of per-thread
 * scratch (not stack), the portable kernel's cap too; 32 entries (window 5)
 * at every size served. */
#define XV_TABLE_DIGITS 4096

/* Writes the n-limb number a as c->K digits of c->w bits. */
static void to_digits(const xv_ctx *c, uint64_t *d, const cs_limb *a, size_t n)
{
    const uint64_t mask = c->w == 64 ? ~0ull : (1ull << c->w) - 1;
    for (size_t j = 0; j < c->K; j++) {
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
static void from_digits(const xv_ctx *c, cs_limb *a, size_t n, const uint64_t *d)
{
    memset(a, 0, n * sizeof *a);
    for (size_t j = 0; j < c->K; j++) {
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
int xv_setup(xv_ctx *c, const cs_mont *mont, unsigned w, xv_amm_fn *amm, xv_amm_fn *asqr)
{
    if ((w != 64 && mont->bits > XV_MAX_BITS) || mont->bits < 64 || !(mont->m[0] & 1))
        return -1;
    size_t n = mont->n;
    c->w = w;
    c->iters = w == 64 ? n : (mont->bits + 2 + w - 1) / w;
    c->K = w == 64 ? n : (c->iters + 3) & ~(size_t)3;
    if (c->K > XV_MAXK)
        return -1;
    c->n0 = w == 64 ? mont->n0 : mont->n0 & ((1ull << w) - 1);
    c->select = xv_select_c;
    c->amm = amm;
    c->asqr = asqr;
    c->mont = mont;
    to_digits(c, c->m, mont->m, n);
    cs_limb t[CS_BN_MAX_LIMBS];
    memcpy(t, mont->rr, n * sizeof *t);
    shift_mod(t, 2 * (long)(w * c->iters) - 128 * (long)n, mont);
    to_digits(c, c->rr, t, n);
    memset(c->one, 0, sizeof c->one);
    c->one[0] = 1;
    return 0;
}

/* r = a mod m for a <= m with n limbs: one conditional subtraction by mask. */
static void final_sub(cs_limb *r, const cs_limb *m, size_t n)
{
    cs_limb t[CS_BN_MAX_LIMBS];
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

/* See xv.h. */
void xv_to_digits(const xv_ctx *c, uint64_t *d, const cs_limb *a)
{
    to_digits(c, d, a, c->mont->n);
}

/* See xv.h. */
void xv_from_digits_mod(const xv_ctx *c, cs_limb *r, const uint64_t *d)
{
    from_digits(c, r, c->mont->n, d);
    final_sub(r, c->mont->m, c->mont->n);
}

/* See xv.h: two almost-Montgomery products and a final subtraction. */
void xv_mont_mul(const xv_ctx *c, cs_limb *r, const cs_limb *a, const cs_limb *b)
{
    size_t n = c->mont->n;
    /* Sized to the modulus: the caller's frame holds a whole context. */
    uint64_t da[c->K] __attribute__((aligned(32)));
    uint64_t db[c->K] __attribute__((aligned(32)));
    uint64_t dx[c->K] __attribute__((aligned(32)));
    cs_limb x[n];
    /* a*b/R = amm(amm(a, b), 2^(2w*iters - 64n)) since R' = 2^(w*iters) and
     * R = 2^(64n). */
    memcpy(x, c->mont->one, n * sizeof *x);
    shift_mod(x, 2 * (long)(c->w * c->iters) - 128 * (long)n, c->mont);
    to_digits(c, dx, x, n);
    to_digits(c, da, a, n);
    to_digits(c, db, b, n);
    if (a == b)
        c->asqr(da, da, da, c);
    else
        c->amm(da, da, db, c);
    c->amm(da, da, dx, c);
    from_digits(c, r, n, da);
    final_sub(r, c->mont->m, n);
}

/* Bits pos .. pos+len-1 of e (len <= 8); positions are public, the value
 * may be secret. Bits at or above ebits read as zero. */
static unsigned window(const cs_limb *e, size_t ebits, size_t pos, unsigned len)
{
    unsigned v = 0;
    for (unsigned k = 0; k < len; k++) {
        size_t p = pos + k;
        if (p < ebits)
            v |= (unsigned)((e[p / 64] >> (p % 64)) & 1) << k;
    }
    return v;
}

/* Plain C constant-time table read (see xv_select_fn). */
void xv_select_c(uint64_t *out, const uint64_t *tab, size_t entries, size_t K, unsigned idx)
{
    memset(out, 0, K * sizeof *out);
    for (size_t j = 0; j < entries; j++) {
        uint64_t mask = cs_ct_eq_mask(j, idx);
        const uint64_t *t = tab + j * K;
        for (size_t i = 0; i < K; i++)
            out[i] |= t[i] & mask;
    }
}

/* Largest window whose table of (1 << w) entries fits the stack buffer. */
static unsigned fit_window(unsigned w, size_t K)
{
    while (w > 1 && ((size_t)1 << w) * K > XV_TABLE_DIGITS)
        w--;
    return w;
}

/* Fixed-window ladder for a secret exponent: every window costs the same
 * squarings and one multiplication by a masked table read. */
static void ladder_ct(const xv_ctx *c, uint64_t *r, const uint64_t *am, const uint64_t *onem,
                      const cs_limb *e, size_t ebits, uint64_t *tab, uint64_t *sel)
{
    size_t K = c->K;
    unsigned w = ebits > 512 ? 5 : ebits > 128 ? 4 : 3;
    w = fit_window(w, K);
    size_t entries = (size_t)1 << w;
    memcpy(tab, onem, K * 8);
    memcpy(tab + K, am, K * 8);
    for (size_t j = 2; j < entries; j++) {
        if (j & 1)
            c->amm(tab + j * K, tab + (j - 1) * K, am, c);
        else
            c->asqr(tab + j * K, tab + (j / 2) * K, tab + (j / 2) * K, c);
    }
    size_t nwin = (ebits + w - 1) / w;
    c->select(r, tab, entries, K, window(e, ebits, (nwin - 1) * w, w));
    for (size_t k = nwin - 1; k-- > 0;) {
        for (unsigned s = 0; s < w; s++)
            c->asqr(r, r, r, c);
        c->select(sel, tab, entries, K, window(e, ebits, k * w, w));
        c->amm(r, r, sel, c);
    }
}

/* Bit i of a public exponent. */
static int bit(const cs_limb *e, size_t i)
{
    return (e[i / 64] >> (i % 64)) & 1;
}

/* Sliding-window ladder for a public exponent over a table of odd powers. */
static void ladder_vt(const xv_ctx *c, uint64_t *r, const uint64_t *am, const uint64_t *onem,
                      const cs_limb *e, size_t ebits, uint64_t *tab, uint64_t *a2)
{
    size_t K = c->K;
    unsigned w = ebits > 671 ? 6 : ebits > 239 ? 5 : ebits > 79 ? 4 : ebits > 23 ? 3 : 1;
    w = fit_window(w + 1, K) - 1;
    if (w < 1)
        w = 1;
    size_t entries = (size_t)1 << (w - 1);
    memcpy(tab, am, K * 8);
    if (entries > 1) {
        c->asqr(a2, am, am, c);
        for (size_t j = 1; j < entries; j++)
            c->amm(tab + j * K, tab + (j - 1) * K, a2, c);
    }
    int started = 0;
    long i = (long)ebits - 1;
    while (i >= 0) {
        if (!bit(e, (size_t)i)) {
            if (started)
                c->asqr(r, r, r, c);
            i--;
            continue;
        }
        long j = i - (long)w + 1;
        if (j < 0)
            j = 0;
        while (!bit(e, (size_t)j))
            j++;
        unsigned v = 0;
        for (long k = i; k >= j; k--)
            v = (v << 1) | (unsigned)bit(e, (size_t)k);
        if (started) {
            for (long k = i; k >= j; k--)
                c->asqr(r, r, r, c);
            c->amm(r, r, tab + (v >> 1) * K, c);
        } else {
            memcpy(r, tab + (v >> 1) * K, K * 8);
            started = 1;
        }
        i = j - 1;
    }
    if (!started)
        memcpy(r, onem, K * 8);
}

/* Digits of scratch for a table of up to 32 entries (XV_TABLE_DIGITS at
 * most) and `extra` further numbers of K digits. */
static size_t work_digits(size_t K, size_t extra)
{
    size_t tab = 32 * K < XV_TABLE_DIGITS ? 32 * K : XV_TABLE_DIGITS;
    return tab + extra * K;
}

/* See xv.h: into the digit domain, a ladder, out again, reduced below m.
 * The table and the numbers live in per-thread scratch: -1 without it. */
int xv_exp(const xv_ctx *c, cs_limb *r, const cs_limb *a, const cs_limb *e,
           size_t ebits, int consttime)
{
    size_t n = c->mont->n, K = c->K, digits = work_digits(K, 4);
    uint64_t *tab = cs_scratch_take(digits * 8);
    if (!tab)
        return -1;
    uint64_t *am = tab + (digits - 4 * K), *onem = am + K, *acc = onem + K, *tmp = acc + K;
    to_digits(c, am, a, n);
    c->amm(am, am, c->rr, c);         /* a R' mod m */
    c->amm(onem, c->rr, c->one, c);   /* R' mod m */
    if (ebits == 0)
        memcpy(acc, onem, K * 8);
    else if (consttime)
        ladder_ct(c, acc, am, onem, e, ebits, tab, tmp);
    else
        ladder_vt(c, acc, am, onem, e, ebits, tab, tmp);
    c->amm(acc, acc, c->one, c);      /* out of Montgomery form: <= m */
    from_digits(c, r, n, acc);
    final_sub(r, c->mont->m, n);
    cs_scratch_give(tab, digits * 8);
    return 0;
}

/* One exponent of a simultaneous exponentiation: its odd-power table and
 * the window being consumed (v = 0: none pending). */
struct exp2_arm {
    const cs_limb *e;
    size_t ebits;
    unsigned w;
    const uint64_t *tab; /* a^1, a^3, ..., a^(2^w - 1) in Montgomery form */
    size_t low;          /* lowest bit of the pending window */
    unsigned v;          /* its value (odd), 0 when none is pending */
};

/* Window bits for one public exponent of xv_exp2: its table costs 2^(w-1)
 * multiplications, each window one. The thresholds are ladder_vt's; measured
 * for xv_exp2 (two exponents of equal length, microseconds, best of 3, load
 * 1.5, windows 3 / 4 / 5 / 6): IFMA 2048 bits, 160-bit exponents 80.4 /
 * 76.7 / 78.6 / 86.9, 224-bit 110.8 / 103.9 / 104.5 / 112.0, 256-bit 125.2 /
 * 120.9 / 118.4 / 125.4, 2048-bit 991 / 928 / 884 / 866; the same order at
 * 1024 and 3072 bits and for the FMA and AVX2 kernels. */
static unsigned exp2_window(size_t ebits)
{
    return ebits > 671 ? 6 : ebits > 239 ? 5 : ebits > 79 ? 4 : ebits > 23 ? 3 : 1;
}

/* Fills tab with am^1, am^3, ..., am^(2*entries - 1) (Montgomery form). */
static void odd_powers(const xv_ctx *c, uint64_t *tab, const uint64_t *am, size_t entries,
                       uint64_t *a2)
{
    size_t K = c->K;
    memcpy(tab, am, K * 8);
    if (entries > 1)
        c->asqr(a2, am, am, c);
    for (size_t j = 1; j < entries; j++)
        c->amm(tab + j * K, tab + (j - 1) * K, a2, c);
}

/* At bit b of the shared scan: opens arm x's next window if one starts at b
 * (bits b down to the lowest set bit within x->w), and returns the table
 * entry to multiply by when the pending window ends at b, else NULL. */
static const uint64_t *exp2_step(struct exp2_arm *x, size_t b, size_t K)
{
    if (!x->v && b < x->ebits && bit(x->e, b)) {
        size_t j = b + 1 >= x->w ? b + 1 - x->w : 0;
        while (!bit(x->e, j))
            j++;
        unsigned v = 0;
        for (size_t k = b + 1; k-- > j;)
            v = (v << 1) | (unsigned)bit(x->e, k);
        x->low = j;
        x->v = v;
    }
    if (!x->v || x->low != b)
        return NULL;
    const uint64_t *t = x->tab + (x->v >> 1) * K;
    x->v = 0;
    return t;
}

/* See xv.h. */
int xv_exp2_windows(const xv_ctx *c, cs_limb *r, const cs_limb *a0, const cs_limb *e0,
                    size_t ebits0, const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                    unsigned w0, unsigned w1)
{
    size_t n = c->mont->n, K = c->K;
    w0 = w0 < 1 ? 1 : w0 > 7 ? 7 : w0;
    w1 = w1 < 1 ? 1 : w1 > 7 ? 7 : w1;
    /* Both tables share the buffer: shrink the larger window until they fit. */
    while ((((size_t)1 << (w0 - 1)) + ((size_t)1 << (w1 - 1))) * K > XV_TABLE_DIGITS) {
        if (w0 >= w1)
            w0--;
        else
            w1--;
    } /* ends by w0 = w1 = 1 at the latest: 2 * XV_MAXK entries fit */
    size_t tabd = (((size_t)1 << (w0 - 1)) + ((size_t)1 << (w1 - 1))) * K, digits = tabd + 3 * K;
    uint64_t *tab = cs_scratch_take(digits * 8);
    if (!tab)
        return -1;
    uint64_t *am = tab + tabd, *acc = am + K, *tmp = acc + K;
    struct exp2_arm arm[2] = {{e0, ebits0, w0, tab, 0, 0},
                              {e1, ebits1, w1, tab + ((size_t)1 << (w0 - 1)) * K, 0, 0}};
    const cs_limb *base[2] = {a0, a1};
    for (int i = 0; i < 2; i++) {
        if (!arm[i].ebits)
            continue; /* factor 1: no table */
        to_digits(c, am, base[i], n);
        c->amm(am, am, c->rr, c); /* a R' mod m */
        odd_powers(c, (uint64_t *)arm[i].tab, am, (size_t)1 << (arm[i].w - 1), tmp);
    }
    int started = 0;
    for (size_t b = ebits0 > ebits1 ? ebits0 : ebits1; b-- > 0;) {
        if (started)
            c->asqr(acc, acc, acc, c);
        for (int i = 0; i < 2; i++) {
            const uint64_t *t = exp2_step(&arm[i], b, K);
            if (t && started)
                c->amm(acc, acc, t, c);
            else if (t) {
                memcpy(acc, t, K * 8);
                started = 1;
            }
        }
    }
    if (!started)
        c->amm(acc, c->rr, c->one, c); /* both exponents zero: R' mod m */
    c->amm(acc, acc, c->one, c);        /* out of Montgomery form: <= m */
    from_digits(c, r, n, acc);
    final_sub(r, c->mont->m, n);
    cs_scratch_give(tab, digits * 8);
    return 0;
}

/* See xv.h: windows by exponent length. */
int xv_exp2(const xv_ctx *c, cs_limb *r, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
            const cs_limb *a1, const cs_limb *e1, size_t ebits1)
{
    return xv_exp2_windows(c, r, a0, e0, ebits0, a1, e1, ebits1, exp2_window(ebits0),
                           exp2_window(ebits1));
}
