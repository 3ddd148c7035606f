/* The s390x ML-DSA implementation tables: the vector arithmetic with
 * software Keccak (the samplers' four streams in vector registers; needs
 * the vector facility), and the same with Keccak in CPACF (also needs the
 * SHAKE function codes). Everything not replaced is
 * the portable code. */
#include "../mldsa_portable.h"
#include "s390x_mldsa.h"

/* Fills t with the vector-facility table, Keccak left to the caller. */
#define S390X_VX_OPS                                                                            \
    CS_MLDSA_NTT_HOOKS(s390x_vx), CS_MLDSA_ROUNDING_HOOKS(portable),                            \
    CS_MLDSA_REJ_HOOKS(portable), CS_MLDSA_PACK_HOOKS(portable), CS_MLDSA_ZW1_HOOKS(portable),  \
    .expand_a = cs_mldsa_expand_a_generic, .expand_s = cs_mldsa_expand_s_generic,               \
    .expand_mask = cs_mldsa_expand_mask_generic, .ntt_order = NULL, .ntt_challenge = 1

const cs_mldsa_impl cs_mldsa_s390x_vx = {
    CS_IMPL_ROW("s390x_vx", CS_CPU_S390_VX),
    .keccak = &cs_keccak_s390x_vx,
    S390X_VX_OPS,
};

const cs_mldsa_impl cs_mldsa_s390x_vx_cpacf = {
    CS_IMPL_ROW("s390x_vx_cpacf", CS_CPU_S390_VX | CS_CPU_S390_SHAKE),
    .keccak = &cs_keccak_s390x_cpacf,
    S390X_VX_OPS,
};
