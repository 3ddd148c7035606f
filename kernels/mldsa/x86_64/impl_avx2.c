/* The AVX2 implementation table: the portable hooks with the hot ones
 * replaced (see avx2.h), and ExpandA, ExpandS and ExpandMask squeezing
 * four SHAKE streams at once on the 4-way Keccak. */
#include "avx2.h"
#include "avx512.h"
#include "../mldsa_portable.h"

/* The hooks both tables share: the sparse challenge product, shift and
 * Power2Round, and the packers but pack_w1 and unpack_z. */
#define SHARED_HOOKS \
    .ntt_challenge = 1, \
    .mul_challenge = cs_mldsa_mul_challenge_avx2, \
    .shiftl = cs_mldsa_shiftl_avx2, \
    .power2round = cs_mldsa_power2round_avx2, \
    .pack_t1 = cs_mldsa_pack_t1_avx2, \
    .unpack_t1 = cs_mldsa_unpack_t1_avx2, \
    .pack_t0 = cs_mldsa_pack_t0_avx2, \
    .unpack_t0 = cs_mldsa_unpack_t0_avx2, \
    .pack_eta = cs_mldsa_pack_eta_avx2, \
    .unpack_eta = cs_mldsa_unpack_eta_avx2, \
    .pack_z = cs_mldsa_pack_z_avx2, \
    .t_row_finish = cs_mldsa_t_row_finish_avx2,

const cs_mldsa_impl cs_mldsa_avx2 = {
    .name = "avx2",
    .cpu_features = CS_CPU_AVX2,
    .keccak = &cs_keccak_avx2,
    .expand_a = cs_mldsa_expand_a_avx2,
    .expand_a_side = cs_mldsa_expand_a_side_avx2,
    .expand_s = cs_mldsa_expand_s_avx2,
    .expand_mask = cs_mldsa_expand_mask_avx2,
    .mask_batch = 4,
    .rej_uniform = cs_mldsa_rej_uniform_avx2,
    .rej_eta = cs_mldsa_rej_eta_avx2,
    .ntt = cs_mldsa_ntt_avx2,
    .invntt_tomont = cs_mldsa_invntt_avx2,
    .ntt_order = cs_mldsa_nttorder_avx2,
    .pointwise_mont = cs_mldsa_pointwise_avx2,
    .pointwise_acc_mont = cs_mldsa_pointwise_acc_avx2,
    .reduce32 = cs_mldsa_reduce32_avx2,
    .caddq = cs_mldsa_caddq_avx2,
    .add = cs_mldsa_add_avx2,
    .sub = cs_mldsa_sub_avx2,
    .decompose = cs_mldsa_decompose_avx2,
    .make_hint = cs_mldsa_make_hint_avx2,
    .use_hint = cs_mldsa_use_hint_avx2,
    .chknorm = cs_mldsa_chknorm_avx2,
    .pack_w1 = cs_mldsa_pack_w1_avx2,
    .unpack_z = cs_mldsa_unpack_z_avx2,
    .pointwise_acc_reduce = cs_mldsa_pointwise_acc_reduce_avx2,
    .sum_chknorm = cs_mldsa_sum_chknorm_avx2,
    SHARED_HOOKS
};

/* AVX-512VL shortens the Keccak rounds (rotate and three-input logic
 * instructions), and ExpandA/S/Mask squeeze eight streams per 512-bit
 * permutation where a batch has more than four; the NTTs, products,
 * reductions, rounding and norm checks run sixteen lanes a register
 * (ntt_avx512.c, poly_avx512.c; their NTT order is their own, see
 * avx512.h); it uses AVX-512F, VL and BW (no IFMA), so it runs on
 * Skylake-SP and later. CRYPTOSHIM_CPU=-avx2 drops both tables. */
const cs_mldsa_impl cs_mldsa_avx512 = {
    .name = "avx512",
    .cpu_features = CS_CPU_AVX2 | CS_CPU_AVX512_FVLBW,
    .keccak = &cs_keccak_avx512,
    .expand_a = cs_mldsa_expand_a_avx512,
    .expand_a_side = cs_mldsa_expand_a_side_avx512,
    .expand_sa_side = cs_mldsa_expand_sa_side_avx512,
    .expand_s = cs_mldsa_expand_s_avx512,
    .expand_mask = cs_mldsa_expand_mask_avx512,
    .mask_batch = 8,
    .rej_uniform = cs_mldsa_rej_uniform_avx512,
    .rej_eta = cs_mldsa_rej_eta_avx512,
    .ntt = cs_mldsa_ntt_avx512,
    .invntt_tomont = cs_mldsa_invntt_avx512,
    .ntt_order = cs_mldsa_nttorder_avx512,
    .pointwise_mont = cs_mldsa_pointwise_avx512,
    .pointwise_acc_mont = cs_mldsa_pointwise_acc_avx512,
    .reduce32 = cs_mldsa_reduce32_avx512,
    .caddq = cs_mldsa_caddq_avx512,
    .add = cs_mldsa_add_avx512,
    .sub = cs_mldsa_sub_avx512,
    .decompose = cs_mldsa_decompose_avx512,
    .make_hint = cs_mldsa_make_hint_avx512,
    .use_hint = cs_mldsa_use_hint_avx512,
    .chknorm = cs_mldsa_chknorm_avx512,
    .pack_w1 = cs_mldsa_pack_w1_avx512,
    .unpack_z = cs_mldsa_unpack_z_avx512,
    .pointwise_acc_reduce = cs_mldsa_pointwise_acc_reduce_avx512,
    .sum_chknorm = cs_mldsa_sum_chknorm_avx512,
    SHARED_HOOKS
};
