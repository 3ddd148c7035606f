/* ML-DSA (FIPS 204) as seen by the provider: key generation, signing and
 * verification for ML-DSA-44/65/87. Byte encodings are FIPS 204's.
 *
 * Every function takes the implementation to use (portable, or a per-ISA
 * backend) so tests can compare them; the shim's dispatcher picks one. */
#ifndef CRYPTOSHIM_MLDSA_H
#define CRYPTOSHIM_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu_features.h"
#include "../impl.h"
#include "../keccak/keccak.h"

#define CS_MLDSA_SEED_BYTES 32
#define CS_MLDSA_RND_BYTES 32
#define CS_MLDSA_MU_BYTES 64
#define CS_MLDSA_TR_BYTES 64
#define CS_MLDSA_MAX_CTX_BYTES 255

/* Largest sizes over all parameter sets (ML-DSA-87). */
#define CS_MLDSA_MAX_PK_BYTES 2592
#define CS_MLDSA_MAX_SK_BYTES 4896
#define CS_MLDSA_MAX_SIG_BYTES 4627

/* Parameter sets are named by their number: 44, 65, 87. */
size_t cs_mldsa_pk_bytes(int ps);  /* 0 if ps is unknown */
size_t cs_mldsa_sk_bytes(int ps);
size_t cs_mldsa_sig_bytes(int ps);

/* One implementation (a backend): opaque here, defined in mldsa_backend.h. */
typedef struct cs_mldsa_impl cs_mldsa_impl;
extern const cs_mldsa_impl cs_mldsa_portable;
/* Name as in CRYPTOSHIM_KERNELS and stats ("portable", "avx2", ...), and the
 * CPU features it needs. */
const char *cs_mldsa_impl_name(const cs_mldsa_impl *impl);
uint32_t cs_mldsa_impl_cpu_features(const cs_mldsa_impl *impl);
/* All built-in implementations, NULL-terminated, in the registry's order
 * (kernels/impl.h: portable first). */
extern const cs_mldsa_impl *const cs_mldsa_impls[];

/* All functions return 0 on success, -1 on failure (bad parameter set,
 * bad length, invalid signature). Secret inputs (seed, sk, rnd) decide no
 * branch or memory index, apart from the rejection loop's own outcome. */

/* KeyGen from a 32-byte seed (FIPS 204 ML-DSA.KeyGen_internal). */
int cs_mldsa_keygen(const cs_mldsa_impl *impl, int ps, uint8_t *pk, uint8_t *sk,
                    const uint8_t seed[CS_MLDSA_SEED_BYTES]);

/* tr = H(pk, 64), as stored in sk, on impl's Keccak; callers streaming a
 * message need it. */
int cs_mldsa_pk_tr(const cs_mldsa_impl *impl, int ps, uint8_t tr[CS_MLDSA_TR_BYTES],
                   const uint8_t *pk);

/* Pure ML-DSA signing of msg with context ctx (ctxlen <= 255).
 * rnd: 32 random bytes (hedged) or 32 zero bytes (deterministic). */
int cs_mldsa_sign(const cs_mldsa_impl *impl, int ps, uint8_t *sig, const uint8_t *sk,
                  const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                  const uint8_t rnd[CS_MLDSA_RND_BYTES]);
/* Signing with an externally computed mu (FIPS 204 Sign_internal on mu). */
int cs_mldsa_sign_mu(const cs_mldsa_impl *impl, int ps, uint8_t *sig, const uint8_t *sk,
                     const uint8_t mu[CS_MLDSA_MU_BYTES],
                     const uint8_t rnd[CS_MLDSA_RND_BYTES]);

/* Pure ML-DSA verification; 0 if sig is a valid signature of msg under pk. */
int cs_mldsa_verify(const cs_mldsa_impl *impl, int ps, const uint8_t *sig, size_t siglen,
                    const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                    const uint8_t *pk);
int cs_mldsa_verify_mu(const cs_mldsa_impl *impl, int ps, const uint8_t *sig, size_t siglen,
                       const uint8_t mu[CS_MLDSA_MU_BYTES], const uint8_t *pk);

/* Recomputes the public key from an expanded private key (for keys imported
 * without seed or public key, and for pairwise checks) and checks the key as
 * OpenSSL does on import: -2 if s1 or s2 has a coefficient outside
 * [-eta, eta] (OpenSSL's decoding refuses it), else -1 if t0 is not the one
 * (rho, s1, s2) give or tr is not H(pk) (its consistency check). pk is
 * written either way; only the verdicts are declassified. */
int cs_mldsa_pk_from_sk(const cs_mldsa_impl *impl, int ps, uint8_t *pk, const uint8_t *sk);

/* Per-key precomputation, for a key used many times (a server's signing
 * key, a CA's verification key): the expanded matrix A-hat, NTT(s1),
 * NTT(s2), NTT(t0) and tr for a private key; A-hat, NTT(t1 * 2^d) and
 * tr = H(pk) for a public key. Bound to impl (its NTT order). Outputs are
 * exactly those of the unprepared functions. A prepared key is read-only
 * after creation, so threads may share one. NULL on bad ps or no memory. */
typedef struct cs_mldsa_prepared cs_mldsa_prepared;
cs_mldsa_prepared *cs_mldsa_prepare_sk(const cs_mldsa_impl *impl, int ps, const uint8_t *sk);
cs_mldsa_prepared *cs_mldsa_prepare_pk(const cs_mldsa_impl *impl, int ps, const uint8_t *pk);
/* Wipes (the private parts are secrets) and frees; NULL is fine. */
void cs_mldsa_prepared_free(cs_mldsa_prepared *pr);
/* A prepared private key in the caller's memory, in two parts: secret
 * (the state itself, NTT(s1), NTT(s2), NTT(t0), K, tr: for a secure heap)
 * and public_part (A-hat: ordinary memory), of the sizes
 * cs_mldsa_prepared_sk_sizes gives, both 64-byte aligned; the state
 * starts at secret. Released by cs_mldsa_prepared_wipe (wipes the secret
 * part, frees nothing), never by cs_mldsa_prepared_free. NULL on bad ps or
 * alignment; sizes -1 on bad ps. */
int cs_mldsa_prepared_sk_sizes(int ps, size_t *secret, size_t *public_part);
cs_mldsa_prepared *cs_mldsa_prepare_sk_in(const cs_mldsa_impl *impl, int ps, const uint8_t *sk,
                                          void *secret, void *public_part);
void cs_mldsa_prepared_wipe(cs_mldsa_prepared *pr);
/* The public_part given to cs_mldsa_prepare_sk_in (for the caller to free). */
void *cs_mldsa_prepared_public_part(const cs_mldsa_prepared *pr);
int cs_mldsa_prepared_ps(const cs_mldsa_prepared *pr);
const cs_mldsa_impl *cs_mldsa_prepared_impl(const cs_mldsa_prepared *pr);
/* tr: from sk for a prepared private key, H(pk) for a public one. */
const uint8_t *cs_mldsa_prepared_tr(const cs_mldsa_prepared *pr);
/* As cs_mldsa_sign / _sign_mu, with a prepared private key. */
int cs_mldsa_sign_prepared(const cs_mldsa_prepared *pr, uint8_t *sig, const uint8_t *msg,
                           size_t msglen, const uint8_t *ctx, size_t ctxlen,
                           const uint8_t rnd[CS_MLDSA_RND_BYTES]);
int cs_mldsa_sign_mu_prepared(const cs_mldsa_prepared *pr, uint8_t *sig,
                              const uint8_t mu[CS_MLDSA_MU_BYTES],
                              const uint8_t rnd[CS_MLDSA_RND_BYTES]);
/* As cs_mldsa_verify / _verify_mu, with a prepared public key. */
int cs_mldsa_verify_prepared(const cs_mldsa_prepared *pr, const uint8_t *sig, size_t siglen,
                             const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                             size_t ctxlen);
int cs_mldsa_verify_mu_prepared(const cs_mldsa_prepared *pr, const uint8_t *sig, size_t siglen,
                                const uint8_t mu[CS_MLDSA_MU_BYTES]);

/* Incremental SHAKE256 (cs_shake256_init/absorb/squeeze, for mu =
 * H(tr || 0 || ctxlen || ctx || M) over a streamed message) is Keccak's:
 * kernels/keccak/keccak.h, included above. */

#endif
