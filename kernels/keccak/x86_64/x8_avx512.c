/* Eight Keccak-f[1600] permutations at once on 512-bit registers (lane i
 * of state j is s[8*i + j]): the AVX-512 4-way permutation widened. Zen 4
 * runs 512-bit operations as two 256-bit halves, yet this costs about 1205
 * cycles against 1447 for two 4-way calls (fewer instructions, fewer
 * spills). Used by ExpandA/ExpandS/ExpandMask of the "avx512" ML-DSA table
 * (kernels/mldsa/x86_64/expand_avx512.c). */
#include "../keccak_internal.h"
#include "avx512_ops.h"

#define KECCAK_SIMD_FN rounds_x8
#include "simd_rounds.h"

/* Eight permutations, interleaved (keccak.h). */
void cs_keccakf1600_x8_avx512(uint64_t s[200])
{
    rounds_x8(s);
}
