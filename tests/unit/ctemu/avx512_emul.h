/* AVX-512 intrinsics in plain C over AVX2 types, for the constant-time check
 * only. Valgrind 3.19 cannot execute EVEX instructions, so the ct test build
 * compiles the AVX-512 kernels (kernels/bn/x86_64/ifma.c, the *_avx512.c files
 * of kernels/mldsa/x86_64) with `-include` of this header and
 * -DCS_CT_EMULATE_AVX512 (mk/ctemu.mk): the same kernel source then runs under
 * memcheck with every intrinsic replaced by a function of the same semantics.
 * What memcheck then checks is the kernel's C: its branches and addresses.
 * The emulations themselves have no branch or memory index on data (lane
 * loops of fixed length, immediates are compile-time constants), with one
 * documented exception: masked loads/stores branch on the mask, so a secret
 * mask is reported, which is the conservative answer. Never used in
 * libcryptoshim.so. tests/unit/ctemu/emul_intrin.c checks every function here
 * against the real instruction, lane by lane.
 *
 * Without CS_CT_EMULATE_AVX512 only the cs_emu_* functions are declared (the
 * intrinsic test compares them with the native intrinsics); with it, the
 * intrinsic names and __m512i are redirected to them. To extend: add a
 * cs_emu_ function, its #define below, and a case in emul_intrin.c. */
#ifndef CRYPTOSHIM_CT_EMUL_AVX512_H
#define CRYPTOSHIM_CT_EMUL_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#define CS_EMU static inline __attribute__((always_inline, unused))

/* A 512-bit register as eight 64-bit lanes (same size and layout in memory
 * as __m512i, so kernels' `(__m512i *)p + i` arithmetic is unchanged; aligned
 * to 32 only, which avoids GCC's 64-byte-alignment ABI note and matters only
 * to structs with __m512i members, none shared with native code). */
typedef union {
    uint64_t q[8];
    uint32_t d[16];
    uint16_t w[32];
    uint8_t b[64];
    __m256i y[2];
    __m128i x[4];
} cs_emu_m512i;

/* A 256-bit register's lanes. */
typedef union {
    uint64_t q[4];
    __m256i v;
} cs_emu_u256;

/* A 128-bit register's lanes. */
typedef union {
    uint64_t q[2];
    uint8_t b[16];
    __m128i v;
} cs_emu_u128;

/* All ones if x == y, else zero; no branch. */
CS_EMU uint64_t cs_emu_eqmask(uint64_t x, uint64_t y)
{
    uint64_t d = x ^ y;
    return ((d | (0 - d)) >> 63) - 1;
}

#define CS_EMU_M52 ((1ull << 52) - 1)

/* ---- 52-bit multiply-add (IFMA) ---- */

/* a + low 52 bits of (b mod 2^52)(c mod 2^52), per lane. */
CS_EMU uint64_t cs_emu_madd52lo_1(uint64_t a, uint64_t b, uint64_t c)
{
    return a + (((b & CS_EMU_M52) * (c & CS_EMU_M52)) & CS_EMU_M52);
}

/* a + bits 52..103 of (b mod 2^52)(c mod 2^52), per lane. */
CS_EMU uint64_t cs_emu_madd52hi_1(uint64_t a, uint64_t b, uint64_t c)
{
    unsigned __int128 p = (unsigned __int128)(b & CS_EMU_M52) * (c & CS_EMU_M52);
    return a + (uint64_t)(p >> 52);
}

/* vpmadd52luq ymm. */
CS_EMU __m256i cs_emu_mm256_madd52lo_epu64(__m256i a, __m256i b, __m256i c)
{
    cs_emu_u256 x = {.v = a}, y = {.v = b}, z = {.v = c};
    for (int i = 0; i < 4; i++)
        x.q[i] = cs_emu_madd52lo_1(x.q[i], y.q[i], z.q[i]);
    return x.v;
}

/* vpmadd52huq ymm. */
CS_EMU __m256i cs_emu_mm256_madd52hi_epu64(__m256i a, __m256i b, __m256i c)
{
    cs_emu_u256 x = {.v = a}, y = {.v = b}, z = {.v = c};
    for (int i = 0; i < 4; i++)
        x.q[i] = cs_emu_madd52hi_1(x.q[i], y.q[i], z.q[i]);
    return x.v;
}

/* A three-operand instruction on eight lanes of type T (field F): lane i
 * of the result is EXPR of a, b and c's lanes i. */
#define CS_EMU_LANEWISE3(T, NAME, F, EXPR)                                             \
    CS_EMU T cs_emu_mm512_##NAME(T a, T b, T c)                                        \
    {                                                                                 \
        for (int i = 0; i < 8; i++)                                                   \
            a.F[i] = (EXPR);                                                          \
        return a;                                                                     \
    }

/* vpmadd52luq and vpmadd52huq zmm. */
CS_EMU_LANEWISE3(cs_emu_m512i, madd52lo_epu64, q, cs_emu_madd52lo_1(a.q[i], b.q[i], c.q[i]))
CS_EMU_LANEWISE3(cs_emu_m512i, madd52hi_epu64, q, cs_emu_madd52hi_1(a.q[i], b.q[i], c.q[i]))

/* ---- double lanes (the 512-bit FMA kernel, kernels/bn/x86_64/fma512*) ---- */

/* A 512-bit register as eight doubles (same size and layout as __m512d). */
typedef union {
    double f[8];
    uint64_t q[8];
} cs_emu_m512d;

CS_EMU cs_emu_m512d cs_emu_mm512_castsi512_pd(cs_emu_m512i a)
{
    cs_emu_m512d r;
    __builtin_memcpy(r.q, a.q, sizeof r.q);
    return r;
}

CS_EMU cs_emu_m512i cs_emu_mm512_castpd_si512(cs_emu_m512d a)
{
    cs_emu_m512i r;
    __builtin_memcpy(r.q, a.q, sizeof r.q);
    return r;
}

CS_EMU cs_emu_m512d cs_emu_mm512_set1_pd(double x)
{
    cs_emu_m512d r;
    for (int i = 0; i < 8; i++)
        r.f[i] = x;
    return r;
}

CS_EMU cs_emu_m512d cs_emu_mm512_sub_pd(cs_emu_m512d a, cs_emu_m512d b)
{
    for (int i = 0; i < 8; i++)
        a.f[i] -= b.f[i];
    return a;
}

/* vfmadd: a*b + c rounded once, per lane; vfnmadd: -(a*b) + c (negating a
 * is exact). __builtin_fma is the scalar vfmadd instruction where the
 * including source is built with -mfma (the FMA kernels' emulated objects
 * are, mk/ctemu.mk), no library call and no branch; elsewhere these are
 * never called. */
CS_EMU_LANEWISE3(cs_emu_m512d, fmadd_pd, f, __builtin_fma(a.f[i], b.f[i], c.f[i]))
CS_EMU_LANEWISE3(cs_emu_m512d, fnmadd_pd, f, __builtin_fma(-a.f[i], b.f[i], c.f[i]))
#undef CS_EMU_LANEWISE3

/* ---- bitwise: three-input logic and rotations ---- */

/* vpternlogq on one lane: bit j of the result is bit (a_j b_j c_j) of imm,
 * built as the OR of the minterms imm selects (imm is a constant). */
CS_EMU uint64_t cs_emu_tern_1(uint64_t a, uint64_t b, uint64_t c, int imm)
{
    uint64_t r = 0;
    for (int k = 0; k < 8; k++)
        if ((imm >> k) & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

/* Rotate left by a constant count (mod 64). */
CS_EMU uint64_t cs_emu_rol_1(uint64_t x, int n)
{
    n &= 63;
    return n ? (x << n) | (x >> (64 - n)) : x;
}

CS_EMU __m256i cs_emu_mm256_ternarylogic_epi64(__m256i a, __m256i b, __m256i c, int imm)
{
    cs_emu_u256 x = {.v = a}, y = {.v = b}, z = {.v = c};
    for (int i = 0; i < 4; i++)
        x.q[i] = cs_emu_tern_1(x.q[i], y.q[i], z.q[i], imm);
    return x.v;
}

CS_EMU cs_emu_m512i cs_emu_mm512_ternarylogic_epi64(cs_emu_m512i a, cs_emu_m512i b,
                                                   cs_emu_m512i c, int imm)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = cs_emu_tern_1(a.q[i], b.q[i], c.q[i], imm);
    return a;
}

CS_EMU __m256i cs_emu_mm256_rol_epi64(__m256i a, int n)
{
    cs_emu_u256 x = {.v = a};
    for (int i = 0; i < 4; i++)
        x.q[i] = cs_emu_rol_1(x.q[i], n);
    return x.v;
}

CS_EMU __m256i cs_emu_mm256_ror_epi64(__m256i a, int n)
{
    return cs_emu_mm256_rol_epi64(a, 64 - (n & 63));
}

CS_EMU cs_emu_m512i cs_emu_mm512_rol_epi64(cs_emu_m512i a, int n)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = cs_emu_rol_1(a.q[i], n);
    return a;
}

CS_EMU cs_emu_m512i cs_emu_mm512_ror_epi64(cs_emu_m512i a, int n)
{
    return cs_emu_mm512_rol_epi64(a, 64 - (n & 63));
}

/* Arithmetic right shift of 64-bit lanes (VL form), count >= 64 gives the
 * sign. */
CS_EMU __m256i cs_emu_mm256_srai_epi64(__m256i a, unsigned n)
{
    cs_emu_u256 x = {.v = a};
    for (int i = 0; i < 4; i++)
        x.q[i] = (uint64_t)((int64_t)x.q[i] >> (n > 63 ? 63 : n));
    return x.v;
}

/* ---- lane moves ---- */

/* valignq ymm: lanes imm..imm+3 of the concatenation hi:lo (lo first). */
CS_EMU __m256i cs_emu_mm256_alignr_epi64(__m256i hi, __m256i lo, int imm)
{
    cs_emu_u256 h = {.v = hi}, l = {.v = lo}, r;
    uint64_t t[8] = {l.q[0], l.q[1], l.q[2], l.q[3], h.q[0], h.q[1], h.q[2], h.q[3]};
    for (int i = 0; i < 4; i++)
        r.q[i] = t[(i + (imm & 3)) & 7];
    return r.v;
}

/* valignq zmm. */
CS_EMU cs_emu_m512i cs_emu_mm512_alignr_epi64(cs_emu_m512i hi, cs_emu_m512i lo, int imm)
{
    cs_emu_m512i r;
    for (int i = 0; i < 8; i++) {
        int j = i + (imm & 7);
        r.q[i] = j < 8 ? lo.q[j] : hi.q[j - 8];
    }
    return r;
}

/* vpunpcklqdq zmm: per 128-bit block, the low lanes of a then b. */
CS_EMU cs_emu_m512i cs_emu_mm512_unpacklo_epi64(cs_emu_m512i a, cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int k = 0; k < 4; k++) {
        r.q[2 * k] = a.q[2 * k];
        r.q[2 * k + 1] = b.q[2 * k];
    }
    return r;
}

/* vpunpckhqdq zmm: per 128-bit block, the high lanes of a then b. */
CS_EMU cs_emu_m512i cs_emu_mm512_unpackhi_epi64(cs_emu_m512i a, cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int k = 0; k < 4; k++) {
        r.q[2 * k] = a.q[2 * k + 1];
        r.q[2 * k + 1] = b.q[2 * k + 1];
    }
    return r;
}

/* vshufi64x2 zmm: 128-bit blocks a[imm0], a[imm1], b[imm2], b[imm3]. */
CS_EMU cs_emu_m512i cs_emu_mm512_shuffle_i64x2(cs_emu_m512i a, cs_emu_m512i b, int imm)
{
    cs_emu_m512i r;
    for (int k = 0; k < 4; k++) {
        const cs_emu_m512i *s = k < 2 ? &a : &b;
        int blk = (imm >> (2 * k)) & 3;
        r.q[2 * k] = s->q[2 * blk];
        r.q[2 * k + 1] = s->q[2 * blk + 1];
    }
    return r;
}

/* vpermq zmm by index vector: lane i = a[idx_i mod 8]. The index may be
 * data, so every lane is read under a compare mask, not addressed. */
CS_EMU cs_emu_m512i cs_emu_mm512_permutexvar_epi64(cs_emu_m512i idx, cs_emu_m512i a)
{
    cs_emu_m512i r;
    for (int i = 0; i < 8; i++) {
        uint64_t v = 0, want = idx.q[i] & 7;
        for (uint64_t j = 0; j < 8; j++) {
            uint64_t d = j ^ want;
            v |= a.q[j] & (((d | (0 - d)) >> 63) - 1);
        }
        r.q[i] = v;
    }
    return r;
}

/* vpermt2q zmm: lane i = (idx_i bit 3 ? b : a)[idx_i mod 8], masked as above. */
CS_EMU cs_emu_m512i cs_emu_mm512_permutex2var_epi64(cs_emu_m512i a, cs_emu_m512i idx,
                                                   cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int i = 0; i < 8; i++) {
        uint64_t v = 0, want = idx.q[i] & 15;
        for (uint64_t j = 0; j < 16; j++) {
            uint64_t d = j ^ want;
            v |= (j < 8 ? a.q[j] : b.q[j - 8]) & (((d | (0 - d)) >> 63) - 1);
        }
        r.q[i] = v;
    }
    return r;
}

/* ---- 512-bit arithmetic, logic, constants, loads and stores ---- */

#define CS_EMU_LANEWISE2(NAME, EXPR)                                                  \
    CS_EMU cs_emu_m512i cs_emu_mm512_##NAME(cs_emu_m512i a, cs_emu_m512i b)            \
    {                                                                                 \
        for (int i = 0; i < 8; i++)                                                   \
            a.q[i] = (EXPR);                                                          \
        return a;                                                                     \
    }
CS_EMU_LANEWISE2(xor_si512, a.q[i] ^ b.q[i])
CS_EMU_LANEWISE2(and_si512, a.q[i] & b.q[i])
CS_EMU_LANEWISE2(or_si512, a.q[i] | b.q[i])
CS_EMU_LANEWISE2(andnot_si512, ~a.q[i] & b.q[i])
CS_EMU_LANEWISE2(add_epi64, a.q[i] + b.q[i])
CS_EMU_LANEWISE2(sub_epi64, a.q[i] - b.q[i])
#undef CS_EMU_LANEWISE2

/* Shifts by a constant of every W-bit lane (field F, N lanes; U and S its
 * unsigned and signed types), as vpsll, vpsrl and vpsra do: a count >= W
 * gives zero (logical) or the sign (arithmetic). */
#define CS_EMU_SLLI(SFX, F, N, W, U)                                                  \
    CS_EMU cs_emu_m512i cs_emu_mm512_slli_##SFX(cs_emu_m512i a, unsigned n)         \
    {                                                                               \
        for (int i = 0; i < N; i++)                                                 \
            a.F[i] = (U)(n > W - 1 ? 0 : a.F[i] << n);                              \
        return a;                                                                   \
    }
#define CS_EMU_SRLI(SFX, F, N, W, U)                                                  \
    CS_EMU cs_emu_m512i cs_emu_mm512_srli_##SFX(cs_emu_m512i a, unsigned n)         \
    {                                                                               \
        for (int i = 0; i < N; i++)                                                 \
            a.F[i] = (U)(n > W - 1 ? 0 : a.F[i] >> n);                              \
        return a;                                                                   \
    }
#define CS_EMU_SRAI(SFX, F, N, W, U, S)                                               \
    CS_EMU cs_emu_m512i cs_emu_mm512_srai_##SFX(cs_emu_m512i a, unsigned n)         \
    {                                                                               \
        for (int i = 0; i < N; i++)                                                 \
            a.F[i] = (U)((S)a.F[i] >> (n > W - 1 ? W - 1 : n));                     \
        return a;                                                                   \
    }
CS_EMU_SLLI(epi64, q, 8, 64, uint64_t)
CS_EMU_SRLI(epi64, q, 8, 64, uint64_t)
CS_EMU_SRAI(epi64, q, 8, 64, uint64_t, int64_t)
CS_EMU_SLLI(epi32, d, 16, 32, uint32_t)
CS_EMU_SRLI(epi32, d, 16, 32, uint32_t)
CS_EMU_SRAI(epi32, d, 16, 32, uint32_t, int32_t)
CS_EMU_SLLI(epi16, w, 32, 16, uint16_t)
CS_EMU_SRAI(epi16, w, 32, 16, uint16_t, int16_t)
#undef CS_EMU_SLLI
#undef CS_EMU_SRLI
#undef CS_EMU_SRAI

CS_EMU cs_emu_m512i cs_emu_mm512_setzero_si512(void)
{
    cs_emu_m512i r;
    for (int i = 0; i < 8; i++)
        r.q[i] = 0;
    return r;
}

/* x in every lane of type T (field F, N lanes; U its unsigned type). */
#define CS_EMU_SET1(SFX, T, F, N, U)                                                  \
    CS_EMU cs_emu_m512i cs_emu_mm512_set1_##SFX(T x)                                  \
    {                                                                                 \
        cs_emu_m512i r;                                                               \
        for (int i = 0; i < N; i++)                                                   \
            r.F[i] = (U)x;                                                            \
        return r;                                                                     \
    }
CS_EMU_SET1(epi64, long long, q, 8, uint64_t)
CS_EMU_SET1(epi32, int, d, 16, uint32_t)
CS_EMU_SET1(epi16, short, w, 32, uint16_t)
#undef CS_EMU_SET1

/* Arguments from the highest lane down, as _mm512_set_epi64. */
CS_EMU cs_emu_m512i cs_emu_mm512_set_epi64(long long e7, long long e6, long long e5,
                                          long long e4, long long e3, long long e2,
                                          long long e1, long long e0)
{
    cs_emu_m512i r = {.q = {(uint64_t)e0, (uint64_t)e1, (uint64_t)e2, (uint64_t)e3,
                            (uint64_t)e4, (uint64_t)e5, (uint64_t)e6, (uint64_t)e7}};
    return r;
}

CS_EMU cs_emu_m512i cs_emu_mm512_loadu_si512(const void *p)
{
    cs_emu_m512i r;
    __builtin_memcpy(&r, p, sizeof r);
    return r;
}

CS_EMU void cs_emu_mm512_storeu_si512(void *p, cs_emu_m512i a)
{
    __builtin_memcpy(p, &a, sizeof a);
}

/* Halves: vextracti64x4 / vinserti64x4 / casts. */
CS_EMU __m256i cs_emu_mm512_castsi512_si256(cs_emu_m512i a)
{
    return a.y[0];
}

CS_EMU __m256i cs_emu_mm512_extracti64x4_epi64(cs_emu_m512i a, int imm)
{
    return a.y[imm & 1];
}

CS_EMU cs_emu_m512i cs_emu_mm512_inserti64x4(cs_emu_m512i a, __m256i b, int imm)
{
    a.y[imm & 1] = b;
    return a;
}

/* Upper half zero (the real cast leaves it undefined; zero is one choice). */
CS_EMU cs_emu_m512i cs_emu_mm512_zextsi256_si512(__m256i a)
{
    cs_emu_m512i r;
    r.y[0] = a;
    r.y[1] = _mm256_setzero_si256();
    return r;
}

/* ---- masks (__mmask8: bit i for lane i) ---- */

/* Compare to a mask, branch-free. */
CS_EMU __mmask8 cs_emu_mm512_cmpeq_epi64_mask(cs_emu_m512i a, cs_emu_m512i b)
{
    unsigned m = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t d = a.q[i] ^ b.q[i];
        m |= (unsigned)(1 ^ ((d | (0 - d)) >> 63)) << i;
    }
    return (__mmask8)m;
}

CS_EMU __mmask8 cs_emu_mm512_cmplt_epu64_mask(cs_emu_m512i a, cs_emu_m512i b)
{
    unsigned m = 0;
    for (int i = 0; i < 8; i++) {
        /* borrow of a - b, without a compare the compiler could branch on */
        uint64_t x = a.q[i], y = b.q[i];
        m |= (unsigned)(((~x & y) | (~(x ^ y) & (x - y))) >> 63) << i;
    }
    return (__mmask8)m;
}

/* Lane i = (k bit i) ? b : a. */
CS_EMU cs_emu_m512i cs_emu_mm512_mask_blend_epi64(__mmask8 k, cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 8; i++) {
        uint64_t m = 0 - (uint64_t)((k >> i) & 1);
        a.q[i] = (a.q[i] & ~m) | (b.q[i] & m);
    }
    return a;
}

CS_EMU __m256i cs_emu_mm256_mask_blend_epi64(__mmask8 k, __m256i a, __m256i b)
{
    cs_emu_u256 x = {.v = a}, y = {.v = b};
    for (int i = 0; i < 4; i++) {
        uint64_t m = 0 - (uint64_t)((k >> i) & 1);
        x.q[i] = (x.q[i] & ~m) | (y.q[i] & m);
    }
    return x.v;
}

/* Masked store: lanes whose mask bit is clear are not written (they may lie
 * beyond the buffer). Branches on the mask: a secret mask is reported. */
CS_EMU void cs_emu_mm512_mask_storeu_epi64(void *p, __mmask8 k, cs_emu_m512i a)
{
    for (int i = 0; i < 8; i++)
        if ((k >> i) & 1)
            __builtin_memcpy((char *)p + 8 * i, &a.q[i], 8);
}

/* Masked load, zeroing, of N lanes of W bytes (field F, mask type K):
 * lanes whose mask bit is clear are not read (a branch on the mask, as
 * every masked load and store here). */
#define CS_EMU_MASKZ_LOADU(SFX, K, F, N, W)                                           \
    CS_EMU cs_emu_m512i cs_emu_mm512_maskz_loadu_##SFX(K k, const void *p)            \
    {                                                                                 \
        cs_emu_m512i r;                                                               \
        for (int i = 0; i < N; i++) {                                                 \
            r.F[i] = 0;                                                               \
            if ((k >> i) & 1)                                                         \
                __builtin_memcpy(&r.F[i], (const char *)p + W * i, W);                \
        }                                                                             \
        return r;                                                                     \
    }
CS_EMU_MASKZ_LOADU(epi64, __mmask8, q, 8, 8)
CS_EMU_MASKZ_LOADU(epi32, __mmask16, d, 16, 4)
#undef CS_EMU_MASKZ_LOADU

/* ---- masked moves and logic on 64-bit lanes (AVX-512F/DQ) ---- */

/* Lane i = (k bit i) ? a : src; branch-free. */
CS_EMU cs_emu_m512i cs_emu_mm512_mask_mov_epi64(cs_emu_m512i src, __mmask8 k, cs_emu_m512i a)
{
    return cs_emu_mm512_mask_blend_epi64(k, src, a);
}

CS_EMU cs_emu_m512i cs_emu_mm512_maskz_mov_epi64(__mmask8 k, cs_emu_m512i a)
{
    return cs_emu_mm512_mask_blend_epi64(k, cs_emu_mm512_setzero_si512(), a);
}

CS_EMU cs_emu_m512i cs_emu_mm512_maskz_and_epi64(__mmask8 k, cs_emu_m512i a, cs_emu_m512i b)
{
    return cs_emu_mm512_maskz_mov_epi64(k, cs_emu_mm512_and_si512(a, b));
}

CS_EMU cs_emu_m512i cs_emu_mm512_mask_set1_epi64(cs_emu_m512i src, __mmask8 k, long long x)
{
    return cs_emu_mm512_mask_blend_epi64(k, src, cs_emu_mm512_set1_epi64(x));
}

/* vpmovm2q: lane i all ones iff k bit i. */
CS_EMU cs_emu_m512i cs_emu_mm512_movm_epi64(__mmask8 k)
{
    cs_emu_m512i r;
    for (int i = 0; i < 8; i++)
        r.q[i] = 0 - (uint64_t)((k >> i) & 1);
    return r;
}

/* Aligned load/store (the alignment is not checked). */
CS_EMU cs_emu_m512i cs_emu_mm512_load_si512(const void *p)
{
    return cs_emu_mm512_loadu_si512(p);
}

CS_EMU void cs_emu_mm512_store_si512(void *p, cs_emu_m512i a)
{
    cs_emu_mm512_storeu_si512(p, a);
}

/* ---- 128-bit blocks ---- */

CS_EMU __m128i cs_emu_mm512_castsi512_si128(cs_emu_m512i a)
{
    return a.x[0];
}

CS_EMU __m128i cs_emu_mm512_extracti32x4_epi32(cs_emu_m512i a, int imm)
{
    return a.x[imm & 3];
}

/* The block in all four places (vbroadcasti64x2 / vbroadcasti32x4). */
CS_EMU cs_emu_m512i cs_emu_mm512_broadcast_i64x2(__m128i a)
{
    cs_emu_m512i r;
    for (int k = 0; k < 4; k++)
        r.x[k] = a;
    return r;
}

CS_EMU cs_emu_m512i cs_emu_mm512_broadcast_i32x4(__m128i a)
{
    return cs_emu_mm512_broadcast_i64x2(a);
}

/* ---- 32-bit and 8-bit lanes (AVX-512F/BW) ---- */

/* Arguments from lane 0 up, as _mm512_setr_epi32. */
CS_EMU cs_emu_m512i cs_emu_mm512_setr_epi32(int e0, int e1, int e2, int e3, int e4, int e5,
                                           int e6, int e7, int e8, int e9, int e10, int e11,
                                           int e12, int e13, int e14, int e15)
{
    cs_emu_m512i r = {.d = {(uint32_t)e0, (uint32_t)e1, (uint32_t)e2, (uint32_t)e3,
                            (uint32_t)e4, (uint32_t)e5, (uint32_t)e6, (uint32_t)e7,
                            (uint32_t)e8, (uint32_t)e9, (uint32_t)e10, (uint32_t)e11,
                            (uint32_t)e12, (uint32_t)e13, (uint32_t)e14, (uint32_t)e15}};
    return r;
}

/* vpmovsxbd: 16 signed bytes to 16 dwords. */
CS_EMU cs_emu_m512i cs_emu_mm512_cvtepi8_epi32(__m128i a)
{
    cs_emu_u128 x = {.v = a};
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++)
        r.d[i] = (uint32_t)(int32_t)(int8_t)x.b[i];
    return r;
}

/* Unsigned a < b per dword, branch-free (borrow of a - b). */
CS_EMU __mmask16 cs_emu_mm512_cmplt_epu32_mask(cs_emu_m512i a, cs_emu_m512i b)
{
    unsigned m = 0;
    for (int i = 0; i < 16; i++)
        m |= (unsigned)(((uint64_t)a.d[i] - b.d[i]) >> 63) << i;
    return (__mmask16)m;
}

/* Unsigned a < b per byte (VL form), branch-free. */
CS_EMU __mmask16 cs_emu_mm_cmplt_epu8_mask(__m128i a, __m128i b)
{
    cs_emu_u128 x = {.v = a}, y = {.v = b};
    unsigned m = 0;
    for (int i = 0; i < 16; i++)
        m |= (((unsigned)x.b[i] - y.b[i]) >> 31) << i;
    return (__mmask16)m;
}

/* vpermd: dword i = a[idx_i mod 16], read under compare masks. */
CS_EMU cs_emu_m512i cs_emu_mm512_permutexvar_epi32(cs_emu_m512i idx, cs_emu_m512i a)
{
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++) {
        uint32_t v = 0;
        for (uint32_t j = 0; j < 16; j++)
            v |= a.d[j] & (uint32_t)cs_emu_eqmask(j, idx.d[i] & 15);
        r.d[i] = v;
    }
    return r;
}

/* vpshufb zmm: per 128-bit block, byte i = b_i bit 7 ? 0 : a[block][b_i mod 16],
 * read under compare masks. */
CS_EMU cs_emu_m512i cs_emu_mm512_shuffle_epi8(cs_emu_m512i a, cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int i = 0; i < 64; i++) {
        uint8_t v = 0;
        for (uint32_t j = 0; j < 16; j++)
            v |= a.b[(i & ~15) + j] & (uint8_t)cs_emu_eqmask(j, b.b[i] & 15);
        r.b[i] = v & (uint8_t)((b.b[i] >> 7) - 1);
    }
    return r;
}

/* vpcompressd, zeroing: the dwords whose mask bit is set, packed to the
 * bottom, the rest zero. Output slot j takes the input whose bit is set and
 * has j set bits below it, found by masks over all pairs (no index or branch
 * on the mask, which may be secret). */
CS_EMU cs_emu_m512i cs_emu_mm512_maskz_compress_epi32(__mmask16 k, cs_emu_m512i a)
{
    cs_emu_m512i r;
    uint32_t below[16];
    uint32_t c = 0;
    for (int i = 0; i < 16; i++) {
        below[i] = c;
        c += (k >> i) & 1;
    }
    for (uint32_t j = 0; j < 16; j++) {
        uint32_t v = 0;
        for (int i = 0; i < 16; i++) {
            uint32_t take = (uint32_t)cs_emu_eqmask(below[i], j) & (0 - (uint32_t)((k >> i) & 1));
            v |= a.d[i] & take;
        }
        r.d[j] = v;
    }
    return r;
}

/* Masked byte/dword loads and stores: masked-off lanes are not touched (may
 * lie beyond the buffer). Branch on the mask: a secret mask is reported. */
CS_EMU __m128i cs_emu_mm_maskz_loadu_epi8(__mmask16 k, const void *p)
{
    cs_emu_u128 r;
    for (int i = 0; i < 16; i++)
        r.b[i] = ((k >> i) & 1) ? ((const uint8_t *)p)[i] : 0;
    return r.v;
}

CS_EMU cs_emu_m512i cs_emu_mm512_maskz_loadu_epi8(__mmask64 k, const void *p)
{
    cs_emu_m512i r;
    for (int i = 0; i < 64; i++)
        r.b[i] = ((k >> i) & 1) ? ((const uint8_t *)p)[i] : 0;
    return r;
}

CS_EMU void cs_emu_mm512_mask_storeu_epi32(void *p, __mmask16 k, cs_emu_m512i a)
{
    for (int i = 0; i < 16; i++)
        if ((k >> i) & 1)
            __builtin_memcpy((char *)p + 4 * i, &a.d[i], 4);
}

/* ---- 32-bit lanes: the ML-DSA NTT and elementwise hooks ---- */

#define CS_EMU_LANEWISE32(NAME, EXPR)                                                 \
    CS_EMU cs_emu_m512i cs_emu_mm512_##NAME(cs_emu_m512i a, cs_emu_m512i b)            \
    {                                                                                 \
        for (int i = 0; i < 16; i++)                                                  \
            a.d[i] = (EXPR);                                                          \
        return a;                                                                     \
    }
CS_EMU_LANEWISE32(add_epi32, a.d[i] + b.d[i])
CS_EMU_LANEWISE32(sub_epi32, a.d[i] - b.d[i])
CS_EMU_LANEWISE32(mullo_epi32, a.d[i] * b.d[i])
#undef CS_EMU_LANEWISE32

/* vpmuldq: the signed low dwords of each qword multiplied to 64 bits. */
CS_EMU cs_emu_m512i cs_emu_mm512_mul_epi32(cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = (uint64_t)((int64_t)(int32_t)a.d[2 * i] * (int32_t)b.d[2 * i]);
    return a;
}

/* vpmulhuw / vpmullw: 16-bit lanes. */
CS_EMU cs_emu_m512i cs_emu_mm512_mulhi_epu16(cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 32; i++)
        a.w[i] = (uint16_t)(((uint32_t)a.w[i] * b.w[i]) >> 16);
    return a;
}

CS_EMU cs_emu_m512i cs_emu_mm512_mullo_epi16(cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 32; i++)
        a.w[i] = (uint16_t)((uint32_t)a.w[i] * b.w[i]);
    return a;
}

/* vpabsd, branch-free (|INT32_MIN| wraps to itself, as the instruction). */
CS_EMU cs_emu_m512i cs_emu_mm512_abs_epi32(cs_emu_m512i a)
{
    for (int i = 0; i < 16; i++) {
        uint32_t m = (uint32_t)((int32_t)a.d[i] >> 31);
        a.d[i] = (a.d[i] ^ m) - m;
    }
    return a;
}

/* vpshufd: per 128-bit block, dword i = block[imm bits 2i+1..2i]. */
CS_EMU cs_emu_m512i cs_emu_mm512_shuffle_epi32(cs_emu_m512i a, int imm)
{
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++)
        r.d[i] = a.d[(i & ~3) + ((imm >> (2 * (i & 3))) & 3)];
    return r;
}

/* Dword i = (k bit i) ? b : a, branch-free. */
CS_EMU cs_emu_m512i cs_emu_blend32(__mmask16 k, cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 16; i++) {
        uint32_t m = 0 - (uint32_t)((k >> i) & 1);
        a.d[i] = (a.d[i] & ~m) | (b.d[i] & m);
    }
    return a;
}

CS_EMU cs_emu_m512i cs_emu_mm512_mask_shuffle_epi32(cs_emu_m512i src, __mmask16 k,
                                                   cs_emu_m512i a, int imm)
{
    return cs_emu_blend32(k, src, cs_emu_mm512_shuffle_epi32(a, imm));
}

CS_EMU cs_emu_m512i cs_emu_mm512_maskz_mov_epi32(__mmask16 k, cs_emu_m512i a)
{
    return cs_emu_blend32(k, cs_emu_mm512_setzero_si512(), a);
}

CS_EMU cs_emu_m512i cs_emu_mm512_mask_add_epi32(cs_emu_m512i src, __mmask16 k, cs_emu_m512i a,
                                               cs_emu_m512i b)
{
    return cs_emu_blend32(k, src, cs_emu_mm512_add_epi32(a, b));
}

CS_EMU cs_emu_m512i cs_emu_mm512_mask_sub_epi32(cs_emu_m512i src, __mmask16 k, cs_emu_m512i a,
                                               cs_emu_m512i b)
{
    return cs_emu_blend32(k, src, cs_emu_mm512_sub_epi32(a, b));
}

/* Signed a > b and a == b per dword to a mask, branch-free (the sign of the
 * 64-bit difference; the all-ones-iff-equal mask). */
CS_EMU __mmask16 cs_emu_mm512_cmpgt_epi32_mask(cs_emu_m512i a, cs_emu_m512i b)
{
    unsigned m = 0;
    for (int i = 0; i < 16; i++)
        m |= (unsigned)(((uint64_t)((int64_t)(int32_t)b.d[i] - (int32_t)a.d[i])) >> 63) << i;
    return (__mmask16)m;
}

CS_EMU __mmask16 cs_emu_mm512_cmpeq_epi32_mask(cs_emu_m512i a, cs_emu_m512i b)
{
    unsigned m = 0;
    for (int i = 0; i < 16; i++)
        m |= (unsigned)(cs_emu_eqmask(a.d[i], b.d[i]) & 1) << i;
    return (__mmask16)m;
}

/* vpermt2d: dword i = (idx_i bit 4 ? b : a)[idx_i mod 16], read under
 * compare masks. */
CS_EMU cs_emu_m512i cs_emu_mm512_permutex2var_epi32(cs_emu_m512i a, cs_emu_m512i idx,
                                                   cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++) {
        uint32_t v = 0;
        for (uint32_t j = 0; j < 32; j++)
            v |= (j < 16 ? a.d[j] : b.d[j - 16]) & (uint32_t)cs_emu_eqmask(j, idx.d[i] & 31);
        r.d[i] = v;
    }
    return r;
}

/* vpsrlvd: each dword shifted right by its own count (>= 32 gives 0). */
CS_EMU cs_emu_m512i cs_emu_mm512_srlv_epi32(cs_emu_m512i a, cs_emu_m512i n)
{
    for (int i = 0; i < 16; i++) {
        uint32_t c = n.d[i];
        uint32_t keep = (uint32_t)(((uint64_t)c - 32) >> 63); /* 1 iff c < 32 */
        a.d[i] = (a.d[i] >> (c & 31)) & (0 - keep);
    }
    return a;
}

/* vpmovqb: the low byte of each qword, in the low 8 bytes. */
CS_EMU __m128i cs_emu_mm512_cvtepi64_epi8(cs_emu_m512i a)
{
    cs_emu_u128 r;
    for (int i = 0; i < 8; i++)
        r.b[i] = (uint8_t)a.q[i];
    r.q[1] = 0;
    return r.v;
}

/* ---- 16-bit lanes: the ML-KEM arithmetic (kernels/mlkem/x86_64, the avx512 files) ---- */

#define CS_EMU_LANEWISE16(NAME, EXPR)                                                 \
    CS_EMU cs_emu_m512i cs_emu_mm512_##NAME(cs_emu_m512i a, cs_emu_m512i b)            \
    {                                                                                 \
        for (int i = 0; i < 32; i++)                                                  \
            a.w[i] = (uint16_t)(EXPR);                                                \
        return a;                                                                     \
    }
CS_EMU_LANEWISE16(add_epi16, a.w[i] + b.w[i])
CS_EMU_LANEWISE16(sub_epi16, a.w[i] - b.w[i])
/* vpmulhw: the high half of the signed product. */
CS_EMU_LANEWISE16(mulhi_epi16, ((int32_t)(int16_t)a.w[i] * (int16_t)b.w[i]) >> 16)
/* vpmulhrsw: the signed product rounded to bits 15-30. */
CS_EMU_LANEWISE16(mulhrs_epi16, ((((int32_t)(int16_t)a.w[i] * (int16_t)b.w[i]) >> 14) + 1) >> 1)
/* vpsrlvw: each word shifted right by its own count (>= 16 gives 0). */
CS_EMU_LANEWISE16(srlv_epi16, (a.w[i] >> (b.w[i] & 15)) & (0 - (uint32_t)(b.w[i] < 16)))
#undef CS_EMU_LANEWISE16

/* Arguments from lane 0 up. */
CS_EMU cs_emu_m512i cs_emu_mm512_setr_epi64(long long e0, long long e1, long long e2,
                                            long long e3, long long e4, long long e5,
                                            long long e6, long long e7)
{
    return cs_emu_mm512_set_epi64(e7, e6, e5, e4, e3, e2, e1, e0);
}

/* The upper half is undefined for the instruction; zero here (zext). */
CS_EMU cs_emu_m512i cs_emu_mm512_castsi256_si512(__m256i a)
{
    return cs_emu_mm512_zextsi256_si512(a);
}

/* vpsllvd: each dword shifted left by its own count (>= 32 gives 0). */
CS_EMU cs_emu_m512i cs_emu_mm512_sllv_epi32(cs_emu_m512i a, cs_emu_m512i n)
{
    for (int i = 0; i < 16; i++) {
        uint32_t c = n.d[i];
        a.d[i] = (a.d[i] << (c & 31)) & (0 - (uint32_t)(c < 32));
    }
    return a;
}

/* vprold by a constant. */
CS_EMU cs_emu_m512i cs_emu_mm512_rol_epi32(cs_emu_m512i a, unsigned n)
{
    n &= 31;
    for (int i = 0; i < 16; i++)
        a.d[i] = (a.d[i] << n) | (a.d[i] >> ((32 - n) & 31));
    return a;
}

/* vpmaddwd: signed word pairs multiplied and summed into dwords. */
CS_EMU cs_emu_m512i cs_emu_mm512_madd_epi16(cs_emu_m512i a, cs_emu_m512i b)
{
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++)
        r.d[i] = (uint32_t)((int32_t)(int16_t)a.w[2 * i] * (int16_t)b.w[2 * i] +
                            (int32_t)(int16_t)a.w[2 * i + 1] * (int16_t)b.w[2 * i + 1]);
    return r;
}

/* vpblendmw: lane i from b where bit i of k is set, else from a; no branch. */
CS_EMU cs_emu_m512i cs_emu_mm512_mask_blend_epi16(__mmask32 k, cs_emu_m512i a, cs_emu_m512i b)
{
    for (int i = 0; i < 32; i++) {
        uint16_t m = (uint16_t)(0 - ((k >> i) & 1));
        a.w[i] = (uint16_t)((a.w[i] & ~m) | (b.w[i] & m));
    }
    return a;
}

/* vpmovw2m: the sign bit of each word. */
CS_EMU __mmask32 cs_emu_mm512_movepi16_mask(cs_emu_m512i a)
{
    uint32_t k = 0;
    for (int i = 0; i < 32; i++)
        k |= (uint32_t)(a.w[i] >> 15) << i;
    return (__mmask32)k;
}

/* vpmovzxwd / vpmovzxbd: zero-extended to dwords. */
CS_EMU cs_emu_m512i cs_emu_mm512_cvtepu16_epi32(__m256i a)
{
    uint16_t w[16];
    cs_emu_m512i r;
    __builtin_memcpy(w, &a, 32);
    for (int i = 0; i < 16; i++)
        r.d[i] = w[i];
    return r;
}

CS_EMU cs_emu_m512i cs_emu_mm512_cvtepu8_epi32(__m128i a)
{
    cs_emu_u128 x = {.v = a};
    cs_emu_m512i r;
    for (int i = 0; i < 16; i++)
        r.d[i] = x.b[i];
    return r;
}

/* vpmovdw / vpmovdb: each dword truncated to a word or a byte. */
CS_EMU __m256i cs_emu_mm512_cvtepi32_epi16(cs_emu_m512i a)
{
    uint16_t w[16];
    __m256i r;
    for (int i = 0; i < 16; i++)
        w[i] = (uint16_t)a.d[i];
    __builtin_memcpy(&r, w, 32);
    return r;
}

CS_EMU __m128i cs_emu_mm512_cvtepi32_epi8(cs_emu_m512i a)
{
    cs_emu_u128 r;
    for (int i = 0; i < 16; i++)
        r.b[i] = (uint8_t)a.d[i];
    return r.v;
}


#ifdef CS_CT_EMULATE_AVX512
/* Redirect the intrinsic names to the emulations (#undef first: some
 * compilers define intrinsics as macros). */
#undef __m512i
#define __m512i cs_emu_m512i
#undef __m512d
#define __m512d cs_emu_m512d
#undef _mm512_castsi512_pd
#define _mm512_castsi512_pd cs_emu_mm512_castsi512_pd
#undef _mm512_castpd_si512
#define _mm512_castpd_si512 cs_emu_mm512_castpd_si512
#undef _mm512_set1_pd
#define _mm512_set1_pd cs_emu_mm512_set1_pd
#undef _mm512_sub_pd
#define _mm512_sub_pd cs_emu_mm512_sub_pd
#undef _mm512_fmadd_pd
#define _mm512_fmadd_pd cs_emu_mm512_fmadd_pd
#undef _mm512_fnmadd_pd
#define _mm512_fnmadd_pd cs_emu_mm512_fnmadd_pd
#undef _mm512_xor_si512
#define _mm512_xor_si512 cs_emu_mm512_xor_si512
#undef _mm512_or_si512
#define _mm512_or_si512 cs_emu_mm512_or_si512
#undef _mm512_andnot_si512
#define _mm512_andnot_si512 cs_emu_mm512_andnot_si512
#undef _mm512_add_epi64
#define _mm512_add_epi64 cs_emu_mm512_add_epi64
#undef _mm512_sub_epi64
#define _mm512_sub_epi64 cs_emu_mm512_sub_epi64
#undef _mm256_alignr_epi64
#define _mm256_alignr_epi64 cs_emu_mm256_alignr_epi64
#undef _mm256_madd52hi_epu64
#define _mm256_madd52hi_epu64 cs_emu_mm256_madd52hi_epu64
#undef _mm256_madd52lo_epu64
#define _mm256_madd52lo_epu64 cs_emu_mm256_madd52lo_epu64
#undef _mm256_mask_blend_epi64
#define _mm256_mask_blend_epi64 cs_emu_mm256_mask_blend_epi64
#undef _mm256_rol_epi64
#define _mm256_rol_epi64 cs_emu_mm256_rol_epi64
#undef _mm256_ror_epi64
#define _mm256_ror_epi64 cs_emu_mm256_ror_epi64
#undef _mm256_srai_epi64
#define _mm256_srai_epi64 cs_emu_mm256_srai_epi64
#undef _mm256_ternarylogic_epi64
#define _mm256_ternarylogic_epi64 cs_emu_mm256_ternarylogic_epi64
#undef _mm512_alignr_epi64
#define _mm512_alignr_epi64 cs_emu_mm512_alignr_epi64
#undef _mm512_and_si512
#define _mm512_and_si512 cs_emu_mm512_and_si512
#undef _mm512_broadcast_i32x4
#define _mm512_broadcast_i32x4 cs_emu_mm512_broadcast_i32x4
#undef _mm512_broadcast_i64x2
#define _mm512_broadcast_i64x2 cs_emu_mm512_broadcast_i64x2
#undef _mm512_castsi512_si128
#define _mm512_castsi512_si128 cs_emu_mm512_castsi512_si128
#undef _mm512_castsi512_si256
#define _mm512_castsi512_si256 cs_emu_mm512_castsi512_si256
#undef _mm512_cmpeq_epi64_mask
#define _mm512_cmpeq_epi64_mask cs_emu_mm512_cmpeq_epi64_mask
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask cs_emu_mm512_cmplt_epu32_mask
#undef _mm512_cmplt_epu64_mask
#define _mm512_cmplt_epu64_mask cs_emu_mm512_cmplt_epu64_mask
#undef _mm512_cvtepi8_epi32
#define _mm512_cvtepi8_epi32 cs_emu_mm512_cvtepi8_epi32
#undef _mm512_extracti32x4_epi32
#define _mm512_extracti32x4_epi32 cs_emu_mm512_extracti32x4_epi32
#undef _mm512_extracti64x4_epi64
#define _mm512_extracti64x4_epi64 cs_emu_mm512_extracti64x4_epi64
#undef _mm512_inserti64x4
#define _mm512_inserti64x4 cs_emu_mm512_inserti64x4
#undef _mm512_load_si512
#define _mm512_load_si512 cs_emu_mm512_load_si512
#undef _mm512_loadu_si512
#define _mm512_loadu_si512 cs_emu_mm512_loadu_si512
#undef _mm512_madd52hi_epu64
#define _mm512_madd52hi_epu64 cs_emu_mm512_madd52hi_epu64
#undef _mm512_madd52lo_epu64
#define _mm512_madd52lo_epu64 cs_emu_mm512_madd52lo_epu64
#undef _mm512_mask_blend_epi64
#define _mm512_mask_blend_epi64 cs_emu_mm512_mask_blend_epi64
#undef _mm512_mask_mov_epi64
#define _mm512_mask_mov_epi64 cs_emu_mm512_mask_mov_epi64
#undef _mm512_mask_set1_epi64
#define _mm512_mask_set1_epi64 cs_emu_mm512_mask_set1_epi64
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32 cs_emu_mm512_mask_storeu_epi32
#undef _mm512_mask_storeu_epi64
#define _mm512_mask_storeu_epi64 cs_emu_mm512_mask_storeu_epi64
#undef _mm512_maskz_and_epi64
#define _mm512_maskz_and_epi64 cs_emu_mm512_maskz_and_epi64
#undef _mm512_maskz_compress_epi32
#define _mm512_maskz_compress_epi32 cs_emu_mm512_maskz_compress_epi32
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64 cs_emu_mm512_maskz_loadu_epi64
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8 cs_emu_mm512_maskz_loadu_epi8
#undef _mm512_maskz_mov_epi64
#define _mm512_maskz_mov_epi64 cs_emu_mm512_maskz_mov_epi64
#undef _mm512_movm_epi64
#define _mm512_movm_epi64 cs_emu_mm512_movm_epi64
#undef _mm512_permutex2var_epi64
#define _mm512_permutex2var_epi64 cs_emu_mm512_permutex2var_epi64
#undef _mm512_permutexvar_epi32
#define _mm512_permutexvar_epi32 cs_emu_mm512_permutexvar_epi32
#undef _mm512_permutexvar_epi64
#define _mm512_permutexvar_epi64 cs_emu_mm512_permutexvar_epi64
#undef _mm512_rol_epi64
#define _mm512_rol_epi64 cs_emu_mm512_rol_epi64
#undef _mm512_ror_epi64
#define _mm512_ror_epi64 cs_emu_mm512_ror_epi64
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 cs_emu_mm512_set1_epi32
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 cs_emu_mm512_set1_epi64
#undef _mm512_set_epi64
#define _mm512_set_epi64 cs_emu_mm512_set_epi64
#undef _mm512_setr_epi32
#define _mm512_setr_epi32 cs_emu_mm512_setr_epi32
#undef _mm512_setzero_si512
#define _mm512_setzero_si512 cs_emu_mm512_setzero_si512
#undef _mm512_shuffle_epi8
#define _mm512_shuffle_epi8 cs_emu_mm512_shuffle_epi8
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2 cs_emu_mm512_shuffle_i64x2
#undef _mm512_slli_epi64
#define _mm512_slli_epi64 cs_emu_mm512_slli_epi64
#undef _mm512_srai_epi64
#define _mm512_srai_epi64 cs_emu_mm512_srai_epi64
#undef _mm512_srli_epi64
#define _mm512_srli_epi64 cs_emu_mm512_srli_epi64
#undef _mm512_store_si512
#define _mm512_store_si512 cs_emu_mm512_store_si512
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 cs_emu_mm512_storeu_si512
#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64 cs_emu_mm512_ternarylogic_epi64
#undef _mm512_unpackhi_epi64
#define _mm512_unpackhi_epi64 cs_emu_mm512_unpackhi_epi64
#undef _mm512_unpacklo_epi64
#define _mm512_unpacklo_epi64 cs_emu_mm512_unpacklo_epi64
#undef _mm512_zextsi256_si512
#define _mm512_zextsi256_si512 cs_emu_mm512_zextsi256_si512
#undef _mm_cmplt_epu8_mask
#define _mm_cmplt_epu8_mask cs_emu_mm_cmplt_epu8_mask
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8 cs_emu_mm_maskz_loadu_epi8
#undef _mm512_add_epi32
#define _mm512_add_epi32 cs_emu_mm512_add_epi32
#undef _mm512_srlv_epi32
#define _mm512_srlv_epi32 cs_emu_mm512_srlv_epi32
#undef _mm512_cvtepi64_epi8
#define _mm512_cvtepi64_epi8 cs_emu_mm512_cvtepi64_epi8
#undef _mm512_permutex2var_epi32
#define _mm512_permutex2var_epi32 cs_emu_mm512_permutex2var_epi32
#undef _mm512_sub_epi32
#define _mm512_sub_epi32 cs_emu_mm512_sub_epi32
#undef _mm512_mullo_epi32
#define _mm512_mullo_epi32 cs_emu_mm512_mullo_epi32
#undef _mm512_mul_epi32
#define _mm512_mul_epi32 cs_emu_mm512_mul_epi32
#undef _mm512_mulhi_epu16
#define _mm512_mulhi_epu16 cs_emu_mm512_mulhi_epu16
#undef _mm512_mullo_epi16
#define _mm512_mullo_epi16 cs_emu_mm512_mullo_epi16
#undef _mm512_slli_epi32
#define _mm512_slli_epi32 cs_emu_mm512_slli_epi32
#undef _mm512_srli_epi32
#define _mm512_srli_epi32 cs_emu_mm512_srli_epi32
#undef _mm512_srai_epi32
#define _mm512_srai_epi32 cs_emu_mm512_srai_epi32
#undef _mm512_abs_epi32
#define _mm512_abs_epi32 cs_emu_mm512_abs_epi32
#undef _mm512_shuffle_epi32
#define _mm512_shuffle_epi32 cs_emu_mm512_shuffle_epi32
#undef _mm512_mask_shuffle_epi32
#define _mm512_mask_shuffle_epi32 cs_emu_mm512_mask_shuffle_epi32
#undef _mm512_maskz_mov_epi32
#define _mm512_maskz_mov_epi32 cs_emu_mm512_maskz_mov_epi32
#undef _mm512_mask_add_epi32
#define _mm512_mask_add_epi32 cs_emu_mm512_mask_add_epi32
#undef _mm512_mask_sub_epi32
#define _mm512_mask_sub_epi32 cs_emu_mm512_mask_sub_epi32
#undef _mm512_cmpgt_epi32_mask
#define _mm512_cmpgt_epi32_mask cs_emu_mm512_cmpgt_epi32_mask
#undef _mm512_cmpeq_epi32_mask
#define _mm512_cmpeq_epi32_mask cs_emu_mm512_cmpeq_epi32_mask
/* 16-bit lanes (ML-KEM) */
#undef _mm512_add_epi16
#define _mm512_add_epi16 cs_emu_mm512_add_epi16
#undef _mm512_sub_epi16
#define _mm512_sub_epi16 cs_emu_mm512_sub_epi16
#undef _mm512_mulhi_epi16
#define _mm512_mulhi_epi16 cs_emu_mm512_mulhi_epi16
#undef _mm512_mulhrs_epi16
#define _mm512_mulhrs_epi16 cs_emu_mm512_mulhrs_epi16
#undef _mm512_srlv_epi16
#define _mm512_srlv_epi16 cs_emu_mm512_srlv_epi16
#undef _mm512_set1_epi16
#define _mm512_set1_epi16 cs_emu_mm512_set1_epi16
#undef _mm512_setr_epi64
#define _mm512_setr_epi64 cs_emu_mm512_setr_epi64
#undef _mm512_castsi256_si512
#define _mm512_castsi256_si512 cs_emu_mm512_castsi256_si512
#undef _mm512_slli_epi16
#define _mm512_slli_epi16 cs_emu_mm512_slli_epi16
#undef _mm512_srai_epi16
#define _mm512_srai_epi16 cs_emu_mm512_srai_epi16
#undef _mm512_sllv_epi32
#define _mm512_sllv_epi32 cs_emu_mm512_sllv_epi32
#undef _mm512_rol_epi32
#define _mm512_rol_epi32 cs_emu_mm512_rol_epi32
#undef _mm512_madd_epi16
#define _mm512_madd_epi16 cs_emu_mm512_madd_epi16
#undef _mm512_mask_blend_epi16
#define _mm512_mask_blend_epi16 cs_emu_mm512_mask_blend_epi16
#undef _mm512_movepi16_mask
#define _mm512_movepi16_mask cs_emu_mm512_movepi16_mask
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32 cs_emu_mm512_cvtepu16_epi32
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32 cs_emu_mm512_cvtepu8_epi32
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16 cs_emu_mm512_cvtepi32_epi16
#undef _mm512_cvtepi32_epi8
#define _mm512_cvtepi32_epi8 cs_emu_mm512_cvtepi32_epi8
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32 cs_emu_mm512_maskz_loadu_epi32
#endif

#endif
