/* Modular exponentiation through the shim: decide, convert, run a kernel or
 * hand the call to libcrypto, and count it. OpenSSL-facing but not itself
 * interposing, so tests can drive it directly. */
#ifndef CRYPTOSHIM_MODEXP_H
#define CRYPTOSHIM_MODEXP_H

#include "kernels/bn/bn_kernel.h"
#include "runtime/ossl.h"

/* Computes r = a^p mod m with kernel k, as libcrypto's BN_mod_exp_mont (or
 * _consttime when consttime != 0) would. Returns 1 on success, 0 on an
 * OpenSSL error, or -1 when k cannot serve these inputs (nothing written to
 * r: the caller passes the call through). */
int cs_modexp_with(const cs_ossl *api, const cs_bn_kernel *k, int consttime, BIGNUM *r,
                   const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx);

/* cs_modexp_with with the caller's Montgomery context checked as the
 * interposed entry checks it (cs_mont_ctx_is_for): what `calibrate` times,
 * so its figures include that cost. Returns as cs_modexp_with. */
int cs_modexp_with_mont(const cs_ossl *api, const cs_bn_kernel *k, int consttime, BIGNUM *r,
                        const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                        BN_MONT_CTX *in_mont);

/* Computes r1 = a1^p1 mod m1 and r2 = a2^p2 mod m2 (secret exponents) with
 * kernel k's paired exponentiation, as BN_mod_exp_mont_consttime_x2 would.
 * Returns 1, 0 on an OpenSSL error, or -1 when k cannot serve the pair
 * (nothing written). */
int cs_modexp_x2_with(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *r1, const BIGNUM *a1,
                      const BIGNUM *p1, const BIGNUM *m1, BIGNUM *r2, const BIGNUM *a2,
                      const BIGNUM *p2, const BIGNUM *m2, BN_CTX *ctx);

/* The body of the interposed BN_mod_exp_mont (ct_entry = 0) and
 * BN_mod_exp_mont_consttime (ct_entry = 1). */
int cs_modexp_entry(cs_ossl *api, int ct_entry, BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                    const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont);

/* The body of the interposed BN_mod_exp_mont_consttime_x2: two independent
 * secret-exponent exponentiations (RSA's CRT halves). */
int cs_modexp_x2_entry(cs_ossl *api, BIGNUM *rr1, const BIGNUM *a1, const BIGNUM *p1,
                       const BIGNUM *m1, BN_MONT_CTX *in_mont1, BIGNUM *rr2,
                       const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m2,
                       BN_MONT_CTX *in_mont2, BN_CTX *ctx);

/* Computes rr = a1^p1 * a2^p2 mod m (public exponents) with kernel k's
 * simultaneous exponentiation, as BN_mod_exp2_mont would (bn/modexp2.c).
 * Returns 1, 0 on an OpenSSL error, or -1 when k cannot serve the inputs
 * (nothing written): no exp2 entry, a size it lacks, an even or negative
 * modulus, a negative input, a base of 0 or at least m, or BN_FLG_CONSTTIME
 * (or a flag the shim does not know) on any argument. */
int cs_modexp2_with(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *rr, const BIGNUM *a1,
                    const BIGNUM *p1, const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,
                    BN_CTX *ctx);

/* cs_modexp2_with with the caller's Montgomery context checked as the
 * interposed BN_mod_exp2_mont checks it: what `calibrate` times. */
int cs_modexp2_with_mont(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *rr, const BIGNUM *a1,
                         const BIGNUM *p1, const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,
                         BN_CTX *ctx, BN_MONT_CTX *in_mont);

/* The body of the interposed BN_mod_exp2_mont (DSA verification). */
int cs_modexp2_entry(cs_ossl *api, BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1,
                     const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx,
                     BN_MONT_CTX *in_mont);

/* Whether the caller's Montgomery context in_mont is for modulus m (whose
 * constants the shim computed in mont). BN_MONT_CTX is opaque: its modulus
 * is read where its layout was confirmed, else checked with two reductions
 * through libcrypto's BN_from_montgomery. 0 when it is not or cannot be
 * checked; the call then goes to libcrypto, which uses the context as given. */
int cs_mont_ctx_is_for(const cs_ossl *api, BN_MONT_CTX *in_mont, const BIGNUM *m,
                       const cs_mont *mont, BN_CTX *ctx);

/* The two ways cs_mont_ctx_is_for decides (for the tests). Whether this
 * libcrypto's BN_MONT_CTX is laid out as 1.1.1 and 3.x lay it out, as seen
 * once in contexts it sets itself (then N is compared with m word for
 * word); and the check through two BN_from_montgomery reductions, exact
 * whatever the layout, used otherwise. */
int cs_mont_ctx_layout_ok(const cs_ossl *api, BN_CTX *ctx);
int cs_mont_ctx_reduces_as(const cs_ossl *api, BN_MONT_CTX *in_mont, const BIGNUM *m,
                           const cs_mont *mont, BN_CTX *ctx);

#endif
