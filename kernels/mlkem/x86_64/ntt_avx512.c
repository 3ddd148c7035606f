/* The ML-KEM NTT, inverse NTT and NTT-domain products in AVX-512 16-bit
 * lanes (32 coefficients a vector, eight a polynomial, q = 3329). The
 * polynomial stays in the portable (standard) order outside these
 * functions. The three outer layers pair whole vectors. The four inner ones
 * work on a vector pair through a chain of shuffles (128-bit halves,
 * 128-bit units, 64-bit and 32-bit words) that leave each butterfly's
 * operands in the same lane of two vectors; one dword permutation each way
 * returns to the standard order. The inverse reduces only where the sums
 * could leave 16 bits (two Barrett passes). Per-lane zetas come precomputed
 * with their q^-1 multiples (ntt_avx512_zetas.h). No branch or index on the
 * data. */
#include <immintrin.h>

#include "mlkem_x86.h"
#include "ntt_avx512_zetas.h"

#define VEC_W 512
#include "vec16.h"

/* One step of the inner shuffle chain, an involution on (x, y): for length 16 (layer
 * 0), 8, 4 and 2 (layer 3) it moves each butterfly's partner into the same lane of
 * the other vector, and applied again it undoes itself. */
static inline void shuffle(unsigned layer, __m512i *x, __m512i *y)
{
    __m512i a = *x, b = *y;
    if (layer == 0) {
        *x = _mm512_shuffle_i64x2(a, b, 0x44);
        *y = _mm512_shuffle_i64x2(a, b, 0xEE);
    } else if (layer == 1) {
        *x = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), b);
        *y = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15), b);
    } else if (layer == 2) {
        *x = _mm512_unpacklo_epi64(a, b);
        *y = _mm512_unpackhi_epi64(a, b);
    } else {
        *x = _mm512_permutex2var_epi32(
            a, _mm512_setr_epi32(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30), b);
        *y = _mm512_permutex2var_epi32(
            a, _mm512_setr_epi32(1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31), b);
    }
}

/* After the chain, x holds the even 32-bit words of the pair's 64 coefficients and y
 * the odd ones: back to two vectors in coefficient order. */
static inline void unsplit(__m512i x, __m512i y, __m512i *a, __m512i *b)
{
    *a = _mm512_permutex2var_epi32(
        x, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), y);
    *b = _mm512_permutex2var_epi32(
        x, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), y);
}

/* The inverse of unsplit: the even and odd 32-bit words of a pair. */
static inline void split(__m512i a, __m512i b, __m512i *x, __m512i *y)
{
    *x = _mm512_permutex2var_epi32(
        a, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), b);
    *y = _mm512_permutex2var_epi32(
        a, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), b);
}

static inline __m512i load_z(const int16_t *z)
{
    return _mm512_load_si512((const void *)z);
}

/* Forward NTT as cs_mlkem_ntt_portable: |c| < q in, centred out (eight layers' growth
 * stays below 8q before the one Barrett pass). */
void cs_mlkem_ntt_avx512(cs_mlkem_poly *p)
{
    __m512i v[8];
    for (unsigned i = 0; i < 8; i++)
        v[i] = _mm512_load_si512((const void *)&p->c[32 * i]);
    unsigned k = 1;
    for (unsigned d = 4; d >= 1; d >>= 1) { /* length 32 d: vectors d apart */
        for (unsigned start = 0; start < 8; start += 2 * d) {
            int16_t z = cs_mlkem_zetas[k++];
            __m512i zv = _mm512_set1_epi16(z), zq = _mm512_set1_epi16((int16_t)(z * QINV));
            for (unsigned j = start; j < start + d; j++) {
                __m512i t = fqmul(v[j + d], zv, zq);
                v[j + d] = _mm512_sub_epi16(v[j], t);
                v[j] = _mm512_add_epi16(v[j], t);
            }
        }
    }
    for (unsigned pr = 0; pr < 4; pr++) {
        __m512i x = v[2 * pr], y = v[2 * pr + 1];
        for (unsigned layer = 0; layer < 4; layer++) {
            shuffle(layer, &x, &y);
            const int16_t(*z)[32] = mlkem_zetas_fwd_avx512[layer][pr];
            __m512i t = fqmul(y, load_z(z[0]), load_z(z[1]));
            y = _mm512_sub_epi16(x, t);
            x = _mm512_add_epi16(x, t);
        }
        unsplit(x, y, &v[2 * pr], &v[2 * pr + 1]);
    }
    for (unsigned i = 0; i < 8; i++)
        _mm512_store_si512((void *)&p->c[32 * i], barrett(v[i]));
}

/* Gentleman-Sande butterfly: (x + y, (y - x) zeta 2^-16), the sum reduced if red. */
static inline void gs(__m512i *x, __m512i *y, __m512i zv, __m512i zq, int red)
{
    __m512i s = _mm512_add_epi16(*x, *y);
    *y = fqmul(_mm512_sub_epi16(*y, *x), zv, zq);
    *x = red ? barrett(s) : s;
}

/* Inverse NTT times 2^16 as cs_mlkem_invntt_portable: |c| < q in and out. A sum
 * doubles its bound per layer and a product is below q, so from |c| < q the sums are
 * reduced after the third and sixth layers (below 8q, inside 16 bits, each time). */
void cs_mlkem_invntt_avx512(cs_mlkem_poly *p)
{
    __m512i v[8];
    for (unsigned i = 0; i < 8; i++)
        v[i] = _mm512_load_si512((const void *)&p->c[32 * i]);
    for (unsigned pr = 0; pr < 4; pr++) {
        __m512i x, y;
        split(v[2 * pr], v[2 * pr + 1], &x, &y);
        for (unsigned layer = 4; layer-- > 0;) { /* lengths 2, 4, 8, 16 */
            const int16_t(*z)[32] = mlkem_zetas_inv_avx512[layer][pr];
            gs(&x, &y, load_z(z[0]), load_z(z[1]), layer == 1);
            shuffle(layer, &x, &y);
        }
        v[2 * pr] = x;
        v[2 * pr + 1] = y;
    }
    for (unsigned d = 1; d <= 4; d <<= 1) { /* length 32 d, the layers five to seven */
        unsigned k = 8 / d - 1;
        for (unsigned start = 0; start < 8; start += 2 * d) {
            int16_t z = cs_mlkem_zetas[k--];
            __m512i zv = _mm512_set1_epi16(z), zq = _mm512_set1_epi16((int16_t)(z * QINV));
            for (unsigned j = start; j < start + d; j++)
                gs(&v[j], &v[j + d], zv, zq, d == 2);
        }
    }
    const __m512i f = _mm512_set1_epi16(1441); /* 2^32 / 128 mod q */
    const __m512i fq = _mm512_set1_epi16((int16_t)(1441 * QINV));
    for (unsigned i = 0; i < 8; i++)
        _mm512_store_si512((void *)&p->c[32 * i], fqmul(v[i], f, fq));
}

/* r = sum a[i] * b[i] in the NTT domain, times 2^-16 (|c| < q), as the portable
 * product: per coefficient pair, (a0 b0 + a1 (b1 zeta), a0 b1 + a1 b0) by madd, summed
 * in 32 bits (k terms below 4 * 2 * 4096 * 1665 < 2^15 q) and reduced once. */
void cs_mlkem_basemul_acc_avx512(cs_mlkem_poly *r, const cs_mlkem_poly *a,
                                 const cs_mlkem_poly *b, unsigned k)
{
    for (unsigned v = 0; v < 8; v++) {
        __m512i zv = load_z(mlkem_zetas_basemul_avx512[v][0]);
        __m512i zq = load_z(mlkem_zetas_basemul_avx512[v][1]);
        __m512i acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
        for (unsigned i = 0; i < k; i++) {
            __m512i av = _mm512_load_si512((const void *)&a[i].c[32 * v]);
            __m512i bv = _mm512_load_si512((const void *)&b[i].c[32 * v]);
            __m512i bz = _mm512_mask_blend_epi16(0xAAAAAAAA, bv, fqmul(bv, zv, zq));
            acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(av, bz));
            acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(av, _mm512_rol_epi32(bv, 16)));
        }
        __m512i r0 = mont32(acc0), r1 = mont32(acc1);
        _mm512_store_si512((void *)&r->c[32 * v],
                           _mm512_mask_blend_epi16(0xAAAAAAAA, r0, _mm512_slli_epi32(r1, 16)));
    }
}
