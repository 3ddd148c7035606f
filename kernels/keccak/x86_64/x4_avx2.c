/* Four Keccak-f[1600] permutations at once with AVX2: lane i of the four
 * states is one 256-bit register (the interleaved x4 layout of keccak.h,
 * s[4i + j] = lane i of state j). Rotations are shift-or pairs, except by
 * 8 and 56 (byte shuffles). */
#include "../keccak_internal.h"
#include "avx2_ops.h"

#define KECCAK_SIMD_FN rounds_x4
#include "simd_rounds.h"

/* Four permutations, interleaved (keccak.h). */
void cs_keccakf1600_x4_avx2(uint64_t s[100])
{
    rounds_x4(s);
}
