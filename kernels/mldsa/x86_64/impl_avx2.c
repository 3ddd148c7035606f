/* The AVX2 implementation table: the portable hooks with the hot ones
 * replaced (see avx2.h), and ExpandA, ExpandS and ExpandMask squeezing
 * four SHAKE streams at once on the 4-way Keccak. */
#include "avx2.h"
#include "avx512.h"
#include "../mldsa_portable.h"

/* The hooks both tables share: the sparse challenge product, shift and
 * Power2Round, and the packers but pack_w1 and unpack_z. */
#define SHARED_HOOKS                                                                            \
    .ntt_challenge = 1, CS_MLDSA_PACK_HOOKS(avx2), .t_row_finish = cs_mldsa_t_row_finish_avx2

const cs_mldsa_impl cs_mldsa_avx2 = {
    CS_IMPL_ROW("avx2", CS_CPU_AVX2),
    .keccak = &cs_keccak_avx2,
    .expand_a = cs_mldsa_expand_a_avx2, .expand_a_side = cs_mldsa_expand_a_side_avx2,
    .expand_s = cs_mldsa_expand_s_avx2, .expand_mask = cs_mldsa_expand_mask_avx2,
    .mask_batch = 4,
    CS_MLDSA_REJ_HOOKS(avx2), CS_MLDSA_NTT_HOOKS(avx2), CS_MLDSA_FUSED_HOOKS(avx2),
    CS_MLDSA_ROUNDING_HOOKS(avx2), CS_MLDSA_ZW1_HOOKS(avx2),
    SHARED_HOOKS,
};

/* AVX-512VL shortens the Keccak rounds (rotate and three-input logic
 * instructions), and ExpandA/S/Mask squeeze eight streams per 512-bit
 * permutation where a batch has more than four; the NTTs, products,
 * reductions, rounding and norm checks run sixteen lanes a register
 * (ntt_avx512.c, poly_avx512.c; their NTT order is their own, see
 * avx512.h); it uses AVX-512F, VL and BW (no IFMA), so it runs on
 * Skylake-SP and later. CRYPTOSHIM_CPU=-avx2 drops both tables. */
const cs_mldsa_impl cs_mldsa_avx512 = {
    CS_IMPL_ROW("avx512", CS_CPU_AVX2 | CS_CPU_AVX512_FVLBW),
    .keccak = &cs_keccak_avx512,
    .expand_a = cs_mldsa_expand_a_avx512, .expand_a_side = cs_mldsa_expand_a_side_avx512,
    .expand_sa_side = cs_mldsa_expand_sa_side_avx512, .expand_s = cs_mldsa_expand_s_avx512,
    .expand_mask = cs_mldsa_expand_mask_avx512,
    .mask_batch = 8,
    CS_MLDSA_REJ_HOOKS(avx512), CS_MLDSA_NTT_HOOKS(avx512), CS_MLDSA_FUSED_HOOKS(avx512),
    CS_MLDSA_ROUNDING_HOOKS(avx512), CS_MLDSA_ZW1_HOOKS(avx512),
    SHARED_HOOKS,
};
