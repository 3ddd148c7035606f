/* The x86-64 Keccak tables. Both need AVX2 (whose CPUs all have BMI1, for
 * the scalar permutation); the AVX-512 one also AVX-512F and VL (its
 * permutations' compiler flags, mk/kernels_keccak.mk). */
#include "../keccak_internal.h"

const cs_keccak_impl cs_keccak_avx2 = {
    .name = "avx2",
    .cpu_features = CS_CPU_AVX2,
    .f1600 = cs_keccakf1600_bmi,
    .f1600_x2 = cs_keccakf1600_x2_vec,
    .f1600_x4 = cs_keccakf1600_x4_avx2,
    .f1600_x4x1 = cs_keccakf1600_x4x1_avx2,
};

const cs_keccak_impl cs_keccak_avx512 = {
    .name = "avx512",
    .cpu_features = CS_CPU_AVX2 | CS_CPU_AVX512F | CS_CPU_AVX512VL,
    .f1600 = cs_keccakf1600_bmi,
    .f1600_x2 = cs_keccakf1600_x2_vec,
    .f1600_x4 = cs_keccakf1600_x4_avx512,
    .f1600_x8 = cs_keccakf1600_x8_avx512,
    .f1600_x4x1 = cs_keccakf1600_x4x1_avx2,
    .f1600_x8x1 = cs_keccakf1600_x8x1_avx512,
};
