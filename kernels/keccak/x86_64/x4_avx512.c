/* Four Keccak-f[1600] permutations at once on 256-bit registers with the
 * AVX-512VL forms: one-instruction 64-bit rotations (vprolq) and
 * three-input logic (vpternlogq) for theta's five-way XOR and chi, about
 * half the instructions of the AVX2 version. Same layout and contract as
 * cs_keccakf1600_x4_avx2; in the "avx512" table only, on CPUs with
 * AVX-512F/VL and ZMM state enabled. */
#define KECCAK_AVX512_256
#include "../keccak_internal.h"
#include "avx512_ops.h"

#define KECCAK_SIMD_FN rounds_x4
#include "simd_rounds.h"

/* Four permutations, interleaved (keccak.h). */
void cs_keccakf1600_x4_avx512(uint64_t s[100])
{
    rounds_x4(s);
}
