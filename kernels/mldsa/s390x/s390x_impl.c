/* The s390x ML-DSA implementation tables: the vector arithmetic with
 * software Keccak (the samplers' four streams in vector registers; needs
 * the vector facility), and the same with Keccak in CPACF (also needs the
 * SHAKE function codes). Everything not replaced is
 * the portable code. */
#include "../mldsa_portable.h"
#include "s390x_mldsa.h"

/* Fills t with the vector-facility table, Keccak left to the caller. */
#define S390X_VX_OPS                                                \
    .ntt = cs_mldsa_ntt_s390x_vx,                                  \
    .invntt_tomont = cs_mldsa_invntt_s390x_vx,                     \
    .pointwise_mont = cs_mldsa_pointwise_s390x_vx,                 \
    .pointwise_acc_mont = cs_mldsa_pointwise_acc_s390x_vx,         \
    .mul_challenge = cs_mldsa_mul_challenge_portable,              \
    .reduce32 = cs_mldsa_reduce32_s390x_vx,                        \
    .caddq = cs_mldsa_caddq_s390x_vx,                              \
    .add = cs_mldsa_add_s390x_vx,                                  \
    .sub = cs_mldsa_sub_s390x_vx,                                  \
    .shiftl = cs_mldsa_shiftl_portable,                            \
    .power2round = cs_mldsa_power2round_portable,                  \
    .decompose = cs_mldsa_decompose_portable,                      \
    .make_hint = cs_mldsa_make_hint_portable,                      \
    .use_hint = cs_mldsa_use_hint_portable,                        \
    .chknorm = cs_mldsa_chknorm_portable,                          \
    .rej_uniform = cs_mldsa_rej_uniform_portable,                  \
    .rej_eta = cs_mldsa_rej_eta_portable,                          \
    .expand_a = cs_mldsa_expand_a_generic,                         \
    .expand_s = cs_mldsa_expand_s_generic,                         \
    .expand_mask = cs_mldsa_expand_mask_generic,                   \
    .ntt_order = NULL,                                             \
    .pack_t1 = cs_mldsa_pack_t1_portable,                          \
    .unpack_t1 = cs_mldsa_unpack_t1_portable,                      \
    .pack_t0 = cs_mldsa_pack_t0_portable,                          \
    .unpack_t0 = cs_mldsa_unpack_t0_portable,                      \
    .pack_eta = cs_mldsa_pack_eta_portable,                        \
    .unpack_eta = cs_mldsa_unpack_eta_portable,                    \
    .pack_z = cs_mldsa_pack_z_portable,                            \
    .unpack_z = cs_mldsa_unpack_z_portable,                        \
    .pack_w1 = cs_mldsa_pack_w1_portable,                          \
    .ntt_challenge = 1

const cs_mldsa_impl cs_mldsa_s390x_vx = {
    .name = "s390x_vx",
    .cpu_features = CS_CPU_S390_VX,
    .keccak = &cs_keccak_s390x_vx,
    S390X_VX_OPS,
};

const cs_mldsa_impl cs_mldsa_s390x_vx_cpacf = {
    .name = "s390x_vx_cpacf",
    .cpu_features = CS_CPU_S390_VX | CS_CPU_S390_SHAKE,
    .keccak = &cs_keccak_s390x_cpacf,
    S390X_VX_OPS,
};
