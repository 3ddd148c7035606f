/* Montgomery constants for a modulus and limb/byte conversions. The modulus
 * is public, so set-up may branch on it; the conversions may carry secrets
 * and do not branch on data. */
#include <string.h>

#include "bn_kernel.h"

/* -x^-1 mod 2^CS_LIMB_BITS for odd x, by Newton's iteration (each step
 * doubles the number of correct low bits; x itself is right to 3 bits). */
static cs_limb neg_inverse(cs_limb x)
{
    cs_limb inv = x;
    for (int i = 0; i < 5; i++)
        inv *= 2 - x * inv;
    return (cs_limb)0 - inv;
}

/* Whether x >= m, both n limbs (public values: may branch). */
static int geq(const cs_limb *x, const cs_limb *m, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (x[i] != m[i])
            return x[i] > m[i];
    return 1;
}

/* x = 2x mod m for x < m (public values). */
static void double_mod(cs_limb *x, const cs_limb *m, size_t n)
{
    cs_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        cs_limb top = x[i] >> (CS_LIMB_BITS - 1);
        x[i] = (x[i] << 1) | carry;
        carry = top;
    }
    if (carry || geq(x, m, n)) {
        cs_limb borrow = 0;
        for (size_t i = 0; i < n; i++) {
            cs_dlimb d = (cs_dlimb)x[i] - m[i] - borrow;
            x[i] = (cs_limb)d;
            borrow = (cs_limb)(d >> CS_LIMB_BITS) & 1;
        }
    }
}

/* Fills mont for the odd modulus m of n limbs; -1 if m is even or n is out
 * of range. R mod m comes from doubling 2^(bits-1); R^2 mod m from doubling to
 * the Montgomery form of 2^c and then squaring j times, c*2^j = n*CS_LIMB_BITS,
 * which is far cheaper than doubling all the way for large moduli. */
int cs_mont_init(cs_mont *mont, const cs_limb *m, size_t n)
{
    if (n < 1 || n > CS_BN_MAX_LIMBS || (m[0] & 1) == 0)
        return -1;
    memset(mont, 0, sizeof(*mont));
    mont->n = n;
    memcpy(mont->m, m, n * sizeof(cs_limb));
    mont->n0 = neg_inverse(m[0]);
    unsigned bits = 0;
    for (size_t i = n; i-- > 0;) {
        if (m[i]) {
            cs_limb top = m[i];
            bits = (unsigned)(i * CS_LIMB_BITS);
            while (top) {
                bits++;
                top >>= 1;
            }
            break;
        }
    }
    mont->bits = bits;

    /* R mod m: from 2^(bits-1) < m, doubling to 2^(n*CS_LIMB_BITS); only a
     * few steps unless the top limb is short. 0 when m = 1. */
    cs_limb *x = mont->one;
    size_t rbits = n * CS_LIMB_BITS;
    if (bits > 1) {
        x[(bits - 1) / CS_LIMB_BITS] = (cs_limb)1 << ((bits - 1) % CS_LIMB_BITS);
        for (size_t i = bits - 1; i < rbits; i++)
            double_mod(x, m, n);
    }

    size_t c = rbits;
    unsigned j = 0;
    while ((c & 1) == 0 && c > CS_LIMB_BITS) {
        c >>= 1;
        j++;
    }
    memcpy(mont->rr, mont->one, n * sizeof(cs_limb));
    for (size_t i = 0; i < c; i++)
        double_mod(mont->rr, m, n); /* Montgomery form of 2^c */
    for (unsigned i = 0; i < j; i++)
        cs_mont_sqr_public(mont->rr, mont->rr, mont);
    return 0;
}

/* Little-endian bytes to limbs; missing bytes are zero and bytes beyond n
 * limbs are ignored. No branch on the data. */
void cs_limbs_from_le_bytes(cs_limb *r, size_t n, const uint8_t *in, size_t nbytes)
{
    for (size_t i = 0; i < n; i++) {
        cs_limb v = 0;
        for (size_t k = 0; k < CS_LIMB_BYTES; k++) {
            size_t pos = i * CS_LIMB_BYTES + k;
            if (pos < nbytes)
                v |= (cs_limb)in[pos] << (8 * k);
        }
        r[i] = v;
    }
}

/* Limbs to little-endian bytes; bytes beyond n limbs are written as zero and
 * limbs beyond nbytes are dropped. No branch on the data. */
void cs_limbs_to_le_bytes(uint8_t *out, size_t nbytes, const cs_limb *a, size_t n)
{
    for (size_t pos = 0; pos < nbytes; pos++) {
        size_t i = pos / CS_LIMB_BYTES, k = pos % CS_LIMB_BYTES;
        out[pos] = i < n ? (uint8_t)(a[i] >> (8 * k)) : 0;
    }
}
