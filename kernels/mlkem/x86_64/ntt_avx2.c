/* The ML-KEM NTT, inverse NTT and NTT-domain products in AVX2 16-bit lanes
 * (16 coefficients a vector, q = 3329): Montgomery multiplication by a
 * constant as mulhi/mullo pairs, Barrett reduction with a rounding
 * multiply. The polynomial stays in the portable (standard) order: the four
 * outer layers pair whole vectors, the three inner ones pair lanes of two
 * vectors after one shuffle each way (ntt_avx2_zetas.h has their per-lane
 * zetas). Products of degree-one factors are summed in 32 bits with madd
 * and reduced once. No branch or index on the data. */
#include <immintrin.h>

#include "mlkem_x86.h"
#include "ntt_avx2_zetas.h"

#define VEC_W 256
#include "vec16.h"

/* Lane pairs of vectors a, b (32 coefficients) for the butterflies of length 8 (layer
 * 0), 4 (1) and 2 (2): lo[l] pairs with hi[l] = coefficient lo[l] + length. */
static inline void split(unsigned layer, __m256i a, __m256i b, __m256i *lo, __m256i *hi)
{
    if (layer == 0) {
        *lo = _mm256_permute2x128_si256(a, b, 0x20);
        *hi = _mm256_permute2x128_si256(a, b, 0x31);
    } else if (layer == 1) {
        *lo = _mm256_unpacklo_epi64(a, b);
        *hi = _mm256_unpackhi_epi64(a, b);
    } else {
        *lo = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xAA);
        *hi = _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xAA);
    }
}

/* The inverse of split. */
static inline void join(unsigned layer, __m256i lo, __m256i hi, __m256i *a, __m256i *b)
{
    if (layer == 0) {
        *a = _mm256_permute2x128_si256(lo, hi, 0x20);
        *b = _mm256_permute2x128_si256(lo, hi, 0x31);
    } else if (layer == 1) {
        *a = _mm256_unpacklo_epi64(lo, hi);
        *b = _mm256_unpackhi_epi64(lo, hi);
    } else {
        *a = _mm256_blend_epi32(lo, _mm256_slli_epi64(hi, 32), 0xAA);
        *b = _mm256_blend_epi32(_mm256_srli_epi64(lo, 32), hi, 0xAA);
    }
}

/* Broadcast zeta and its q^-1 multiple. */
static inline void zeta_bcast(int16_t z, __m256i *zv, __m256i *zq)
{
    *zv = _mm256_set1_epi16(z);
    *zq = _mm256_set1_epi16((int16_t)(z * QINV));
}

/* Forward NTT as cs_mlkem_ntt_portable: |c| < q in, centred out. */
void cs_mlkem_ntt_avx2(cs_mlkem_poly *p)
{
    __m256i v[16], zv, zq;
    const __m256i qinv = _mm256_set1_epi16(QINV);
    for (unsigned i = 0; i < 16; i++)
        v[i] = _mm256_load_si256((const __m256i *)&p->c[16 * i]);
    unsigned k = 1;
    for (unsigned d = 8; d >= 1; d >>= 1) { /* length 16 d: vectors d apart */
        for (unsigned start = 0; start < 16; start += 2 * d) {
            zeta_bcast(cs_mlkem_zetas[k++], &zv, &zq);
            for (unsigned j = start; j < start + d; j++) {
                __m256i t = fqmul(v[j + d], zv, zq);
                v[j + d] = _mm256_sub_epi16(v[j], t);
                v[j] = _mm256_add_epi16(v[j], t);
            }
        }
    }
    for (unsigned layer = 0; layer < 3; layer++) {
        for (unsigned pr = 0; pr < 8; pr++) {
            __m256i lo, hi;
            split(layer, v[2 * pr], v[2 * pr + 1], &lo, &hi);
            zv = _mm256_load_si256((const __m256i *)mlkem_zetas_fwd_avx2[layer][pr]);
            zq = _mm256_mullo_epi16(zv, qinv);
            __m256i t = fqmul(hi, zv, zq);
            hi = _mm256_sub_epi16(lo, t);
            lo = _mm256_add_epi16(lo, t);
            join(layer, lo, hi, &v[2 * pr], &v[2 * pr + 1]);
        }
    }
    for (unsigned i = 0; i < 16; i++)
        _mm256_store_si256((__m256i *)&p->c[16 * i], barrett(v[i]));
}

/* Inverse NTT times 2^16 as cs_mlkem_invntt_portable: |c| < q in and out. */
void cs_mlkem_invntt_avx2(cs_mlkem_poly *p)
{
    __m256i v[16], zv, zq;
    const __m256i qinv = _mm256_set1_epi16(QINV);
    for (unsigned i = 0; i < 16; i++)
        v[i] = _mm256_load_si256((const __m256i *)&p->c[16 * i]);
    for (unsigned layer = 3; layer-- > 0;) { /* lengths 2, 4, 8 */
        for (unsigned pr = 0; pr < 8; pr++) {
            __m256i lo, hi;
            split(layer, v[2 * pr], v[2 * pr + 1], &lo, &hi);
            zv = _mm256_load_si256((const __m256i *)mlkem_zetas_inv_avx2[layer][pr]);
            zq = _mm256_mullo_epi16(zv, qinv);
            __m256i t = lo;
            lo = barrett(_mm256_add_epi16(t, hi));
            hi = fqmul(_mm256_sub_epi16(hi, t), zv, zq);
            join(layer, lo, hi, &v[2 * pr], &v[2 * pr + 1]);
        }
    }
    for (unsigned d = 1; d <= 8; d <<= 1) { /* length 16 d */
        unsigned k = 16 / d - 1;
        for (unsigned start = 0; start < 16; start += 2 * d) {
            zeta_bcast(cs_mlkem_zetas[k--], &zv, &zq);
            for (unsigned j = start; j < start + d; j++) {
                __m256i t = v[j];
                v[j] = barrett(_mm256_add_epi16(t, v[j + d]));
                v[j + d] = fqmul(_mm256_sub_epi16(v[j + d], t), zv, zq);
            }
        }
    }
    zeta_bcast(1441, &zv, &zq); /* 2^32 / 128 mod q */
    for (unsigned i = 0; i < 16; i++)
        _mm256_store_si256((__m256i *)&p->c[16 * i], fqmul(v[i], zv, zq));
}

/* r = sum a[i] * b[i] in the NTT domain, times 2^-16 (|c| < q), as the portable
 * product: per coefficient pair, (a0 b0 + a1 (b1 zeta), a0 b1 + a1 b0) by madd. */
void cs_mlkem_basemul_acc_avx2(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b,
                               unsigned k)
{
    const __m256i qinv = _mm256_set1_epi16(QINV);
    const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                          2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    for (unsigned v = 0; v < 16; v++) {
        __m256i zv = _mm256_load_si256((const __m256i *)mlkem_zetas_basemul_avx2[v]);
        __m256i zq = _mm256_mullo_epi16(zv, qinv);
        __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
        for (unsigned i = 0; i < k; i++) {
            __m256i av = _mm256_load_si256((const __m256i *)&a[i].c[16 * v]);
            __m256i bv = _mm256_load_si256((const __m256i *)&b[i].c[16 * v]);
            __m256i bz = _mm256_blend_epi16(bv, fqmul(bv, zv, zq), 0xAA);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(av, bz));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(av, _mm256_shuffle_epi8(bv, swap)));
        }
        __m256i r0 = mont32(acc0), r1 = mont32(acc1);
        _mm256_store_si256((__m256i *)&r->c[16 * v],
                           _mm256_blend_epi16(r0, _mm256_slli_epi32(r1, 16), 0xAA));
    }
}
