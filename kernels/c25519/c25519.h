/* X25519 (RFC 7748) and Ed25519 (RFC 8032) kernels: the curve family
 * "c25519". Byte encodings are the RFCs'; answers are OpenSSL's, bit for
 * bit, including what it refuses. No OpenSSL here.
 *
 * Each implementation (portable C, or an ISA folder's) is one table built
 * from the same curve templates (curve_impl.h) over its own field
 * arithmetic (field.h states the contract a field header meets); the
 * shim's dispatcher (runtime/dispatch_c25519.h) picks one of
 * cs_c25519_impls. */
#ifndef CRYPTOSHIM_C25519_H
#define CRYPTOSHIM_C25519_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu_features.h"
#include "../impl.h"

#define CS_X25519_BYTES 32   /* private key, public value, shared secret */
#define CS_ED25519_KEY_BYTES 32
#define CS_ED25519_SIG_BYTES 64

typedef struct cs_c25519_impl {
    CS_IMPL_HEAD; /* name (stable: CRYPTOSHIM_KERNELS, info, the stats), cpu_features */
    /* RFC 7748 X25519(scalar, u): clamps a copy of scalar, ignores u's top
     * bit, reduces u >= p. Writes out and returns 1, or 0 when out is all
     * zero (a low-order u: OpenSSL refuses that shared secret). Constant
     * time in scalar and u. */
    int (*x25519)(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
    /* out = X25519(scalar, 9), a private key's public value, by a fixed-base
     * method. Constant time in scalar. */
    void (*x25519_base)(uint8_t out[32], const uint8_t scalar[32]);
    /* RFC 8032 5.1.5: the public key of the 32-byte private key sk.
     * Constant time in sk. NULL in a table that offers no Ed25519. */
    void (*ed25519_pubkey)(uint8_t pk[32], const uint8_t sk[32]);
    /* RFC 8032 5.1.6 signature (R || S) of msg under sk, hashing pk as
     * given (as OpenSSL does; not checked against sk). dom/domlen are the
     * dom2(F, C) prefix of Ed25519ctx/Ed25519ph (domlen 0 for Ed25519);
     * for Ed25519ph msg is the 64-byte SHA-512 of the message. Constant
     * time in sk and the nonce. */
    void (*ed25519_sign)(uint8_t sig[64], const uint8_t *dom, size_t domlen, const uint8_t *msg,
                         size_t msglen, const uint8_t sk[32], const uint8_t pk[32]);
    /* Verification deciding exactly as OpenSSL's ossl_ed25519_verify
     * (S < L, pk decoded as its ge_frombytes_vartime does, R compared as
     * encoded bytes): 1 valid, 0 not. dom and msg as for sign. Variable
     * time: every input is public. */
    int (*ed25519_verify)(const uint8_t sig[64], const uint8_t *dom, size_t domlen,
                          const uint8_t *msg, size_t msglen, const uint8_t pk[32]);
} cs_c25519_impl;

extern const cs_c25519_impl cs_c25519_portable;
/* Every implementation built for this architecture, NULL-terminated, in
 * the registry's order (kernels/impl.h: portable first). */
extern const cs_c25519_impl *const cs_c25519_impls[];

#endif
