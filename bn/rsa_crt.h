/* RSA's private-key operation for the method route: the CRT with both
 * halves in one paired exponentiation, as stock libcrypto does when its own
 * method is in force. Installing a bn_mod_exp hook alone makes libcrypto's
 * rsa_ossl_mod_exp take its other path, two single exponentiations: stock's
 * paired IFMA code would then never run, nor the shim's paired kernels. */
#ifndef CRYPTOSHIM_RSA_CRT_H
#define CRYPTOSHIM_RSA_CRT_H

#include <openssl/bn.h>

#include "runtime/ossl.h"

/* The RSA key accessors and helpers of one libcrypto (resolved by the
 * method installer from that library at its node), and the stock method's
 * own rsa_mod_exp, which serves every key this code does not. */
typedef struct cs_rsa_api {
    void (*get0_key)(const void *rsa, const BIGNUM **n, const BIGNUM **e, const BIGNUM **d);
    void (*get0_factors)(const void *rsa, const BIGNUM **p, const BIGNUM **q);
    void (*get0_crt)(const void *rsa, const BIGNUM **dmp1, const BIGNUM **dmq1,
                     const BIGNUM **iqmp);
    int (*extra_primes)(const void *rsa);
    BIGNUM *(*bn_new)(void);
    void (*bn_free)(BIGNUM *a);
    void (*with_flags)(BIGNUM *dest, const BIGNUM *b, int flags);
    BIGNUM *(*copy)(BIGNUM *to, const BIGNUM *from);
    int (*cmp)(const BIGNUM *a, const BIGNUM *b);
    BIGNUM *(*dup)(const BIGNUM *a);
    int (*stock_mod_exp)(BIGNUM *r0, const BIGNUM *i, void *rsa, BN_CTX *ctx);
} cs_rsa_api;

/* Whether every pointer of r is set (then cs_rsa_crt may be installed). */
int cs_rsa_api_complete(const cs_rsa_api *r);

/* The rsa_mod_exp hook: r0 = i^d mod n for the key rsa, as stock's
 * rsa_ossl_mod_exp computes it (the CRT, checked by re-encryption with e,
 * and i^d mod n when that check fails). Two-prime keys with equal-length
 * primes, CRT parameters and e, and 0 <= i < n take the CRT here with one
 * paired call (cs_modexp_x2_entry: a kernel of the shim's or libcrypto's own
 * paired function, by the policy for this library's family); every other
 * key and input goes to stock's rsa_mod_exp. Secret values are reduced,
 * exponentiated and recombined without branches or indices on them. */
int cs_rsa_crt(cs_ossl *api, const cs_rsa_api *r, BIGNUM *r0, const BIGNUM *i, void *rsa,
               BN_CTX *ctx);

#endif
