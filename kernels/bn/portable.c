/* Portable C Montgomery arithmetic: the kernel every CPU can run (64-bit
 * limbs with a 128-bit product type, 32-bit limbs otherwise). Products are
 * formed whole and then reduced (separated operand scanning), so squaring
 * can skip the repeated cross products. Nothing here branches on or indexes
 * memory by number values; only sizes and public exponents steer control. */
#include <string.h>

#include "bn_kernel.h"
#include "scratch.h"
#include "../ct.h"

#define W CS_LIMB_BITS


/* t[0..2n) = a*b (n limbs each). */
static void mul_full(cs_limb *t, const cs_limb *a, const cs_limb *b, size_t n)
{
    cs_limb carry = 0;
    cs_limb b0 = b[0];
    for (size_t j = 0; j < n; j++) {
        cs_dlimb p = (cs_dlimb)a[j] * b0 + carry;
        t[j] = (cs_limb)p;
        carry = (cs_limb)(p >> W);
    }
    t[n] = carry;
    for (size_t i = 1; i < n; i++) {
        cs_limb bi = b[i];
        cs_limb *ti = t + i;
        carry = 0;
#pragma GCC unroll 4
        for (size_t j = 0; j < n; j++) {
            cs_dlimb p = (cs_dlimb)a[j] * bi + ti[j] + carry;
            ti[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        ti[n] = carry;
    }
}

/* t[0..2n) = a^2: each cross product once, doubled, plus the squares. */
static void sqr_full(cs_limb *t, const cs_limb *a, size_t n)
{
    t[0] = 0;
    t[2 * n - 1] = 0;
    if (n > 1) {
        /* Row 0 writes t[1..n], each later row i adds a[i]*a[i+1..n) at t[2i+1..]. */
        cs_limb carry = 0, a0 = a[0];
        for (size_t j = 1; j < n; j++) {
            cs_dlimb p = (cs_dlimb)a[j] * a0 + carry;
            t[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        t[n] = carry;
        for (size_t i = 1; i + 1 < n; i++) {
            cs_limb ai = a[i];
            cs_limb *ti = t + 2 * i + 1;
            const cs_limb *aj = a + i + 1;
            size_t len = n - i - 1;
            carry = 0;
#pragma GCC unroll 4
            for (size_t j = 0; j < len; j++) {
                cs_dlimb p = (cs_dlimb)aj[j] * ai + ti[j] + carry;
                ti[j] = (cs_limb)p;
                carry = (cs_limb)(p >> W);
            }
            ti[len] = carry;
        }
    }
    /* Double the cross products and add the diagonal. */
    cs_limb shift = 0, carry = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb sq = (cs_dlimb)a[i] * a[i];
        cs_limb lo = t[2 * i], hi = t[2 * i + 1];
        cs_limb dlo = (lo << 1) | shift;
        cs_limb dhi = (hi << 1) | (lo >> (W - 1));
        shift = hi >> (W - 1);
        cs_dlimb s = (cs_dlimb)dlo + (cs_limb)sq + carry;
        t[2 * i] = (cs_limb)s;
        s = (cs_dlimb)dhi + (cs_limb)(sq >> W) + (cs_limb)(s >> W);
        t[2 * i + 1] = (cs_limb)s;
        carry = (cs_limb)(s >> W);
    }
}

/* r = x - m if x + top*R >= m else x, without branching on the values;
 * x + top*R < 2m. r may alias x. */
static void cond_sub(cs_limb *r, const cs_limb *x, cs_limb top, const cs_limb *m, size_t n)
{
    cs_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_dlimb d = (cs_dlimb)x[j] - m[j] - borrow;
        borrow = (cs_limb)(d >> W) & 1;
    }
    cs_limb mask = (cs_limb)0 - ((top | (borrow ^ 1)) & 1);
    borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_dlimb d = (cs_dlimb)x[j] - (m[j] & mask) - borrow;
        r[j] = (cs_limb)d;
        borrow = (cs_limb)(d >> W) & 1;
    }
}

/* r = t/R mod m for t < m*R (2n limbs, destroyed). Montgomery reduction one
 * limb at a time, then one constant-time conditional subtraction. */
static void redc(cs_limb *r, cs_limb *t, const cs_mont *mont)
{
    size_t n = mont->n;
    const cs_limb *m = mont->m;
    cs_limb n0 = mont->n0, top = 0;
    for (size_t i = 0; i < n; i++) {
        cs_limb *ti = t + i;
        cs_limb q = ti[0] * n0, carry = 0;
#pragma GCC unroll 4
        for (size_t j = 0; j < n; j++) {
            cs_dlimb p = (cs_dlimb)q * m[j] + ti[j] + carry;
            ti[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        cs_dlimb s = (cs_dlimb)ti[n] + carry + top;
        ti[n] = (cs_limb)s;
        top = (cs_limb)(s >> W);
    }
    cond_sub(r, t + n, top, m, n);
}

/* r = a*b/R mod m for a, b < m; r may alias a or b. */
static void portable_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b,
                              const cs_mont *mont)
{
    cs_limb t[2 * CS_BN_MAX_LIMBS];
    mul_full(t, a, b, mont->n);
    redc(r, t, mont);
}

/* r = a*a/R mod m for a < m; r may alias a. */
static void portable_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    cs_limb t[2 * CS_BN_MAX_LIMBS];
    sqr_full(t, a, mont->n);
    redc(r, t, mont);
}

/* Bits [pos, pos+w) of the exponent (bits at or above ebits read as zero).
 * pos, w and ebits are public; the value returned is not branched on. */
static unsigned exp_window(const cs_limb *e, size_t ebits, size_t pos, unsigned w)
{
    size_t limb = pos / W;
    unsigned sh = (unsigned)(pos % W);
    cs_limb v = e[limb] >> sh;
    if (sh + w > W && (limb + 1) * W < ebits)
        v |= e[limb + 1] << (W - sh);
    if (pos + w > ebits)
        w = (unsigned)(ebits - pos);
    return (unsigned)(v & (((cs_limb)1 << w) - 1));
}

/* Largest exponentiation table (per-thread scratch), in bytes. */
#define CT_TABLE_BYTES 32768

/* Fixed window for a secret exponent of ebits bits with n-limb numbers:
 * the width minimising (squarings + one multiply and one full table scan per
 * window + table set-up), counted in limb products, within the stack cap. */
static unsigned ct_window_bits(size_t ebits, size_t n)
{
    /* Costs in quarter limb products: a multiply is 2n^2, a squaring 1.5n^2,
     * a masked read of one limb about a quarter. */
    uint64_t mul = 8 * (uint64_t)n * n, sqr = 6 * (uint64_t)n * n;
    unsigned best = 1;
    uint64_t best_cost = 0;
    for (unsigned w = 1; w <= 6; w++) {
        uint64_t count = (uint64_t)1 << w;
        if (count * n * sizeof(cs_limb) > CT_TABLE_BYTES)
            break;
        uint64_t windows = (ebits + w - 1) / w;
        uint64_t cost = windows * (w * sqr + mul + count * n) + (count - 2) * mul;
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* r = tbl[idx] (count <= 64 entries of n limbs), reading every entry under
 * a mask so the memory touched does not depend on idx. */
static void ct_gather(cs_limb *r, const cs_limb *tbl, size_t count, unsigned idx, size_t n)
{
    cs_limb mask[64];
    for (size_t i = 0; i < count; i++)
        mask[i] = (cs_limb)cs_ct_eq_mask(i, idx);
    for (size_t j = 0; j < n; j++) {
        const cs_limb *tj = tbl + j;
        cs_limb acc = 0;
        for (size_t i = 0; i < count; i++)
            acc |= tj[i * n] & mask[i];
        r[j] = acc;
    }
}

/* acc (Montgomery form) = am^e, secret e: fixed windows over all ebits bits,
 * each window's table entry fetched by ct_gather and always multiplied in. */
static int exp_consttime(cs_limb *acc, const cs_limb *am, const cs_limb *e, size_t ebits,
                         const cs_mont *mont, cs_limb *tmp)
{
    size_t n = mont->n;
    if (ebits == 0) {
        memcpy(acc, mont->one, n * sizeof(cs_limb));
        return 0;
    }
    unsigned w = ct_window_bits(ebits, n);
    size_t count = (size_t)1 << w;
    cs_limb *tbl = cs_scratch_take(count * n * sizeof(cs_limb));
    if (!tbl)
        return -1;

    memcpy(tbl, mont->one, n * sizeof(cs_limb));
    memcpy(tbl + n, am, n * sizeof(cs_limb));
    for (size_t i = 2; i < count; i++) {
        if (i % 2 == 0)
            portable_mont_sqr(tbl + i * n, tbl + (i / 2) * n, mont);
        else
            portable_mont_mul(tbl + i * n, tbl + (i - 1) * n, am, mont);
    }

    /* The top window holds the leftover bits, so all later windows are full. */
    size_t windows = (ebits + w - 1) / w;
    size_t pos = (windows - 1) * w;
    ct_gather(acc, tbl, count, exp_window(e, ebits, pos, w), n);
    while (pos > 0) {
        pos -= w;
        for (unsigned k = 0; k < w; k++)
            portable_mont_sqr(acc, acc, mont);
        ct_gather(tmp, tbl, count, exp_window(e, ebits, pos, w), n);
        portable_mont_mul(acc, acc, tmp, mont);
    }
    cs_scratch_give(tbl, count * n * sizeof(cs_limb));
    return 0;
}

/* Sliding window width for a public exponent of ebits significant bits:
 * squarings are the same for every width, so compare multiplies. Width 1
 * costs one per further set bit (exact, and best for sparse exponents such
 * as 65537); width w about ebits/(w+1) plus 2^(w-1) to build the table. */
static unsigned public_window_bits(const cs_limb *e, size_t ebits, size_t n)
{
    uint64_t ones = 0;
    for (size_t i = 0; i < ebits; i++)
        ones += (e[i / W] >> (i % W)) & 1;
    unsigned best = 1;
    uint64_t best_cost = ones;
    for (unsigned w = 2; w <= 6; w++) {
        uint64_t count = (uint64_t)1 << (w - 1);
        if (count * n * sizeof(cs_limb) > CT_TABLE_BYTES)
            break;
        uint64_t cost = ebits / (w + 1) + count;
        if (cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* Bit i of e (public exponent only). */
static unsigned exp_bit(const cs_limb *e, size_t i)
{
    return (unsigned)(e[i / W] >> (i % W)) & 1;
}

/* acc (Montgomery form) = am^e for a public e: left-to-right sliding window
 * over the odd powers am^1, am^3, ..., am^(2^w - 1). */
static int exp_public(cs_limb *acc, const cs_limb *am, const cs_limb *e, size_t ebits,
                      const cs_mont *mont, cs_limb *sq)
{
    size_t n = mont->n;
    while (ebits > 0 && !exp_bit(e, ebits - 1))
        ebits--;
    if (ebits == 0) {
        memcpy(acc, mont->one, n * sizeof(cs_limb));
        return 0;
    }
    unsigned w = public_window_bits(e, ebits, n);
    size_t count = (size_t)1 << (w - 1);
    cs_limb *tbl = cs_scratch_take(count * n * sizeof(cs_limb));
    if (!tbl)
        return -1;

    memcpy(tbl, am, n * sizeof(cs_limb));
    if (count > 1) {
        portable_mont_sqr(sq, am, mont);
        for (size_t i = 1; i < count; i++)
            portable_mont_mul(tbl + i * n, tbl + (i - 1) * n, sq, mont);
    }

    int started = 0;
    size_t i = ebits; /* bits [0, i) remain */
    while (i > 0) {
        if (!exp_bit(e, i - 1)) {
            if (started)
                portable_mont_sqr(acc, acc, mont);
            i--;
            continue;
        }
        /* Longest window [lo, i) of at most w bits ending in a set bit. */
        size_t lo = i > w ? i - w : 0;
        while (!exp_bit(e, lo))
            lo++;
        unsigned val = 0;
        for (size_t k = i; k-- > lo;)
            val = (val << 1) | exp_bit(e, k);
        if (started) {
            for (size_t k = lo; k < i; k++)
                portable_mont_sqr(acc, acc, mont);
            portable_mont_mul(acc, acc, tbl + (val >> 1) * n, mont);
        } else {
            memcpy(acc, tbl + (val >> 1) * n, n * sizeof(cs_limb));
            started = 1;
        }
        i = lo;
    }
    cs_scratch_give(tbl, count * n * sizeof(cs_limb));
    return 0;
}

/* portable_exp's work, its numbers in per-thread scratch (the stack keeps
 * only the multiplications' products): -1 without scratch. */
static int exp_work(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
                    const cs_mont *mont, int consttime)
{
    size_t n = mont->n;
    cs_limb *am = cs_scratch_take(3 * n * sizeof(cs_limb));
    if (!am)
        return -1;
    cs_limb *acc = am + n, *tmp = acc + n;
    portable_mont_mul(am, a, mont->rr, mont);
    int ret = consttime ? exp_consttime(acc, am, e, ebits, mont, tmp)
                        : exp_public(acc, am, e, ebits, mont, tmp);
    if (ret == 0) {
        /* Out of Montgomery form: multiply by plain 1. */
        memset(tmp, 0, n * sizeof(cs_limb));
        tmp[0] = 1;
        portable_mont_mul(r, acc, tmp, mont);
    }
    cs_scratch_give(am, 3 * n * sizeof(cs_limb));
    return ret;
}

/* r = a^e mod m for a < m, both ordinary form; see cs_bn_kernel.exp. The
 * stack the work used is wiped after it. */
static int portable_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
                        const cs_mont *mont, int consttime)
{
    size_t n = mont->n;
    if (n < 1 || n > CS_BN_MAX_LIMBS || ebits > CS_BN_MAX_EXP_BITS)
        return -1;
    int ret = exp_work(r, a, e, ebits, mont, consttime);
    cs_wipe_stack(CS_BN_WIPE_STACK);
    return ret;
}

/* See bn_kernel.h: the squaring itself, public values (no wipe). */
void cs_mont_sqr_public(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    portable_mont_sqr(r, a, mont);
}

/* The kernel's mont_mul and mont_sqr entries: as the internal ones, then
 * the product they left on the stack is wiped. */
static void portable_mont_mul_entry(cs_limb *r, const cs_limb *a, const cs_limb *b,
                                    const cs_mont *mont)
{
    portable_mont_mul(r, a, b, mont);
    cs_wipe_stack(CS_BN_WIPE_STACK);
}

static void portable_mont_sqr_entry(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    portable_mont_sqr(r, a, mont);
    cs_wipe_stack(CS_BN_WIPE_STACK);
}

const cs_bn_kernel cs_bn_portable = {
    .name = "portable",
    .cpu_features = 0,
    .min_bits = CS_BN_MIN_BITS,
    .max_bits = CS_BN_MAX_BITS,
    .mont_mul = portable_mont_mul_entry,
    .mont_sqr = portable_mont_sqr_entry,
    .exp = portable_exp,
};
