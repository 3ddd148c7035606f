/* The portable ML-KEM implementation (the reference every backend is
 * tested against) and the list of built-in implementations. */
#include "mlkem_backend.h"

const cs_mlkem_ops cs_mlkem_portable_ops = {
    .keccak = &cs_keccak_portable,
    .gen_matrix = cs_mlkem_gen_matrix_portable,
    .sample_noise = cs_mlkem_sample_noise_portable,
    .ntt = cs_mlkem_ntt_portable,
    .invntt = cs_mlkem_invntt_portable,
    .basemul_acc = cs_mlkem_basemul_acc_portable,
    .tobytes = cs_mlkem_tobytes_portable,
    .frombytes = cs_mlkem_frombytes_portable,
    .compress = cs_mlkem_compress_portable,
    .decompress = cs_mlkem_decompress_portable,
    .add_reduce = cs_mlkem_add_reduce_portable,
    .sub_reduce = cs_mlkem_sub_reduce_portable,
    .tomont_add = cs_mlkem_tomont_add_portable,
};

/* The three operations on the portable table. */
static int keygen_portable(int ps, uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                           const uint8_t z[32])
{
    return cs_mlkem_keygen_ops(&cs_mlkem_portable_ops, ps, ek, dk, d, z);
}

static int encaps_portable(int ps, uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                           const uint8_t m[32])
{
    return cs_mlkem_encaps_ops(&cs_mlkem_portable_ops, ps, ct, ss, ek, m);
}

static int decaps_portable(int ps, uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)
{
    return cs_mlkem_decaps_ops(&cs_mlkem_portable_ops, ps, ss, ct, dk);
}

const cs_mlkem_impl cs_mlkem_portable = {
    .name = "portable",
    .cpu_features = 0,
    .keygen = keygen_portable,
    .encaps = encaps_portable,
    .decaps = decaps_portable,
};

/* Per-ISA backends add their table here under their architecture's #if,
 * fastest first; portable is always last. */
#if defined(__x86_64__)
extern const cs_mlkem_impl cs_mlkem_avx2, cs_mlkem_avx512; /* kernels/mlkem/x86_64 */
#endif
const cs_mlkem_impl *const cs_mlkem_impls[] = {
#if defined(__x86_64__)
    &cs_mlkem_avx512,
    &cs_mlkem_avx2,
#endif
    &cs_mlkem_portable,
    NULL,
};
