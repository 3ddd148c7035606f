/* The portable Keccak table and the list of built-in tables. */
#include "keccak_internal.h"

const cs_keccak_impl cs_keccak_portable = {
    .name = "portable",
    .cpu_features = 0,
    .f1600 = cs_keccakf1600_portable,
    .f1600_x2 = cs_keccakf1600_x2_vec,
    .f1600_x4 = cs_keccakf1600_x4_vec, /* two 2-way vector passes */
};

/* Per-ISA tables add themselves here under their architecture's #if, in
 * the registry's order (kernels/impl.h). */
const cs_keccak_impl *const cs_keccak_impls[] = {
    &cs_keccak_portable,
#if defined(__x86_64__)
    &cs_keccak_avx2,
    &cs_keccak_avx512,
#endif
#if defined(__s390x__)
    &cs_keccak_s390x_vx,
    &cs_keccak_s390x_cpacf,
#endif
    NULL,
};
