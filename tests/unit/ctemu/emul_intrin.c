/* Every function of tests/unit/ctemu/avx512_emul.h against the instruction it
 * stands for, on random lanes (plus edge values) and, for immediates, every
 * value the instruction distinguishes. Built with AVX-512 flags
 * (mk/ctemu.mk); called by emul_diff.c only on a CPU with AVX-512 IFMA/VL. */
#include <string.h>

#include "avx512_emul.h"
#include "../support/tap.h"
#include "emul.h"

/* Random lanes, with some all-zero, all-one and 52-bit-edge lanes mixed in. */
static void rnd(uint64_t *q, int n)
{
    static const uint64_t edge[] = {0, ~0ull, CS_EMU_M52, 1ull << 52, 1ull << 63, 1};
    for (int i = 0; i < n; i++) {
        uint64_t r = tap_rng_u64();
        q[i] = (r & 7) == 0 ? edge[(r >> 3) % 6] : tap_rng_u64();
    }
}

static __m512i nat512(const cs_emu_m512i *a)
{
    return _mm512_loadu_si512(a->q);
}

static __m256i nat256(const uint64_t *q)
{
    return _mm256_loadu_si256((const __m256i *)q);
}

/* Whether native n and emulated e hold the same lanes. */
static int eq512(__m512i n, cs_emu_m512i e)
{
    uint64_t q[8];
    _mm512_storeu_si512(q, n);
    return memcmp(q, e.q, sizeof q) == 0;
}

static int eq128(__m128i n, __m128i e)
{
    return memcmp(&n, &e, sizeof n) == 0;
}

static int eq256(__m256i n, __m256i e)
{
    uint64_t a[4], b[4];
    _mm256_storeu_si256((__m256i *)a, n);
    _mm256_storeu_si256((__m256i *)b, e);
    return memcmp(a, b, sizeof a) == 0;
}

#define R4(M, b) M((b)) M((b) + 1) M((b) + 2) M((b) + 3)
#define R16(M, b) R4(M, b) R4(M, (b) + 4) R4(M, (b) + 8) R4(M, (b) + 12)
#define R64(M, b) R16(M, b) R16(M, (b) + 16) R16(M, (b) + 32) R16(M, (b) + 48)
#define R256(M) R64(M, 0) R64(M, 64) R64(M, 128) R64(M, 192)

/* vpternlogq, 256 and 512 bits, immediates BASE..BASE+63 on one set of
 * inputs (four functions: one would be too large for GCC's debug info). */
#define TERN(i)                                                                            \
    ok &= eq512(_mm512_ternarylogic_epi64(A, B, C, i),                                     \
                cs_emu_mm512_ternarylogic_epi64(a, b, c, i));                              \
    ok &= eq256(_mm256_ternarylogic_epi64(a4, b4, c4, i),                                  \
                cs_emu_mm256_ternarylogic_epi64(a4, b4, c4, i));
#define TERN_BLOCK(BASE)                                                                   \
    static __attribute__((noinline)) int tern_##BASE(                                      \
        const cs_emu_m512i *pa, const cs_emu_m512i *pb, const cs_emu_m512i *pc)            \
    {                                                                                      \
        cs_emu_m512i a = *pa, b = *pb, c = *pc;                                            \
        __m512i A = nat512(&a), B = nat512(&b), C = nat512(&c);                            \
        __m256i a4 = nat256(a.q), b4 = nat256(b.q), c4 = nat256(c.q);                      \
        int ok = 1;                                                                        \
        R64(TERN, BASE)                                                                    \
        return ok;                                                                         \
    }
TERN_BLOCK(0)
TERN_BLOCK(64)
TERN_BLOCK(128)
TERN_BLOCK(192)

/* All 256 immediates. */
static int tern_all(const cs_emu_m512i *a, const cs_emu_m512i *b, const cs_emu_m512i *c)
{
    return tern_0(a, b, c) & tern_64(a, b, c) & tern_128(a, b, c) & tern_192(a, b, c);
}

/* vshufi64x2, every immediate on one pair of inputs. */
static __attribute__((noinline)) int shuf_all(const cs_emu_m512i *pa, const cs_emu_m512i *pb)
{
    cs_emu_m512i a = *pa, b = *pb;
    __m512i A = nat512(&a), B = nat512(&b);
    int ok = 1;
#define SHUF(i) ok &= eq512(_mm512_shuffle_i64x2(A, B, i), cs_emu_mm512_shuffle_i64x2(a, b, i));
    R256(SHUF)
    return ok;
}

/* vpshufd, plain and merge-masked, every immediate on one pair of inputs. */
static __attribute__((noinline)) int dshuf_all(const cs_emu_m512i *pa, const cs_emu_m512i *pb,
                                                __mmask16 k)
{
    cs_emu_m512i a = *pa, b = *pb;
    __m512i A = nat512(&a), B = nat512(&b);
    int ok = 1;
#define DSHUF(i)                                                                           \
    ok &= eq512(_mm512_shuffle_epi32(A, (_MM_PERM_ENUM)(i)), cs_emu_mm512_shuffle_epi32(a, i)); \
    ok &= eq512(_mm512_mask_shuffle_epi32(B, k, A, (_MM_PERM_ENUM)(i)),                     \
                cs_emu_mm512_mask_shuffle_epi32(b, k, a, i));
    R256(DSHUF)
    return ok;
}

/* The ML-KEM 16-bit lane functions on iters random inputs (words mixed with 0, 1,
 * -1, 0x7FFF, 0x8000 and q-sized values), every shift count the instructions
 * distinguish, random masks and count vectors. */
static int word_lanes(unsigned iters)
{
    static const uint16_t edge[] = {0, 1, 0xFFFF, 0x7FFF, 0x8000, 3329, 0xF2FF, 1664};
    int ok = 1;
    for (unsigned it = 0; it < iters; it++) {
        cs_emu_m512i a, b, cnt, cnt32;
        rnd(a.q, 8), rnd(b.q, 8);
        for (int i = 0; i < 32; i++) {
            uint64_t r = tap_rng_u64();
            if ((r & 3) == 0)
                a.w[i] = edge[(r >> 2) & 7];
            if ((r & 12) == 0)
                b.w[i] = edge[(r >> 5) & 7];
            cnt.w[i] = (uint16_t)((r >> 8) % 20);
        }
        for (int i = 0; i < 16; i++)
            cnt32.d[i] = (uint32_t)(tap_rng_u64() % 41);
        __m512i A = nat512(&a), B = nat512(&b), CNT = nat512(&cnt), CNT32 = nat512(&cnt32);
        __mmask32 k = (__mmask32)tap_rng_u64();
        __m256i h = _mm512_castsi512_si256(A);
        __m128i x = _mm512_castsi512_si128(A);
        ok &= eq512(_mm512_add_epi16(A, B), cs_emu_mm512_add_epi16(a, b));
        ok &= eq512(_mm512_sub_epi16(A, B), cs_emu_mm512_sub_epi16(a, b));
        ok &= eq512(_mm512_mulhi_epi16(A, B), cs_emu_mm512_mulhi_epi16(a, b));
        ok &= eq512(_mm512_mulhrs_epi16(A, B), cs_emu_mm512_mulhrs_epi16(a, b));
        ok &= eq512(_mm512_srlv_epi16(A, CNT), cs_emu_mm512_srlv_epi16(a, cnt));
        ok &= eq512(_mm512_sllv_epi32(A, CNT32), cs_emu_mm512_sllv_epi32(a, cnt32));
        ok &= eq512(_mm512_madd_epi16(A, B), cs_emu_mm512_madd_epi16(a, b));
        ok &= eq512(_mm512_mask_blend_epi16(k, A, B), cs_emu_mm512_mask_blend_epi16(k, a, b));
        ok &= _mm512_movepi16_mask(A) == cs_emu_mm512_movepi16_mask(a);
        ok &= eq512(_mm512_cvtepu16_epi32(h), cs_emu_mm512_cvtepu16_epi32(h));
        ok &= eq512(_mm512_cvtepu8_epi32(x), cs_emu_mm512_cvtepu8_epi32(x));
        ok &= eq256(_mm512_cvtepi32_epi16(A), cs_emu_mm512_cvtepi32_epi16(a));
        ok &= eq128(_mm512_cvtepi32_epi8(A), cs_emu_mm512_cvtepi32_epi8(a));
        ok &= eq512(_mm512_set1_epi16((short)a.w[0]), cs_emu_mm512_set1_epi16((short)a.w[0]));
        ok &= eq512(_mm512_setr_epi64((long long)a.q[0], 1, 2, 3, 4, 5, 6, (long long)b.q[7]),
                    cs_emu_mm512_setr_epi64((long long)a.q[0], 1, 2, 3, 4, 5, 6,
                                            (long long)b.q[7]));
        {
            cs_emu_m512i lo = cs_emu_mm512_castsi256_si512(h); /* upper half: zero here */
            ok &= eq256(_mm512_castsi512_si256(_mm512_castsi256_si512(h)),
                        cs_emu_mm512_castsi512_si256(lo));
        }
        {
            uint8_t buf[64];
            memcpy(buf, b.b, 64);
            __mmask16 k16 = (__mmask16)k;
            ok &= eq512(_mm512_maskz_loadu_epi32(k16, buf), cs_emu_mm512_maskz_loadu_epi32(k16, buf));
        }
#define WSH(i)                                                                             \
    ok &= eq512(_mm512_slli_epi16(A, i), cs_emu_mm512_slli_epi16(a, i));                   \
    ok &= eq512(_mm512_srai_epi16(A, i), cs_emu_mm512_srai_epi16(a, i));                   \
    ok &= eq512(_mm512_rol_epi32(A, i), cs_emu_mm512_rol_epi32(a, i));
        if (it < 4) {
            R16(WSH, 0)
            R16(WSH, 16)
            WSH(32) WSH(100)
        }
#undef WSH
    }
    return ok;
}

/* A random finite double: sign, exponent within 2^-200..2^200, mantissa;
 * or (kind 1) a 52-bit digit, or (kind 2) one of the FMA kernel's
 * constants, exactly as fma512_core.h uses them. */
static double rnd_double(int kind)
{
    static const double consts[] = {0x1p104, 0x1p104 - 0x1.8p52, 0x1p52, 0x1.8p52, 0.0, 1.0};
    uint64_t r = tap_rng_u64();
    if (kind == 1)
        return (double)(r & CS_EMU_M52);
    if (kind == 2)
        return consts[r % 6];
    uint64_t bits = (r & 0x800fffffffffffffull) | ((uint64_t)(823 + (r >> 20) % 400) << 52);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* The double lanes (fma512): casts, set1, sub, vfmadd, vfnmadd, bit for
 * bit, on random finite doubles, on digits against the kernel's constants
 * (products split at 2^52, round-to-nearest ties included), and on the
 * kernel's own sequence (f5_prod) over random digit pairs. */
static int double_lanes(unsigned iters)
{
    int ok = 1;
    for (unsigned it = 0; it < iters; it++) {
        cs_emu_m512d a, b, c;
        for (int i = 0; i < 8; i++) {
            int kind = (it + (unsigned)i) % 3;
            a.f[i] = rnd_double(kind);
            b.f[i] = rnd_double(kind);
            c.f[i] = rnd_double(kind == 1 ? 2 : kind);
        }
        if (it % 5 == 0) /* ties: x*y = 2^51 mod 2^52 */
            a.f[it % 8] = 0x1p51, b.f[it % 8] = (double)(2 * (tap_rng_u64() & 0xfffff) + 1);
        __m512d A = _mm512_loadu_pd(a.f), B = _mm512_loadu_pd(b.f), C = _mm512_loadu_pd(c.f);
        cs_emu_m512i ai;
        memcpy(ai.q, a.q, sizeof ai.q);
        ok &= eq512(_mm512_castpd_si512(A), cs_emu_mm512_castpd_si512(a));
        ok &= eq512(_mm512_castpd_si512(_mm512_castsi512_pd(nat512(&ai))),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_castsi512_pd(ai)));
        ok &= eq512(_mm512_castpd_si512(_mm512_set1_pd(a.f[1])),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_set1_pd(a.f[1])));
        ok &= eq512(_mm512_castpd_si512(_mm512_sub_pd(A, C)),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_sub_pd(a, c)));
        ok &= eq512(_mm512_castpd_si512(_mm512_fmadd_pd(A, B, C)),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_fmadd_pd(a, b, c)));
        ok &= eq512(_mm512_castpd_si512(_mm512_fnmadd_pd(A, B, C)),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_fnmadd_pd(a, b, c)));
        /* The kernel's split: high part, then the exact low part. */
        const __m512d CH = _mm512_set1_pd(0x1p104), CHL = _mm512_set1_pd(0x1p104 - 0x1.8p52);
        const cs_emu_m512d ch = cs_emu_mm512_set1_pd(0x1p104),
                           chl = cs_emu_mm512_set1_pd(0x1p104 - 0x1.8p52);
        for (int i = 0; i < 8; i++)
            a.f[i] = rnd_double(1), b.f[i] = rnd_double(1);
        A = _mm512_loadu_pd(a.f), B = _mm512_loadu_pd(b.f);
        __m512d H = _mm512_fmadd_pd(A, B, CH);
        cs_emu_m512d h = cs_emu_mm512_fmadd_pd(a, b, ch);
        ok &= eq512(_mm512_castpd_si512(H), cs_emu_mm512_castpd_si512(h));
        ok &= eq512(_mm512_castpd_si512(_mm512_fnmadd_pd(A, B, _mm512_sub_pd(H, CHL))),
                    cs_emu_mm512_castpd_si512(cs_emu_mm512_fnmadd_pd(a, b, cs_emu_mm512_sub_pd(h, chl))));
    }
    return ok;
}

void ctemu_check_intrinsics(unsigned iters)
{
    int ifma = 1, tern = 1, rot = 1, shift = 1, lanes = 1, logic = 1, mask = 1, halves = 1;
    int masked = 1, blocks = 1, narrow = 1, dword = 1;
    for (unsigned it = 0; it < iters; it++) {
        cs_emu_m512i a, b, c, ix;
        rnd(a.q, 8), rnd(b.q, 8), rnd(c.q, 8), rnd(ix.q, 8);
        __m512i A = nat512(&a), B = nat512(&b), C = nat512(&c), IX = nat512(&ix);
        __m256i a4 = nat256(a.q), b4 = nat256(b.q), c4 = nat256(c.q);
        __mmask8 k = (__mmask8)tap_rng_u64();

        ifma &= eq512(_mm512_madd52lo_epu64(A, B, C), cs_emu_mm512_madd52lo_epu64(a, b, c));
        ifma &= eq512(_mm512_madd52hi_epu64(A, B, C), cs_emu_mm512_madd52hi_epu64(a, b, c));
        ifma &= eq256(_mm256_madd52lo_epu64(a4, b4, c4), cs_emu_mm256_madd52lo_epu64(a4, b4, c4));
        ifma &= eq256(_mm256_madd52hi_epu64(a4, b4, c4), cs_emu_mm256_madd52hi_epu64(a4, b4, c4));

        if (it < 64)
            tern &= tern_all(&a, &b, &c);
#define ROT(i)                                                                             \
    rot &= eq512(_mm512_rol_epi64(A, i), cs_emu_mm512_rol_epi64(a, i));                    \
    rot &= eq512(_mm512_ror_epi64(A, i), cs_emu_mm512_ror_epi64(a, i));                    \
    rot &= eq256(_mm256_rol_epi64(a4, i), cs_emu_mm256_rol_epi64(a4, i));                  \
    rot &= eq256(_mm256_ror_epi64(a4, i), cs_emu_mm256_ror_epi64(a4, i));                  \
    shift &= eq512(_mm512_slli_epi64(A, i), cs_emu_mm512_slli_epi64(a, i));                \
    shift &= eq512(_mm512_srli_epi64(A, i), cs_emu_mm512_srli_epi64(a, i));                \
    shift &= eq512(_mm512_srai_epi64(A, i), cs_emu_mm512_srai_epi64(a, i));                \
    shift &= eq256(_mm256_srai_epi64(a4, i), cs_emu_mm256_srai_epi64(a4, i));
        if (it < 64) {
            R64(ROT, 0)
            ROT(64) ROT(65) ROT(100) ROT(255)
        }
#define ALIGN(i)                                                                           \
    lanes &= eq512(_mm512_alignr_epi64(A, B, i), cs_emu_mm512_alignr_epi64(a, b, i));      \
    lanes &= eq256(_mm256_alignr_epi64(a4, b4, i), cs_emu_mm256_alignr_epi64(a4, b4, i));
        R16(ALIGN, 0)
        if (it < 16)
            lanes &= shuf_all(&a, &b);
        lanes &= eq512(_mm512_unpacklo_epi64(A, B), cs_emu_mm512_unpacklo_epi64(a, b));
        lanes &= eq512(_mm512_unpackhi_epi64(A, B), cs_emu_mm512_unpackhi_epi64(a, b));
        lanes &= eq512(_mm512_permutexvar_epi64(IX, A), cs_emu_mm512_permutexvar_epi64(ix, a));
        lanes &= eq512(_mm512_permutex2var_epi64(A, IX, B),
                       cs_emu_mm512_permutex2var_epi64(a, ix, b));

        logic &= eq512(_mm512_xor_si512(A, B), cs_emu_mm512_xor_si512(a, b));
        logic &= eq512(_mm512_and_si512(A, B), cs_emu_mm512_and_si512(a, b));
        logic &= eq512(_mm512_or_si512(A, B), cs_emu_mm512_or_si512(a, b));
        logic &= eq512(_mm512_andnot_si512(A, B), cs_emu_mm512_andnot_si512(a, b));
        logic &= eq512(_mm512_add_epi64(A, B), cs_emu_mm512_add_epi64(a, b));
        logic &= eq512(_mm512_sub_epi64(A, B), cs_emu_mm512_sub_epi64(a, b));
        logic &= eq512(_mm512_setzero_si512(), cs_emu_mm512_setzero_si512());
        logic &= eq512(_mm512_set1_epi64((long long)a.q[3]),
                       cs_emu_mm512_set1_epi64((long long)a.q[3]));
        logic &= eq512(_mm512_set_epi64((long long)a.q[7], (long long)a.q[6], (long long)a.q[5],
                                        (long long)a.q[4], (long long)a.q[3], (long long)a.q[2],
                                        (long long)a.q[1], (long long)a.q[0]),
                       cs_emu_mm512_set_epi64((long long)a.q[7], (long long)a.q[6],
                                              (long long)a.q[5], (long long)a.q[4],
                                              (long long)a.q[3], (long long)a.q[2],
                                              (long long)a.q[1], (long long)a.q[0]));
        logic &= eq512(_mm512_loadu_si512(b.q), cs_emu_mm512_loadu_si512(b.q));
        {
            uint64_t s1[9], s2[9];
            _mm512_storeu_si512(s1 + 1, A);
            cs_emu_mm512_storeu_si512(s2 + 1, a);
            logic &= memcmp(s1 + 1, s2 + 1, 64) == 0;
        }

        cs_emu_m512i eqb = b;
        eqb.q[k & 7] = a.q[k & 7]; /* at least one equal lane */
        __m512i EQB = nat512(&eqb);
        mask &= _mm512_cmpeq_epi64_mask(A, EQB) == cs_emu_mm512_cmpeq_epi64_mask(a, eqb);
        mask &= _mm512_cmplt_epu64_mask(A, B) == cs_emu_mm512_cmplt_epu64_mask(a, b);
        mask &= _mm512_cmplt_epu64_mask(A, EQB) == cs_emu_mm512_cmplt_epu64_mask(a, eqb);
        mask &= eq512(_mm512_mask_blend_epi64(k, A, B), cs_emu_mm512_mask_blend_epi64(k, a, b));
        mask &= eq256(_mm256_mask_blend_epi64(k, a4, b4), cs_emu_mm256_mask_blend_epi64(k, a4, b4));
        {
            uint64_t s1[8], s2[8];
            memcpy(s1, c.q, 64);
            memcpy(s2, c.q, 64);
            _mm512_mask_storeu_epi64(s1, k, A);
            cs_emu_mm512_mask_storeu_epi64(s2, k, a);
            mask &= memcmp(s1, s2, 64) == 0;
            mask &= eq512(_mm512_maskz_loadu_epi64(k, b.q), cs_emu_mm512_maskz_loadu_epi64(k, b.q));
        }

        halves &= eq256(_mm512_castsi512_si256(A), cs_emu_mm512_castsi512_si256(a));
        halves &= eq256(_mm512_extracti64x4_epi64(A, 0), cs_emu_mm512_extracti64x4_epi64(a, 0));
        halves &= eq256(_mm512_extracti64x4_epi64(A, 1), cs_emu_mm512_extracti64x4_epi64(a, 1));
        halves &= eq512(_mm512_inserti64x4(A, b4, 0), cs_emu_mm512_inserti64x4(a, b4, 0));
        halves &= eq512(_mm512_inserti64x4(A, b4, 1), cs_emu_mm512_inserti64x4(a, b4, 1));
        halves &= eq512(_mm512_zextsi256_si512(b4), cs_emu_mm512_zextsi256_si512(b4));

        masked &= eq512(_mm512_mask_mov_epi64(A, k, B), cs_emu_mm512_mask_mov_epi64(a, k, b));
        masked &= eq512(_mm512_maskz_mov_epi64(k, B), cs_emu_mm512_maskz_mov_epi64(k, b));
        masked &= eq512(_mm512_maskz_and_epi64(k, A, B), cs_emu_mm512_maskz_and_epi64(k, a, b));
        masked &= eq512(_mm512_mask_set1_epi64(A, k, (long long)c.q[0]),
                        cs_emu_mm512_mask_set1_epi64(a, k, (long long)c.q[0]));
        masked &= eq512(_mm512_movm_epi64(k), cs_emu_mm512_movm_epi64(k));
        {
            uint64_t al[8] __attribute__((aligned(64)));
            memcpy(al, c.q, 64);
            masked &= eq512(_mm512_load_si512(al), cs_emu_mm512_load_si512(al));
            cs_emu_mm512_store_si512(al, a);
            masked &= eq512(A, cs_emu_mm512_loadu_si512(al));
        }

        __m128i c2 = _mm_loadu_si128((const __m128i *)c.q);
        blocks &= eq128(_mm512_castsi512_si128(A), cs_emu_mm512_castsi512_si128(a));
#define EXT(i) \
    blocks &= eq128(_mm512_extracti32x4_epi32(A, i), cs_emu_mm512_extracti32x4_epi32(a, i));
        R4(EXT, 0)
        blocks &= eq512(_mm512_broadcast_i64x2(c2), cs_emu_mm512_broadcast_i64x2(c2));
        blocks &= eq512(_mm512_broadcast_i32x4(c2), cs_emu_mm512_broadcast_i32x4(c2));

        cs_emu_m512i i32 = ix;
        i32.d[k & 15] = a.d[k & 15]; /* an equal dword for the compare */
        __m512i I32 = nat512(&i32);
        __mmask16 k16 = (__mmask16)tap_rng_u64();
        if (it % 7 == 0)
            k16 = it % 2 ? 0xFFFF : 0;
        narrow &= eq512(_mm512_set1_epi32((int)a.d[1]), cs_emu_mm512_set1_epi32((int)a.d[1]));
        narrow &= eq512(
            _mm512_setr_epi32((int)a.d[0], (int)a.d[1], (int)a.d[2], (int)a.d[3], (int)a.d[4],
                              (int)a.d[5], (int)a.d[6], (int)a.d[7], (int)a.d[8], (int)a.d[9],
                              (int)a.d[10], (int)a.d[11], (int)a.d[12], (int)a.d[13],
                              (int)a.d[14], (int)a.d[15]),
            cs_emu_mm512_setr_epi32((int)a.d[0], (int)a.d[1], (int)a.d[2], (int)a.d[3],
                                    (int)a.d[4], (int)a.d[5], (int)a.d[6], (int)a.d[7],
                                    (int)a.d[8], (int)a.d[9], (int)a.d[10], (int)a.d[11],
                                    (int)a.d[12], (int)a.d[13], (int)a.d[14], (int)a.d[15]));
        narrow &= eq512(_mm512_cvtepi8_epi32(c2), cs_emu_mm512_cvtepi8_epi32(c2));
        narrow &= _mm512_cmplt_epu32_mask(A, I32) == cs_emu_mm512_cmplt_epu32_mask(a, i32);
        narrow &= _mm_cmplt_epu8_mask(c2, _mm512_castsi512_si128(A)) ==
                  cs_emu_mm_cmplt_epu8_mask(c2, _mm512_castsi512_si128(A));
        narrow &= eq512(_mm512_permutexvar_epi32(IX, A), cs_emu_mm512_permutexvar_epi32(ix, a));
        narrow &= eq512(_mm512_shuffle_epi8(A, IX), cs_emu_mm512_shuffle_epi8(a, ix));
        narrow &= eq512(_mm512_maskz_compress_epi32(k16, A),
                        cs_emu_mm512_maskz_compress_epi32(k16, a));
        narrow &= eq128(_mm_maskz_loadu_epi8(k16, b.q), cs_emu_mm_maskz_loadu_epi8(k16, b.q));
        {
            __mmask64 k64 = tap_rng_u64();
            narrow &= eq512(_mm512_maskz_loadu_epi8(k64, b.q), cs_emu_mm512_maskz_loadu_epi8(k64, b.q));
            uint64_t s1[8], s2[8];
            memcpy(s1, c.q, 64);
            memcpy(s2, c.q, 64);
            _mm512_mask_storeu_epi32(s1, k16, A);
            cs_emu_mm512_mask_storeu_epi32(s2, k16, a);
            narrow &= memcmp(s1, s2, 64) == 0;
        }

        /* the ML-DSA hooks' dword arithmetic: every shift count the
         * instructions distinguish, all 256 vpshufd immediates once */
        dword &= eq512(_mm512_add_epi32(A, B), cs_emu_mm512_add_epi32(a, b));
        dword &= eq512(_mm512_sub_epi32(A, B), cs_emu_mm512_sub_epi32(a, b));
        dword &= eq512(_mm512_mullo_epi32(A, B), cs_emu_mm512_mullo_epi32(a, b));
        dword &= eq512(_mm512_mul_epi32(A, B), cs_emu_mm512_mul_epi32(a, b));
        dword &= eq512(_mm512_mulhi_epu16(A, B), cs_emu_mm512_mulhi_epu16(a, b));
        dword &= eq512(_mm512_mullo_epi16(A, B), cs_emu_mm512_mullo_epi16(a, b));
        dword &= eq512(_mm512_abs_epi32(A), cs_emu_mm512_abs_epi32(a));
        dword &= eq128(_mm512_cvtepi64_epi8(A), cs_emu_mm512_cvtepi64_epi8(a));
        {
            cs_emu_m512i cnt = ix; /* counts 0..40: in range and past it */
            for (int j = 0; j < 16; j++)
                cnt.d[j] %= 41;
            dword &= eq512(_mm512_srlv_epi32(A, nat512(&cnt)), cs_emu_mm512_srlv_epi32(a, cnt));
        }
        dword &= eq512(_mm512_permutex2var_epi32(A, IX, B),
                       cs_emu_mm512_permutex2var_epi32(a, ix, b));
#define DSH(i)                                                                             \
    dword &= eq512(_mm512_slli_epi32(A, i), cs_emu_mm512_slli_epi32(a, i));                \
    dword &= eq512(_mm512_srli_epi32(A, i), cs_emu_mm512_srli_epi32(a, i));                \
    dword &= eq512(_mm512_srai_epi32(A, i), cs_emu_mm512_srai_epi32(a, i));
        if (it < 8) {
            R16(DSH, 0)
            R16(DSH, 16)
            DSH(32) DSH(33) DSH(100)
        }
        if (it == 0)
            dword &= dshuf_all(&a, &b, k16);
        dword &= eq512(_mm512_maskz_mov_epi32(k16, A), cs_emu_mm512_maskz_mov_epi32(k16, a));
        dword &= eq512(_mm512_mask_add_epi32(C, k16, A, B),
                       cs_emu_mm512_mask_add_epi32(c, k16, a, b));
        dword &= eq512(_mm512_mask_sub_epi32(C, k16, A, B),
                       cs_emu_mm512_mask_sub_epi32(c, k16, a, b));
        dword &= _mm512_cmpgt_epi32_mask(A, B) == cs_emu_mm512_cmpgt_epi32_mask(a, b);
        dword &= _mm512_cmpgt_epi32_mask(A, I32) == cs_emu_mm512_cmpgt_epi32_mask(a, i32);
        dword &= _mm512_cmpeq_epi32_mask(A, I32) == cs_emu_mm512_cmpeq_epi32_mask(a, i32);
    }
    tap_ok(ifma, "emulated vpmadd52luq/huq (256, 512) match the instructions");
    tap_ok(word_lanes(iters), "emulated word lanes (ML-KEM): add/sub, vpmulhw, vpmulhrsw, "
                              "vpsrlvw, vpsllvd, vpmaddwd, vpblendmw, vpmovw2m, widening and "
                              "narrowing moves, word shifts and vprold (all counts), "
                              "masked dword load");
    tap_ok(tern, "emulated vpternlogq (256, 512), all 256 immediates");
    tap_ok(rot, "emulated vprolq/vprorq (256, 512), counts 0..65, 100, 255");
    tap_ok(shift, "emulated vpsllq/vpsrlq/vpsraq immediates (256, 512)");
    tap_ok(lanes, "emulated valignq, vshufi64x2 (all immediates), unpck, vpermq, vpermt2q");
    tap_ok(logic, "emulated 512-bit logic, add/sub, set, load/store");
    tap_ok(mask, "emulated compares to masks, blends, masked store and load");
    tap_ok(halves, "emulated 256-bit halves: cast, extract, insert, zext");
    tap_ok(masked, "emulated masked moves, and, set1, vpmovm2q, aligned load/store");
    tap_ok(blocks, "emulated 128-bit blocks: cast, extract, broadcast");
    tap_ok(narrow, "emulated dword/byte lanes: set, vpmovsxbd, compares, vpermd, vpshufb, "
                   "vpcompressd, masked byte loads, masked dword store");
    tap_ok(dword, "emulated dword arithmetic: add/sub, vpmuldq, vpmulld, vpmulhuw/vpmullw, "
                  "shifts, vpabsd, vpermt2d, vpmovqb, vpsrlvd, vpshufd (all immediates, masked), masked moves, "
                  "compares");
    tap_ok(double_lanes(iters), "emulated double lanes (fma512): casts, set1, sub, vfmadd, "
                                "vfnmadd, and the kernel's product split on 52-bit digits");
}
