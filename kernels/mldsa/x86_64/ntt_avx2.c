/* AVX2 forward and inverse NTT over Z_q[X]/(X^256+1), eight coefficients
 * per register, Montgomery twiddles with precomputed q^-1 multiples, lazy
 * reduction (the only reduction is the Montgomery one of each twiddle
 * product, as in the portable code, so the same bounds hold). Layers are
 * merged: pass A runs the three widest layers on 8 registers at once, pass
 * B the other five on one 64-coefficient block, the last three after an
 * 8x8 transposition that the output keeps (see avx2.h, "NTT order"). */
#include "avx2.h"
#include "ntt_avx2_zetas.h"

/* Cooley-Tukey butterfly with a broadcast twiddle zeta_fwd_sc[k]. */
static inline void ct_bc(__m256i *a, __m256i *b, __m256i z, __m256i zt)
{
    __m256i t = avx2_montmul(*b, z, zt, z, zt);
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

/* Gentleman-Sande butterfly with a broadcast twiddle. */
static inline void gs_bc(__m256i *a, __m256i *b, __m256i z, __m256i zt)
{
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = avx2_montmul(_mm256_sub_epi32(t, *b), z, zt, z, zt);
}

/* Broadcast constants of layer index k. */
#define FZ(k) _mm256_set1_epi32(zeta_fwd_sc[k]), _mm256_set1_epi32(zeta_fwd_sc_tw[k])
#define IZ(k) _mm256_set1_epi32(zeta_inv_sc[k]), _mm256_set1_epi32(zeta_inv_sc_tw[k])

/* Butterflies with per-lane twiddles v (and vt = v * q^-1). */
static inline void ct_vec(__m256i *a, __m256i *b, const int32_t *v, const int32_t *vt)
{
    __m256i z = avx2_load(v), zt = avx2_load(vt);
    __m256i t = avx2_montmul(*b, z, zt, _mm256_srli_epi64(z, 32), _mm256_srli_epi64(zt, 32));
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

static inline void gs_vec(__m256i *a, __m256i *b, const int32_t *v, const int32_t *vt)
{
    __m256i z = avx2_load(v), zt = avx2_load(vt);
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = avx2_montmul(_mm256_sub_epi32(t, *b), z, zt, _mm256_srli_epi64(z, 32),
                      _mm256_srli_epi64(zt, 32));
}

/* Forward NTT; output in the transposed-block order of avx2.h. Each layer
 * adds at most q to the bound: |out| < |in| + 8q. */
void cs_mldsa_ntt_avx2(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    __m256i r[8];
    /* Pass A: layers len 128, 64, 32 on registers m, m+4, ..., m+28. */
    for (unsigned m = 0; m < 4; m++) {
        for (unsigned i = 0; i < 8; i++)
            r[i] = avx2_load(a + 8 * (m + 4 * i));
        for (unsigned i = 0; i < 4; i++)
            ct_bc(&r[i], &r[i + 4], FZ(1));
        ct_bc(&r[0], &r[2], FZ(2));
        ct_bc(&r[1], &r[3], FZ(2));
        ct_bc(&r[4], &r[6], FZ(3));
        ct_bc(&r[5], &r[7], FZ(3));
        for (unsigned i = 0; i < 4; i++)
            ct_bc(&r[2 * i], &r[2 * i + 1], FZ(4 + i));
        for (unsigned i = 0; i < 8; i++)
            avx2_store(a + 8 * (m + 4 * i), r[i]);
    }
    /* Pass B: layers len 16, 8, then transposed len 4, 2, 1, per block. */
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = a + 64 * b;
        const int32_t *v = zeta_fwd_vec + 56 * b, *vt = zeta_fwd_vec_tw + 56 * b;
        for (unsigned i = 0; i < 8; i++)
            r[i] = avx2_load(blk + 8 * i);
        ct_bc(&r[0], &r[2], FZ(8 + 2 * b));
        ct_bc(&r[1], &r[3], FZ(8 + 2 * b));
        ct_bc(&r[4], &r[6], FZ(9 + 2 * b));
        ct_bc(&r[5], &r[7], FZ(9 + 2 * b));
        for (unsigned i = 0; i < 4; i++)
            ct_bc(&r[2 * i], &r[2 * i + 1], FZ(16 + 4 * b + i));
        avx2_transpose8(r);
        for (unsigned j = 0; j < 4; j++)
            ct_vec(&r[j], &r[j + 4], v, vt);
        ct_vec(&r[0], &r[2], v + 8, vt + 8);
        ct_vec(&r[1], &r[3], v + 8, vt + 8);
        ct_vec(&r[4], &r[6], v + 16, vt + 16);
        ct_vec(&r[5], &r[7], v + 16, vt + 16);
        for (unsigned h = 0; h < 4; h++)
            ct_vec(&r[2 * h], &r[2 * h + 1], v + 24 + 8 * h, vt + 24 + 8 * h);
        for (unsigned i = 0; i < 8; i++)
            avx2_store(blk + 8 * i, r[i]);
    }
}

/* Inverse NTT from the transposed-block order, times 2^32 (the 1/256
 * scaling and the Montgomery factor folded into the last layer). Sums
 * double per layer: |in| < q keeps them below 256q < 2^31. */
void cs_mldsa_invntt_avx2(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    __m256i r[8];
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = a + 64 * b;
        const int32_t *v = zeta_inv_vec + 56 * b, *vt = zeta_inv_vec_tw + 56 * b;
        for (unsigned i = 0; i < 8; i++)
            r[i] = avx2_load(blk + 8 * i);
        for (unsigned h = 0; h < 4; h++)
            gs_vec(&r[2 * h], &r[2 * h + 1], v + 8 * h, vt + 8 * h);
        gs_vec(&r[0], &r[2], v + 32, vt + 32);
        gs_vec(&r[1], &r[3], v + 32, vt + 32);
        gs_vec(&r[4], &r[6], v + 40, vt + 40);
        gs_vec(&r[5], &r[7], v + 40, vt + 40);
        for (unsigned j = 0; j < 4; j++)
            gs_vec(&r[j], &r[j + 4], v + 48, vt + 48);
        avx2_transpose8(r);
        for (unsigned i = 0; i < 4; i++)
            gs_bc(&r[2 * i], &r[2 * i + 1], IZ(31 - 4 * b - i));
        gs_bc(&r[0], &r[2], IZ(15 - 2 * b));
        gs_bc(&r[1], &r[3], IZ(15 - 2 * b));
        gs_bc(&r[4], &r[6], IZ(14 - 2 * b));
        gs_bc(&r[5], &r[7], IZ(14 - 2 * b));
        for (unsigned i = 0; i < 8; i++)
            avx2_store(blk + 8 * i, r[i]);
    }
    const __m256i f = _mm256_set1_epi32(INV_F), ft = _mm256_set1_epi32(INV_F_TW);
    const __m256i fz = _mm256_set1_epi32(INV_FZ), fzt = _mm256_set1_epi32(INV_FZ_TW);
    for (unsigned m = 0; m < 4; m++) {
        for (unsigned i = 0; i < 8; i++)
            r[i] = avx2_load(a + 8 * (m + 4 * i));
        for (unsigned i = 0; i < 4; i++)
            gs_bc(&r[2 * i], &r[2 * i + 1], IZ(7 - i));
        gs_bc(&r[0], &r[2], IZ(3));
        gs_bc(&r[1], &r[3], IZ(3));
        gs_bc(&r[4], &r[6], IZ(2));
        gs_bc(&r[5], &r[7], IZ(2));
        for (unsigned i = 0; i < 4; i++) {
            __m256i t = r[i];
            r[i] = avx2_montmul(_mm256_add_epi32(t, r[i + 4]), f, ft, f, ft);
            r[i + 4] = avx2_montmul(_mm256_sub_epi32(t, r[i + 4]), fz, fzt, fz, fzt);
        }
        for (unsigned i = 0; i < 8; i++)
            avx2_store(a + 8 * (m + 4 * i), r[i]);
    }
}

/* FIPS order -> transposed-block order (ExpandA's output, see avx2.h). */
void cs_mldsa_nttorder_avx2(cs_mldsa_poly *p)
{
    __m256i r[8];
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = p->c + 64 * b;
        for (unsigned i = 0; i < 8; i++)
            r[i] = avx2_load(blk + 8 * i);
        avx2_transpose8(r);
        for (unsigned i = 0; i < 8; i++)
            avx2_store(blk + 8 * i, r[i]);
    }
}

/* c = mont(a * b) lane-wise. */
void cs_mldsa_pointwise_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a->c + i), y = avx2_load(b->c + i);
        __m256i pe = _mm256_mul_epi32(x, y);
        __m256i po = _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(y, 32));
        avx2_store(c->c + i, avx2_montred(pe, po));
    }
}

/* c = mont(sum of n products), summed in 64 bits like the portable code
 * (|sum| < 8 q 2^31 < 2^57), one reduction per coefficient. */
void cs_mldsa_pointwise_acc_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b, unsigned n)
{
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i se = _mm256_setzero_si256(), so = _mm256_setzero_si256();
        for (unsigned j = 0; j < n; j++) {
            __m256i x = avx2_load(a[j].c + i), y = avx2_load(b[j].c + i);
            se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
            so = _mm256_add_epi64(so, _mm256_mul_epi32(_mm256_srli_epi64(x, 32),
                                                       _mm256_srli_epi64(y, 32)));
        }
        avx2_store(c->c + i, avx2_montred(se, so));
    }
}
