/* Constant-time table read with AVX2 for the vector kernels: every entry is
 * loaded and combined under a lane mask built from a compare, so neither
 * branch nor address depends on the secret index. Built with AVX2 flags;
 * called only by kernels that need AVX2 anyway. */
#include <immintrin.h>

#include "xv.h"

/* See xv.h (cs_bn_select_fn, one lane); K is a multiple of 4 and the
 * table aligned. */
void xv_select_avx2(cs_limb *out, const cs_limb *tab, size_t entries, size_t K,
                    const unsigned *idx)
{
    const __m256i want = _mm256_set1_epi64x((long long)idx[0]);
    for (size_t i = 0; i < K; i += 8) {
        __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
        int two = i + 4 < K;
        for (size_t j = 0; j < entries; j++) {
            __m256i mask = _mm256_cmpeq_epi64(_mm256_set1_epi64x((long long)j), want);
            const __m256i *t = (const __m256i *)(tab + j * K + i);
            acc0 = _mm256_or_si256(acc0, _mm256_and_si256(_mm256_load_si256(t), mask));
            if (two) /* public: depends on K only */
                acc1 = _mm256_or_si256(acc1, _mm256_and_si256(_mm256_load_si256(t + 1), mask));
        }
        _mm256_store_si256((__m256i *)(out + i), acc0);
        if (two)
            _mm256_store_si256((__m256i *)(out + i + 4), acc1);
    }
}
