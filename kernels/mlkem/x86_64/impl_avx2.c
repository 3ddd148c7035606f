/* The x86-64 ML-KEM tables: "avx2" (AVX2 arithmetic, 4-way and 4+1-way
 * Keccak) and "avx512" (the same arithmetic, 8-way and 8+1-way Keccak for
 * the matrix and the noise; it needs AVX-512F, VL and BW, no IFMA). */
#include "../../keccak/keccak_internal.h"
#include "mlkem_x86.h"

/* Each table: its Keccak, the samplers built on it, its arithmetic. */
static const cs_mlkem_ops ops_avx2 = {
    .keccak = &cs_keccak_avx2, CS_MLKEM_SAMPLER_OPS(avx2), CS_MLKEM_ARITH_OPS(avx2),
};

/* The avx512 table's arithmetic is ntt_avx512.c's and poly_avx512.c's. */
static const cs_mlkem_ops ops_avx512 = {
    .keccak = &cs_keccak_avx512, CS_MLKEM_SAMPLER_OPS(avx512), CS_MLKEM_ARITH_OPS(avx512),
};

CS_MLKEM_IMPL(avx2, ops_avx2, CS_CPU_AVX2)
CS_MLKEM_IMPL(avx512, ops_avx512, CS_CPU_AVX2 | CS_CPU_AVX512_FVLBW)
