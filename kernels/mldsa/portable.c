/* The portable implementation table, the list of built-in implementations
 * and their accessors. */
#include "mldsa_portable.h"
#if defined(__s390x__)
#include "s390x/s390x_mldsa.h"
#endif

const cs_mldsa_impl cs_mldsa_portable = {
    .name = "portable",
    .cpu_features = 0,
    .keccak = &cs_keccak_portable,
    .ntt = cs_mldsa_ntt_portable,
    .invntt_tomont = cs_mldsa_invntt_portable,
    .pointwise_mont = cs_mldsa_pointwise_portable,
    .pointwise_acc_mont = cs_mldsa_pointwise_acc_portable,
    .mul_challenge = cs_mldsa_mul_challenge_portable,
    .reduce32 = cs_mldsa_reduce32_portable,
    .caddq = cs_mldsa_caddq_portable,
    .add = cs_mldsa_add_portable,
    .sub = cs_mldsa_sub_portable,
    .shiftl = cs_mldsa_shiftl_portable,
    .power2round = cs_mldsa_power2round_portable,
    .decompose = cs_mldsa_decompose_portable,
    .make_hint = cs_mldsa_make_hint_portable,
    .use_hint = cs_mldsa_use_hint_portable,
    .chknorm = cs_mldsa_chknorm_portable,
    .rej_uniform = cs_mldsa_rej_uniform_portable,
    .rej_eta = cs_mldsa_rej_eta_portable,
    .expand_a = cs_mldsa_expand_a_generic,
    .expand_s = cs_mldsa_expand_s_generic,
    .expand_mask = cs_mldsa_expand_mask_generic,
    .ntt_order = NULL,
    .pack_t1 = cs_mldsa_pack_t1_portable,
    .unpack_t1 = cs_mldsa_unpack_t1_portable,
    .pack_t0 = cs_mldsa_pack_t0_portable,
    .unpack_t0 = cs_mldsa_unpack_t0_portable,
    .pack_eta = cs_mldsa_pack_eta_portable,
    .unpack_eta = cs_mldsa_unpack_eta_portable,
    .pack_z = cs_mldsa_pack_z_portable,
    .unpack_z = cs_mldsa_unpack_z_portable,
    .pack_w1 = cs_mldsa_pack_w1_portable,
};

/* Copies the portable table (for a backend to override entries). */
void cs_mldsa_portable_ops(cs_mldsa_impl *out)
{
    *out = cs_mldsa_portable;
}

/* Built-in implementations in the registry's order (kernels/impl.h:
 * portable first). Per-ISA backends add their table here under their
 * architecture's #if (e.g. &cs_mldsa_avx2). */
#if defined(__x86_64__)
extern const cs_mldsa_impl cs_mldsa_avx2, cs_mldsa_avx512; /* kernels/mldsa/x86_64 */
#endif
const cs_mldsa_impl *const cs_mldsa_impls[] = {
    &cs_mldsa_portable,
#if defined(__x86_64__)
    &cs_mldsa_avx2,
    &cs_mldsa_avx512,
#endif
#if defined(__s390x__)
    &cs_mldsa_s390x_vx,
    &cs_mldsa_s390x_vx_cpacf,
#endif
    NULL,
};

const char *cs_mldsa_impl_name(const cs_mldsa_impl *impl)
{
    return impl->name;
}

uint32_t cs_mldsa_impl_cpu_features(const cs_mldsa_impl *impl)
{
    return impl->cpu_features;
}
