/* The cryptoshim OpenSSL provider: ML-DSA-44/65/87 key management and
 * signature. Written against the OSSL_DISPATCH / OSSL_PARAM ABI of the 3.0
 * headers (whose numbers are stable) plus the 3.5 additions defined here; the
 * library never links libcrypto, so nothing here calls an OpenSSL function
 * directly (see provider/ossl_rt.c for the few resolved at run time). */
#ifndef CRYPTOSHIM_PROV_H
#define CRYPTOSHIM_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h> /* OSSL_PARAM_* initialiser macros only */

#include "../kernels/mldsa/mldsa.h"

/* Signature functions added in OpenSSL 3.4 (core_dispatch.h numbers). */
#ifndef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
#define OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES 26
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT 27
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE 28
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL 29
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT 30
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE 31
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL 32
#endif

/* Parameter names as OpenSSL 3.5 spells them (EVP_PKEY-ML-DSA(7),
 * EVP_SIGNATURE-ML-DSA(7)). */
#define CS_P_SEED "seed"
#define CS_P_PRIV "priv"
#define CS_P_PUB "pub"
#define CS_P_BITS "bits"
#define CS_P_SECURITY_BITS "security-bits"
#define CS_P_SECURITY_CATEGORY "security-category"
#define CS_P_MAX_SIZE "max-size"
#define CS_P_MANDATORY_DIGEST "mandatory-digest"
#define CS_P_PROPERTIES "properties"
#define CS_P_CONTEXT_STRING "context-string"
#define CS_P_TEST_ENTROPY "test-entropy"
#define CS_P_DETERMINISTIC "deterministic"
#define CS_P_MESSAGE_ENCODING "message-encoding"
#define CS_P_MU "mu"
#define CS_P_SIGNATURE "signature"
#define CS_P_ALGORITHM_ID "algorithm-id"

/* Provider context: the core handle and the library context it runs in. */
typedef struct cs_prov {
    const OSSL_CORE_HANDLE *handle;
    void *libctx; /* OSSL_LIB_CTX *, from the core's get_libctx */
} cs_prov;

/* An ML-DSA key. pk is always set when sk is (derived on import); the seed
 * only when the key was generated or imported from one. */
typedef struct cs_mldsa_key {
    cs_prov *prov;
    int ps; /* 44, 65 or 87 */
    int has_pub, has_priv, has_seed;
    uint8_t seed[CS_MLDSA_SEED_BYTES];
    uint8_t pk[CS_MLDSA_MAX_PK_BYTES];
    uint8_t sk[CS_MLDSA_MAX_SK_BYTES];
    /* Per-key precomputation for signing and verifying, made on first use
     * and published with a compare-and-swap (keys are shared between
     * threads); freed and wiped with the key or when its material changes.
     * Accessed only through cs_key_prepared_*(). */
    cs_mldsa_prepared *prep_sign, *prep_verify;
} cs_mldsa_key;

/* The key's prepared private (sign) or public (verify) state for impl,
 * computed and published on first use; NULL if the key lacks that part, no
 * memory, or impl differs from the one it was prepared for (then callers
 * use the unprepared functions). */
const cs_mldsa_prepared *cs_key_prepared_sign(cs_mldsa_key *key, const cs_mldsa_impl *impl);
const cs_mldsa_prepared *cs_key_prepared_verify(cs_mldsa_key *key, const cs_mldsa_impl *impl);
/* Frees both prepared states (for key free and key material changes). */
void cs_key_prepared_reset(cs_mldsa_key *key);

/* Dispatch tables, one per parameter set. */
extern const OSSL_DISPATCH cs_mldsa44_keymgmt[], cs_mldsa65_keymgmt[], cs_mldsa87_keymgmt[];
extern const OSSL_DISPATCH cs_mldsa44_signature[], cs_mldsa65_signature[],
    cs_mldsa87_signature[];

/* Algorithm name ("ML-DSA-44") of a parameter set, as OpenSSL names it. */
const char *cs_mldsa_alg_name(int ps);

/* Fills buf with n bytes from the private DRBG of the provider's library
 * context. Returns 1, or 0 if no randomness could be had (never a weaker
 * fallback). */
int cs_prov_random(const cs_prov *prov, uint8_t *buf, size_t n);

/* Clears a secret buffer in a way the compiler keeps. */
void cs_prov_cleanse(void *p, size_t n);

/* Constant-time equality of two buffers: 1 if equal. */
int cs_prov_ct_equal(const uint8_t *a, const uint8_t *b, size_t n);

/* OSSL_PARAM helpers (libcrypto's OSSL_PARAM_* functions are not linked). */
const OSSL_PARAM *cs_param_locate(const OSSL_PARAM *p, const char *key);
OSSL_PARAM *cs_param_locate_mut(OSSL_PARAM *p, const char *key);
/* Reads an integer parameter of any width into *v; 0 if not an integer. */
int cs_param_get_int(const OSSL_PARAM *p, int *v);
/* Copies an octet-string parameter of at most max bytes; 0 if wrong type or
 * too long. */
int cs_param_get_octets(const OSSL_PARAM *p, void *buf, size_t max, size_t *len);
/* Points at an octet-string parameter's data without copying. */
int cs_param_get_octets_ptr(const OSSL_PARAM *p, const void **data, size_t *len);
/* Setters for get_params: each sets return_size, and writes data when the
 * caller's buffer is large enough (data == NULL asks only for the size). */
int cs_param_set_int(OSSL_PARAM *p, int64_t v);
int cs_param_set_octets(OSSL_PARAM *p, const void *v, size_t len);
int cs_param_set_utf8(OSSL_PARAM *p, const char *s);

#endif
