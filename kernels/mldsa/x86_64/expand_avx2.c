/* ExpandA, ExpandS and ExpandMask on the 4-way Keccak: four SHAKE streams
 * (four polynomials) per permutation, blocks copied straight out of the
 * interleaved state into the AVX2 rejection samplers or unpacker. Same
 * streams, same consumption order as FIPS 204 (and the generic samplers),
 * so outputs are identical. */
#include <string.h>

#include "avx2.h"

#define RATE128 CS_SHAKE128_RATE
#define RATE256 CS_SHAKE256_RATE

/* Absorbs seed (seedlen bytes, a multiple of 8) || nonce[j] into lane j of
 * a zeroed x4 state, with SHAKE padding for the given rate. */
static void x4_seed(uint64_t s[100], const uint8_t *seed, unsigned seedlen,
                    const uint16_t nonce[4], unsigned rate)
{
    memset(s, 0, 100 * sizeof s[0]);
    for (unsigned j = 0; j < 4; j++) {
        unsigned i;
        for (i = 0; i < seedlen / 8; i++)
            memcpy(&s[4 * i + j], seed + 8 * i, 8); /* x86-64: little-endian lanes */
        s[4 * i + j] = (uint64_t)nonce[j] | (uint64_t)0x1F << 16;
        s[4 * ((rate - 1) / 8) + j] ^= (uint64_t)0x80 << 56;
    }
}

/* Copies the first `lanes` lanes of stream j out of an x4 state. */
static inline void x4_block(uint8_t *out, const uint64_t *s, unsigned j, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        memcpy(out + 8 * i, &s[4 * i + j], 8);
}

/* Copies the first `lanes` lanes of all four streams out of an x4 state,
 * stream j to out + j * stride: four lanes of the four streams at a time
 * by a 4x4 transposition of 64-bit elements, one 32-byte store per stream
 * (the lane-by-lane copy did 8-byte loads and stores, and the samplers'
 * wide loads then spanned several pending narrow stores). */
static inline void x4_block_all(uint8_t *out, size_t stride, const uint64_t *s, unsigned lanes)
{
    unsigned i = 0;
    for (; i + 4 <= lanes; i += 4) {
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(s + 4 * i));
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(s + 4 * i + 4));
        __m256i a2 = _mm256_loadu_si256((const __m256i *)(s + 4 * i + 8));
        __m256i a3 = _mm256_loadu_si256((const __m256i *)(s + 4 * i + 12));
        __m256i t0 = _mm256_unpacklo_epi64(a0, a1), t1 = _mm256_unpackhi_epi64(a0, a1);
        __m256i t2 = _mm256_unpacklo_epi64(a2, a3), t3 = _mm256_unpackhi_epi64(a2, a3);
        _mm256_storeu_si256((__m256i *)(out + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
        _mm256_storeu_si256((__m256i *)(out + stride + 8 * i),
                            _mm256_permute2x128_si256(t1, t3, 0x20));
        _mm256_storeu_si256((__m256i *)(out + 2 * stride + 8 * i),
                            _mm256_permute2x128_si256(t0, t2, 0x31));
        _mm256_storeu_si256((__m256i *)(out + 3 * stride + 8 * i),
                            _mm256_permute2x128_si256(t1, t3, 0x31));
    }
    for (; i < lanes; i++)
        for (unsigned j = 0; j < 4; j++)
            memcpy(out + j * stride + 8 * i, &s[4 * i + j], 8);
}

/* Squeezes `blocks` blocks of every stream into buf[j] (stride bytes)
 * with the impl's 4-way permutation. */
static void x4_squeeze(const cs_mldsa_impl *impl, uint8_t *buf, size_t stride, uint64_t s[100],
                       unsigned blocks, unsigned rate)
{
    for (unsigned b = 0; b < blocks; b++) {
        impl->keccak->f1600_x4(s);
        x4_block_all(buf + b * rate, stride, s, rate / 8);
    }
}

/* Permutes the four states and, if the side sponge has a full block, that
 * too in the same instruction stream (kernels/keccak/x86_64/x4x1_planes_avx2.S).
 * Only the "avx2" table passes a side sponge (its x4 permutation is the
 * AVX2 one). */
static inline void perm_side(const cs_mldsa_impl *impl, uint64_t s[100], cs_mldsa_side *side)
{
    if (side && cs_side_fill(side)) {
        cs_keccakf1600_x4x1_avx2(s, side->sp.s);
        side->sp.pos = 0;
    } else {
        impl->keccak->f1600_x4(s);
    }
}

/* ExpandA: A[r][s] = RejNTTPoly(rho || s || r), four at a time: five
 * blocks (840 bytes, 280 candidates for 256 values) almost always suffice;
 * more are squeezed one at a time for the streams that need them. With
 * side, also drives keygen's H(pk) (expand_a_side in mldsa_backend.h). */
static void expand_a(const cs_mldsa_impl *impl, cs_mldsa_poly *mat, const uint8_t rho[32],
                     unsigned k, unsigned l, cs_mldsa_side *side)
{
    uint8_t buf[4][5 * RATE128];
    uint64_t s[100];
    unsigned total = k * l;
    for (unsigned base = 0; base < total; base += 4) {
        uint16_t nonce[4];
        cs_mldsa_poly *out[4];
        unsigned ctr[4], n = total - base < 4 ? total - base : 4;
        for (unsigned j = 0; j < 4; j++) {
            unsigned idx = base + (j < n ? j : 0);
            nonce[j] = (uint16_t)(idx % l | (idx / l) << 8);
            out[j] = &mat[idx];
        }
        x4_seed(s, rho, 32, nonce, RATE128);
        for (unsigned b = 0; b < 5; b++) {
            perm_side(impl, s, side);
            x4_block_all(buf[0] + b * RATE128, sizeof buf[0], s, RATE128 / 8);
        }
        unsigned more = 0;
        for (unsigned j = 0; j < n; j++) {
            ctr[j] = cs_mldsa_rej_uniform_avx2(out[j]->c, 256, buf[j], sizeof buf[j]);
            more |= ctr[j] < 256;
        }
        while (more) {
            more = 0;
            perm_side(impl, s, side);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                x4_block(buf[j], s, j, RATE128 / 8);
                ctr[j] += cs_mldsa_rej_uniform_avx2(out[j]->c + ctr[j], 256 - ctr[j], buf[j],
                                                    RATE128);
                more |= ctr[j] < 256;
            }
        }
        for (unsigned j = 0; j < n; j++)
            cs_mldsa_nttorder_avx2(out[j]);
        if (side && (base + n) / l > side->rows)
            side->rows_done(side, (base + n) / l);
    }
}

void cs_mldsa_expand_a_avx2(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                            const uint8_t rho[32], unsigned k, unsigned l)
{
    expand_a(impl, mat, rho, k, l, NULL);
}

void cs_mldsa_expand_a_side_avx2(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                                 const uint8_t rho[32], unsigned k, unsigned l,
                                 cs_mldsa_side *side)
{
    expand_a(impl, mat, rho, k, l, side);
}

/* ExpandS: s1[r] from nonce r, s2[r] from l + r, four streams at once,
 * one block at a time per stream until it has 256 values. Which streams
 * still need blocks depends only on rejection positions (see rej_eta). */
void cs_mldsa_expand_s_avx2(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                            const uint8_t rhoprime[64], unsigned k, unsigned l, unsigned eta)
{
    uint8_t buf[RATE256];
    uint64_t s[100];
    unsigned total = k + l;
    for (unsigned base = 0; base < total; base += 4) {
        uint16_t nonce[4];
        cs_mldsa_poly *out[4];
        unsigned ctr[4] = {0, 0, 0, 0}, n = total - base < 4 ? total - base : 4, more = 1;
        for (unsigned j = 0; j < 4; j++) {
            unsigned idx = base + (j < n ? j : 0);
            nonce[j] = (uint16_t)idx;
            out[j] = idx < l ? &s1[idx] : &s2[idx - l];
        }
        x4_seed(s, rhoprime, 64, nonce, RATE256);
        while (more) {
            more = 0;
            impl->keccak->f1600_x4(s);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                x4_block(buf, s, j, RATE256 / 8);
                ctr[j] += cs_mldsa_rej_eta_avx2(out[j]->c + ctr[j], 256 - ctr[j], buf, RATE256,
                                                eta);
                more |= ctr[j] < 256;
            }
        }
    }
    cs_wipe(buf, sizeof buf);
    cs_wipe(s, sizeof s);
}

/* ExpandMask: y[r] = BitUnpack(SHAKE256(rho'' || kappa + r), 576 or 640
 * bytes = five blocks). Four streams per x4 pass; a single leftover
 * stream (l = 5) runs on the scalar sponge, cheaper than a 4-way pass. */
void cs_mldsa_expand_mask_avx2(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                               const uint8_t rhopp[64], uint16_t kappa, unsigned l,
                               int32_t gamma1)
{
    uint8_t buf[4][5 * RATE256];
    uint64_t s[100];
    for (unsigned base = 0; base < l; base += 4) {
        unsigned n = l - base < 4 ? l - base : 4;
        if (n == 1) {
            cs_shake sp;
            uint8_t nb[2] = {(uint8_t)(kappa + base), (uint8_t)((kappa + base) >> 8)};
            cs_shake_init(&sp, impl->keccak, RATE256);
            cs_shake_absorb(&sp, rhopp, 64);
            cs_shake_absorb(&sp, nb, 2);
            cs_shake_squeeze(&sp, buf[0], gamma1 == (1 << 17) ? 576 : 640);
            cs_mldsa_unpack_z_avx2(&y[base], buf[0], gamma1);
            cs_wipe(&sp, sizeof sp);
            continue;
        }
        uint16_t nonce[4];
        for (unsigned j = 0; j < 4; j++)
            nonce[j] = (uint16_t)(kappa + base + (j < n ? j : 0));
        x4_seed(s, rhopp, 64, nonce, RATE256);
        x4_squeeze(impl, &buf[0][0], sizeof buf[0], s, 5, RATE256);
        for (unsigned j = 0; j < n; j++)
            cs_mldsa_unpack_z_avx2(&y[base + j], buf[j], gamma1);
    }
    cs_wipe(buf, sizeof buf);
    cs_wipe(s, sizeof s);
}
