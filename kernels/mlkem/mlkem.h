/* ML-KEM (FIPS 203) kernels: ML-KEM-512/768/1024 key generation,
 * encapsulation and decapsulation from explicit randomness (the _internal
 * algorithms), and the two input checks of FIPS 203 section 7. Byte
 * encodings are FIPS 203's. No OpenSSL here.
 *
 * ps is the parameter set: 512, 768 or 1024. Each implementation (portable
 * C, or a per-ISA backend) computes the same bytes for every input; the
 * shim's dispatcher picks one of cs_mlkem_impls. */
#ifndef CRYPTOSHIM_MLKEM_H
#define CRYPTOSHIM_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu_features.h"
#include "../impl.h"

#define CS_MLKEM_SYM_BYTES 32          /* d, z, m, shared secret */
size_t cs_mlkem_ek_bytes(int ps);     /* 800, 1184, 1568; 0 for an unknown ps */
size_t cs_mlkem_dk_bytes(int ps);     /* 1632, 2400, 3168 */
size_t cs_mlkem_ct_bytes(int ps);     /* 768, 1088, 1568 */
/* A prepared encapsulation key: what encapsulation and decapsulation
 * would otherwise derive from ek on every call (A_hat^T and t_hat in the
 * preparing implementation's own NTT layout, h = H(ek)), and which
 * implementation prepared it. Public data only (nothing of dk); read-only
 * once filled, so threads may share one. Opaque; 64-byte aligned. */
typedef struct cs_mlkem_prepared cs_mlkem_prepared;
typedef struct cs_mlkem_impl {
    CS_IMPL_HEAD; /* name ("portable", "avx2", "avx512"), cpu_features (kernels/impl.h) */
    /* FIPS 203 ML-KEM.KeyGen_internal(d, z): writes ek and dk (dk = dk_PKE || ek || H(ek) || z).
     * Returns 0, or -1 for an unknown ps. d and z are secret. */
    int (*keygen)(int ps, uint8_t *ek, uint8_t *dk, const uint8_t d[32], const uint8_t z[32]);
    /* ML-KEM.Encaps_internal(ek, m): writes ct and ss. ek must have passed cs_mlkem_check_ek. m secret. */
    int (*encaps)(int ps, uint8_t *ct, uint8_t ss[32], const uint8_t *ek, const uint8_t m[32]);
    /* ML-KEM.Decaps_internal(dk, ct) with implicit rejection, constant time in dk and ct. dk must have
     * passed cs_mlkem_check_dk. */
    int (*decaps)(int ps, uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
    /* Fills pr (made by cs_mlkem_prepared_new for ps) from ek, which must have passed
     * cs_mlkem_check_ek: expands A_hat^T from ek's rho and hashes H(ek) in the same Keccak
     * calls where the implementation can, and decodes t_hat. Returns 0, or -1 for a pr of
     * another ps. All public. */
    int (*prepare)(int ps, cs_mlkem_prepared *pr, const uint8_t *ek);
    /* keygen, also filling pr (as prepare would from the ek written) from the matrix and
     * hash keygen computes anyway. d and z are secret; pr holds nothing of them. */
    int (*keygen_prepared)(int ps, uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                           const uint8_t z[32], cs_mlkem_prepared *pr);
    /* encaps to the key pr was prepared from, with no matrix, H(ek) or t decoding: the same
     * ct and ss. -1 if pr was prepared by another implementation (layouts differ). m secret. */
    int (*encaps_prepared)(const cs_mlkem_prepared *pr, uint8_t *ct, uint8_t ss[32],
                           const uint8_t m[32]);
    /* decaps with dk, the decapsulation key of the ek pr was prepared from (checked as for
     * decaps): the same ss, constant time in dk and ct. -1 as encaps_prepared. */
    int (*decaps_prepared)(const cs_mlkem_prepared *pr, uint8_t ss[32], const uint8_t *ct,
                           const uint8_t *dk);
} cs_mlkem_impl;
extern const cs_mlkem_impl cs_mlkem_portable;
/* Every implementation built for this architecture, NULL-terminated, in the registry's order
 * (kernels/impl.h: portable first). */
extern const cs_mlkem_impl *const cs_mlkem_impls[];
/* An unfilled prepared key for parameter set ps (k*k + k polynomials and H(ek)),
 * or NULL for an unknown ps or no memory. */
cs_mlkem_prepared *cs_mlkem_prepared_new(int ps);
/* A copy of pr (NULL if no memory); frees pr (NULL is fine; nothing secret to wipe). */
cs_mlkem_prepared *cs_mlkem_prepared_dup(const cs_mlkem_prepared *pr);
void cs_mlkem_prepared_free(cs_mlkem_prepared *pr);
/* The implementation that filled pr (NULL while unfilled): the only one whose prepared
 * entries accept it. */
const cs_mlkem_impl *cs_mlkem_prepared_impl(const cs_mlkem_prepared *pr);
/* H(ek) of a filled pr. */
const uint8_t *cs_mlkem_prepared_h(const cs_mlkem_prepared *pr);
/* FIPS 203 7.2 encapsulation-key check (every coefficient decodes below q): 1 passes, 0 fails. */
int cs_mlkem_check_ek(int ps, const uint8_t *ek);
/* FIPS 203 7.3 decapsulation-key check (H(ek) inside dk matches its ek), hashing with the Keccak
 * table k (NULL: portable; the shim passes its choice, cs_dispatch_keccak): 1 passes, 0 fails. */
struct cs_keccak_impl;
int cs_mlkem_check_dk(const struct cs_keccak_impl *k, int ps, const uint8_t *dk);

#endif
