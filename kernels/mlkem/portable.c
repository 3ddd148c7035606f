/* The portable ML-KEM implementation (the reference every backend is
 * tested against) and the list of built-in implementations. */
#include "mlkem_backend.h"

const cs_mlkem_ops cs_mlkem_portable_ops = {
    .keccak = &cs_keccak_portable,
    .gen_matrix = cs_mlkem_gen_matrix_portable,
    .sample_noise = cs_mlkem_sample_noise_portable,
    CS_MLKEM_ARITH_OPS(portable),
};

CS_MLKEM_IMPL(portable, cs_mlkem_portable_ops, 0)

/* Per-ISA backends add their table here under their architecture's #if,
 * in the registry's order (kernels/impl.h: portable first). */
#if defined(__x86_64__)
extern const cs_mlkem_impl cs_mlkem_avx2, cs_mlkem_avx512; /* kernels/mlkem/x86_64 */
#endif
const cs_mlkem_impl *const cs_mlkem_impls[] = {
    &cs_mlkem_portable,
#if defined(__x86_64__)
    &cs_mlkem_avx2,
    &cs_mlkem_avx512,
#endif
    NULL,
};
