/* The x86-64 ML-KEM tables: "avx2" (AVX2 arithmetic, 4-way and 4+1-way
 * Keccak) and "avx512" (the same arithmetic, 8-way and 8+1-way Keccak for
 * the matrix and the noise; it needs AVX-512F, VL and BW, no IFMA). */
#include "../../keccak/keccak_internal.h"
#include "mlkem_x86.h"

/* The arithmetic both tables share: they differ only in their Keccak and
 * the samplers built on it. */
#define AVX2_ARITHMETIC                                                                          \
    .ntt = cs_mlkem_ntt_avx2, .invntt = cs_mlkem_invntt_avx2,                                    \
    .basemul_acc = cs_mlkem_basemul_acc_avx2, .tobytes = cs_mlkem_tobytes_avx2,                  \
    .frombytes = cs_mlkem_frombytes_avx2, .compress = cs_mlkem_compress_avx2,                    \
    .decompress = cs_mlkem_decompress_avx2, .add_reduce = cs_mlkem_add_reduce_avx2,              \
    .sub_reduce = cs_mlkem_sub_reduce_avx2, .tomont_add = cs_mlkem_tomont_add_avx2

static const cs_mlkem_ops ops_avx2 = {
    .keccak = &cs_keccak_avx2,
    .gen_matrix = cs_mlkem_gen_matrix_avx2,
    .gen_matrix_hash = cs_mlkem_gen_matrix_hash_avx2,
    .gen_matrix_rows_hash = cs_mlkem_gen_matrix_rows_hash_avx2,
    .sample_noise = cs_mlkem_sample_noise_avx2,
    .g_noise_j = cs_mlkem_g_noise_j_avx2,
    AVX2_ARITHMETIC,
};

/* The avx512 table's arithmetic (ntt_avx512.c, poly_avx512.c). */
#define AVX512_ARITHMETIC                                                                        \
    .ntt = cs_mlkem_ntt_avx512, .invntt = cs_mlkem_invntt_avx512,                                \
    .basemul_acc = cs_mlkem_basemul_acc_avx512, .tobytes = cs_mlkem_tobytes_avx512,              \
    .frombytes = cs_mlkem_frombytes_avx512, .compress = cs_mlkem_compress_avx512,                \
    .decompress = cs_mlkem_decompress_avx512, .add_reduce = cs_mlkem_add_reduce_avx512,          \
    .sub_reduce = cs_mlkem_sub_reduce_avx512, .tomont_add = cs_mlkem_tomont_add_avx512

static const cs_mlkem_ops ops_avx512 = {
    .keccak = &cs_keccak_avx512,
    .gen_matrix = cs_mlkem_gen_matrix_avx512,
    .gen_matrix_hash = cs_mlkem_gen_matrix_hash_avx512,
    .gen_matrix_rows_hash = cs_mlkem_gen_matrix_rows_hash_avx512,
    .sample_noise = cs_mlkem_sample_noise_avx512,
    .g_noise_j = cs_mlkem_g_noise_j_avx512,
    AVX512_ARITHMETIC,
};

CS_MLKEM_IMPL(avx2, ops_avx2, CS_CPU_AVX2)
CS_MLKEM_IMPL(avx512, ops_avx512, CS_CPU_AVX2 | CS_CPU_AVX512_FVLBW)
