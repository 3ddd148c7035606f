/* The portable implementation table, the list of built-in implementations
 * and their accessors. */
#include "mldsa_portable.h"
#if defined(__s390x__)
#include "s390x/s390x_mldsa.h"
#endif

const cs_mldsa_impl cs_mldsa_portable = {
    CS_IMPL_ROW("portable", 0),
    .keccak = &cs_keccak_portable,
    CS_MLDSA_NTT_HOOKS(portable), CS_MLDSA_ROUNDING_HOOKS(portable),
    CS_MLDSA_REJ_HOOKS(portable), CS_MLDSA_PACK_HOOKS(portable), CS_MLDSA_ZW1_HOOKS(portable),
    .expand_a = cs_mldsa_expand_a_generic,
    .expand_s = cs_mldsa_expand_s_generic,
    .expand_mask = cs_mldsa_expand_mask_generic,
    .ntt_order = NULL,
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
