/* Four Keccak-f[1600] permutations with AVX2 (as x4_avx2.c) and a fifth on
 * 64-bit general registers, in one instruction stream: the first keeps the
 * vector units busy, the second the integer units, so together they cost
 * little more than the four alone. The "avx2" ML-DSA table's ExpandA uses
 * it to absorb keygen's tr = H(pk) (kernels/mldsa/x86_64/expand_avx2.c). */
#include "../keccak_internal.h"
#include "avx2_ops.h"

#define KECCAK_SIMD_X1_FN rounds_x4x1
#include "simd_x1_rounds.h"

/* Four interleaved permutations of s4 and one of s1. */
void cs_keccakf1600_x4x1_avx2(uint64_t s4[100], uint64_t s1[25])
{
    rounds_x4x1(s4, s1);
}
