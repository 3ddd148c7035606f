/* The cryptoshim OpenSSL provider: ML-DSA, ML-KEM, X25519 and Ed25519 key
 * management and operations. Written against the OSSL_DISPATCH / OSSL_PARAM
 * ABI of the 3.0 headers (whose numbers are stable) plus the 3.5 additions
 * defined here; the library never links libcrypto, so nothing here calls an
 * OpenSSL function directly (the few it uses are resolved at run time in the
 * loading libcrypto: resolve_libcrypto in provider/provider.c, conf_sym in
 * provider/params.c). */
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
/* ML-KEM (EVP_PKEY-ML-KEM(7), EVP_KEM-ML-KEM(7)) */
#define CS_P_ENCODED_PUB_KEY "encoded-pub-key"
#define CS_P_IKME "ikme"
#define CS_P_RI_TYPE "ri-type"
#define CS_P_KEMRI_KDF_ALG "kemri-kdf-alg"
/* X25519, Ed25519 (EVP_PKEY-X25519(7), EVP_SIGNATURE-ED25519(7)) */
#define CS_P_DHKEM_IKM "dhkem-ikm"
#define CS_P_INSTANCE "instance"

/* Provider context: the core handle, the library context it runs in, and
 * the core's error and secure-heap functions (NULL when not offered). */
typedef struct cs_prov {
    const OSSL_CORE_HANDLE *handle;
    void *libctx; /* OSSL_LIB_CTX *, from the core's get_libctx */
    int core_version; /* 305 for 3.5.x: errors follow that release's */
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
    OSSL_FUNC_core_vset_error_fn *vset_error;
    OSSL_FUNC_CRYPTO_secure_zalloc_fn *secure_zalloc;
    OSSL_FUNC_CRYPTO_secure_clear_free_fn *secure_clear_free;
    OSSL_FUNC_CRYPTO_secure_free_fn *secure_free; /* frees (its heap clears) */
    /* libcrypto's one-shot digest and MAC (EVP_Q_digest, EVP_Q_mac) of the
     * core that loaded the provider, resolved at init (NULL if absent):
     * Ed25519ph's SHA-512 and X25519's DHKEM derivation, as stock's own. */
    int (*q_digest)(void *libctx, const char *name, const char *propq, const void *data,
                    size_t datalen, unsigned char *md, size_t *mdlen);
    unsigned char *(*q_mac)(void *libctx, const char *name, const char *propq,
                            const char *subalg, const OSSL_PARAM *params, const void *key,
                            size_t keylen, const unsigned char *data, size_t datalen,
                            unsigned char *out, size_t outsize, size_t *outlen);
    OSSL_FUNC_core_get_params_fn *core_get_params; /* its own configuration */
    int conf; /* CS_CONF_* flags, read once (cs_prov_conf); 0 until then */
} cs_prov;

/* The ml-kem.* and ml-dsa.* provider configuration OpenSSL's own key
 * management reads (EVP_PKEY-ML-KEM(7), EVP_PKEY-ML-DSA(7)), with its
 * defaults: retain_seed, prefer_seed yes; import_pct_type random. */
#define CS_CONF_READ 1
#define CS_CONF_KEM_RETAIN_SEED 2
#define CS_CONF_KEM_PREFER_SEED 4
#define CS_CONF_KEM_PCT_RANDOM 8
#define CS_CONF_KEM_PCT_FIXED 16
#define CS_CONF_DSA_RETAIN_SEED 32
#define CS_CONF_DSA_PREFER_SEED 64
/* The CS_CONF_* flags of the provider: each parameter from the provider's
 * own configuration (a [cryptoshim] section, -provparam), else from the
 * default provider's of the same library context (whose keys the shim's
 * stand in for, and whose encoders and decoders read it), else OpenSSL's
 * default; read at the first call and kept. */
int cs_prov_conf(const cs_prov *prov);

/* Takes the error and secure-heap functions from the core's table. */
void cs_prov_take_core(cs_prov *prov, const OSSL_DISPATCH *in);

/* Error libraries and reasons as OpenSSL numbers them (err.h, proverr.h,
 * cryptoerr.h of 3.5): the provider raises what OpenSSL's own ML-DSA
 * raises at the same point. */
#define CS_LIB_CRYPTO 15
#define CS_LIB_PROV 57
#define CS_PROV_R_INVALID_KEY_LENGTH 105
#define CS_PROV_R_BAD_LENGTH 142 /* mu (3.6 on), signature (4.0 on) */
#define CS_PROV_R_INVALID_DIGEST 122
#define CS_PROV_R_MISSING_KEY 128
#define CS_PROV_R_INVALID_SEED_LENGTH 154
#define CS_PROV_R_INVALID_KEY 158
#define CS_PROV_R_FAILED_TO_GENERATE_KEY 121
#define CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL 106 /* ML-KEM */
#define CS_PROV_R_OPERATION_NOT_SUPPORTED_FOR_THIS_KEYTYPE 178 /* ML-KEM */
#define CS_PROV_R_NULL_LENGTH_POINTER 247 /* ML-KEM */
#define CS_PROV_R_NULL_OUTPUT_BUFFER 248 /* ML-KEM */
#define CS_CRYPTO_R_TOO_SMALL_BUFFER 116
#define CS_CRYPTO_R_PARAM_VALUE_TOO_LARGE 126
#define CS_CRYPTO_R_PARAM_OF_INCOMPATIBLE_TYPE 129
#define CS_CRYPTO_R_PARAM_NOT_INTEGER_TYPE 127

/* Puts an error (library lib, reason) on the calling thread's queue through
 * the core, with printf-style data (fmt may be NULL); nothing without a core. */
void cs_prov_raise(const cs_prov *prov, int lib, int reason, const char *file, int line,
                   const char *func, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
#define CS_RAISE(prov, lib, reason, ...) \
    cs_prov_raise((prov), (lib), (reason), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* n zeroed bytes for secrets, 64-byte aligned: from the application's
 * secure heap through the core when it offers one (the core falls back to
 * plain memory when the heap is not enabled), else calloc. Freed (and
 * wiped) by cs_prov_secret_free with the same prov and n. */
void *cs_prov_secret_alloc(const cs_prov *prov, size_t n);
/* The same, leaving no error on the queue when the secure heap is full. */
void *cs_prov_secret_alloc_quiet(const cs_prov *prov, size_t n);
void cs_prov_secret_free(const cs_prov *prov, void *p, size_t n);

/* An ML-DSA key is a provider key (provider/key.h) of an ML-DSA family:
 * priv is the expanded private key, pub the public key, hooks->ps the
 * parameter set; pub is set whenever priv is (derived on import). */
struct cs_key;
typedef struct cs_key cs_mldsa_key;

/* The key's prepared private (sign) or public (verify) state for impl,
 * computed and published on first use (the key skeleton's prepared slots);
 * NULL if the key lacks that part, no memory, or impl differs from the one
 * it was prepared for (then callers use the unprepared functions). */
const cs_mldsa_prepared *cs_key_prepared_sign(cs_mldsa_key *key, const cs_mldsa_impl *impl);
const cs_mldsa_prepared *cs_key_prepared_verify(cs_mldsa_key *key, const cs_mldsa_impl *impl);
/* The ML-DSA prepare/unprepare hooks (provider/prepared.c): slot
 * CS_KEY_PREP_PRIV is the signing state (its secrets in the key's secret
 * memory), CS_KEY_PREP_PUB the verifying one. */
void *cs_mldsa_prepare(struct cs_key *key, int slot);
void cs_mldsa_unprepare(struct cs_key *key, void *prep, int slot);

/* One OSSL_DISPATCH entry: function id and function (cast to the generic
 * pointer type the table stores). */
#define CS_FN(id, fn) {(id), (void (*)(void))(fn)}

/* Defines fn, a gettable_ctx_params or settable_ctx_params function
 * answering the constant list of its further arguments (ending with
 * OSSL_PARAM_END) whatever the context. */
#define CS_CTX_PARAMS_FN(fn, ...)                              \
    static const OSSL_PARAM *fn(void *vctx, void *provctx)      \
    {                                                           \
        static const OSSL_PARAM list[] = {__VA_ARGS__};         \
        (void)vctx;                                             \
        (void)provctx;                                          \
        return list;                                            \
    }

/* Dispatch tables, one per parameter set. A signature table starts with
 * its CS_SIG_STREAMING_ENTRIES message update/final functions, which
 * OpenSSL's own ML-DSA offers from 3.6 on: under 3.5 the provider offers
 * the table from the entry after them, so streaming fails there as on
 * stock. */
extern const OSSL_DISPATCH cs_mldsa44_keymgmt[], cs_mldsa65_keymgmt[], cs_mldsa87_keymgmt[];
extern const OSSL_DISPATCH cs_mldsa44_signature[], cs_mldsa65_signature[],
    cs_mldsa87_signature[];
#define CS_SIG_STREAMING_ENTRIES 4
/* ML-KEM key management per parameter set, and the KEM (provider/mlkem_*.c). */
extern const OSSL_DISPATCH cs_mlkem512_keymgmt[], cs_mlkem768_keymgmt[], cs_mlkem1024_keymgmt[];
extern const OSSL_DISPATCH cs_mlkem_kem[];

/* X25519 and Ed25519 (provider/x25519_*.c, provider/ed25519_*.c): key
 * management, key exchange, signature. On a 3.5+ core the signature table
 * is offered whole; on 3.0 from entry CS_ED25519_SIG_30 on (3.0's
 * one-shot digest_sign/verify only). */
extern const OSSL_DISPATCH cs_x25519_keymgmt[], cs_x25519_keyexch[];
extern const OSSL_DISPATCH cs_ed25519_keymgmt[], cs_ed25519_signature[];
extern const int cs_ed25519_sig_30;
#define CS_PROV_R_FAILED_DURING_DERIVATION 164
#define CS_PROV_R_FAILED_TO_SIGN 175
#define CS_PROV_R_INVALID_DIGEST_LENGTH 166
#define CS_PROV_R_INVALID_INPUT_LENGTH 230
#define CS_PROV_R_INVALID_PREHASHED_DIGEST_LENGTH 241
#define CS_PROV_R_NO_INSTANCE_ALLOWED 242
#define CS_PROV_R_INVALID_EDDSA_INSTANCE 243
#define CS_PROV_R_NOT_A_PRIVATE_KEY 221
#define CS_PROV_R_NO_KEY_SET 114

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
/* Reads an integer parameter (integer or unsigned of 1-8 bytes, or an
 * integral real) into *v as OSSL_PARAM_get_int does; 0 (error raised) if
 * another type or out of an int's range. */
int cs_param_get_int(const cs_prov *prov, const OSSL_PARAM *p, int *v);
/* Copies an octet-string parameter (not an octet pointer, as
 * OSSL_PARAM_get_octet_string) of at most max bytes; 0 (error raised) if of
 * another type or too long. */
int cs_param_get_octets(const cs_prov *prov, const OSSL_PARAM *p, void *buf, size_t max,
                        size_t *len);
/* Points at an octet-string or octet-pointer parameter's data without
 * copying (OSSL_PARAM_get_octet_string_ptr); 0 (error raised) otherwise. */
int cs_param_get_octets_ptr(const cs_prov *prov, const OSSL_PARAM *p, const void **data,
                            size_t *len);
/* Setters for get_params: each sets return_size, and writes data when the
 * caller's buffer is large enough (data == NULL asks only for the size);
 * 0 (error raised) on a wrong type or a buffer too small. */
int cs_param_set_int(const cs_prov *prov, OSSL_PARAM *p, int64_t v);
int cs_param_set_octets(const cs_prov *prov, OSSL_PARAM *p, const void *v, size_t len);
int cs_param_set_utf8(const cs_prov *prov, OSSL_PARAM *p, const char *s);

#endif
