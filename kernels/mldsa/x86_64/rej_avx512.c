/* AVX-512 rejection samplers for the "avx512" table: sixteen candidates
 * per step, accepted lanes packed to the front inside a register
 * (vpcompressd register form; its memory form is slow on Zen 4) and
 * stored with one plain unaligned store. Where fewer than 16 slots or
 * bytes for 16 candidates remain, masks limit the last step, so the
 * outputs are the portable samplers' exactly.
 *
 * Only AVX-512F/BW/VL intrinsics (the bits the table requires): _mm512_permutexvar_epi32, _mm512_shuffle_epi8,
 * _mm512_and_si512, _mm512_cmplt_epu32_mask, _mm512_maskz_compress_epi32,
 * _mm512_storeu_si512, _mm512_mask_storeu_epi32, _mm512_maskz_loadu_epi8,
 * _mm_maskz_loadu_epi8, _mm512_cvtepi8_epi32, _mm_cmplt_epu8_mask. */
#include "avx2.h"

/* Stores the lanes of v selected by m at a, at most room of them, with a
 * plain masked (not compressing) store that writes nothing past them;
 * returns how many it stored. */
static inline unsigned store_accepted(int32_t *a, __m512i v, __mmask16 m, unsigned room)
{
    unsigned n = (unsigned)_mm_popcnt_u32(m);
    n = n < room ? n : room;
    _mm512_mask_storeu_epi32(a, (__mmask16)((1u << n) - 1), _mm512_maskz_compress_epi32(m, v));
    return n;
}

/* As cs_mldsa_rej_uniform_avx2 (public data: the accept mask decides the
 * store position). 48 bytes per step: dwords 3k..3k+3 go to 128-bit lane k
 * (vpermd), then a per-lane byte shuffle makes four 24-bit values; the
 * last steps load only what is left (masked load) and accept only its
 * whole groups. */
unsigned cs_mldsa_rej_uniform_avx512(int32_t *a, unsigned len, const uint8_t *buf,
                                     unsigned buflen)
{
    const __m512i spread = _mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12);
    const __m512i shuf = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1));
    const __m512i m23 = _mm512_set1_epi32(0x7FFFFF), q = _mm512_set1_epi32(AVX2_Q);
    unsigned ctr = 0, pos = 0;
    buflen -= buflen % 3;
    /* Main loop: plain loads and stores (a masked load with a computed
     * mask made the step half again as slow). */
    while (ctr + 16 <= len && pos + 64 <= buflen) {
        __m512i v = _mm512_loadu_si512((const void *)(buf + pos));
        v = _mm512_and_si512(_mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, v), shuf), m23);
        __mmask16 m = _mm512_cmplt_epu32_mask(v, q);
        _mm512_storeu_si512((void *)(a + ctr), _mm512_maskz_compress_epi32(m, v));
        ctr += (unsigned)_mm_popcnt_u32(m);
        pos += 48;
    }
    /* The last steps: only the bytes left, only the slots left. */
    while (ctr < len && pos < buflen) {
        unsigned nb = buflen - pos < 48 ? buflen - pos : 48;
        __m512i v = _mm512_maskz_loadu_epi8((__mmask64)((1ull << nb) - 1), buf + pos);
        v = _mm512_and_si512(_mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, v), shuf), m23);
        __mmask16 m = _mm512_cmplt_epu32_mask(v, q) & (__mmask16)((1u << (nb / 3)) - 1);
        ctr += store_accepted(a + ctr, v, m, len - ctr);
        pos += nb;
    }
    return ctr;
}

/* As cs_mldsa_rej_eta_avx2: up to eight bytes (sixteen nibbles, low then
 * high) per step. The nibbles are split and interleaved as bytes; a byte
 * shuffle on a 16-entry table maps each to eta - (b mod (2eta+1)) (a
 * register lookup, no memory index), sign-extended to 32 bits. The accept
 * mask is declassified before it decides the store position; the values
 * stay secret. */
unsigned cs_mldsa_rej_eta_avx512(int32_t *a, unsigned len, const uint8_t *buf, unsigned buflen,
                                 unsigned eta)
{
    const __m128i lut = eta == 2
        ? _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0)
        : _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
    const __m128i lim = _mm_set1_epi8(eta == 2 ? 15 : 9), f = _mm_set1_epi8(15);
    unsigned ctr = 0, pos = 0;
    while (ctr + 16 <= len && pos + 8 <= buflen) {
        __m128i x = _mm_loadl_epi64((const __m128i *)(buf + pos));
        __m128i lo = _mm_and_si128(x, f), hi = _mm_and_si128(_mm_srli_epi16(x, 4), f);
        __m128i b = _mm_unpacklo_epi8(lo, hi);
        __mmask16 mask = _mm_cmplt_epu8_mask(b, lim);
        CS_DECLASSIFY(&mask, sizeof mask);
        __m512i v = _mm512_cvtepi8_epi32(_mm_shuffle_epi8(lut, b));
        _mm512_storeu_si512((void *)(a + ctr), _mm512_maskz_compress_epi32(mask, v));
        ctr += (unsigned)_mm_popcnt_u32(mask);
        pos += 8;
    }
    while (ctr < len && pos < buflen) {
        unsigned nb = buflen - pos < 8 ? buflen - pos : 8;
        __m128i x = _mm_maskz_loadu_epi8((__mmask16)((1u << nb) - 1), buf + pos);
        __m128i lo = _mm_and_si128(x, f), hi = _mm_and_si128(_mm_srli_epi16(x, 4), f);
        __m128i b = _mm_unpacklo_epi8(lo, hi);
        __mmask16 mask = _mm_cmplt_epu8_mask(b, lim) & (__mmask16)((1u << (2 * nb)) - 1);
        CS_DECLASSIFY(&mask, sizeof mask);
        __m512i v = _mm512_cvtepi8_epi32(_mm_shuffle_epi8(lut, b));
        ctr += store_accepted(a + ctr, v, mask, len - ctr);
        pos += nb;
    }
    return ctr;
}
