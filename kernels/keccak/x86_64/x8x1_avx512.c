/* Eight Keccak-f[1600] permutations on 512-bit registers (as
 * x8_avx512.c) and a ninth on 64-bit general registers, in one instruction
 * stream: on Zen 4 both together cost about 1222 cycles against 1208 for
 * the eight alone (1832 run one after the other). The "avx512" ML-DSA
 * table's ExpandA uses it to absorb keygen's tr = H(pk) for free
 * (kernels/mldsa/x86_64/expand_avx512.c). */
#include "../keccak_internal.h"
#include "avx512_ops.h"

#define KECCAK_SIMD_X1_FN rounds_x8x1
#include "simd_x1_rounds.h"

/* Eight interleaved permutations of s8 and one of s1. */
void cs_keccakf1600_x8x1_avx512(uint64_t s8[200], uint64_t s1[25])
{
    rounds_x8x1(s8, s1);
}
