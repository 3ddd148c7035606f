/* The same entry points for OpenSSL 1.1.x processes, whose libcrypto
 * references them at version OPENSSL_1_1_0. The 1.1 ABI has no
 * BN_mod_exp_mont_consttime_x2. */
#include "bn/modexp.h"

__asm__(".symver cs_bn_mod_exp_mont_11, BN_mod_exp_mont@OPENSSL_1_1_0");
__asm__(".symver cs_bn_mod_exp_mont_consttime_11, BN_mod_exp_mont_consttime@OPENSSL_1_1_0");
__asm__(".symver cs_bn_mod_exp2_mont_11, BN_mod_exp2_mont@OPENSSL_1_1_0");

int cs_bn_mod_exp_mont_11(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m,
                          BN_CTX *ctx, BN_MONT_CTX *in_mont);
int cs_bn_mod_exp_mont_consttime_11(BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                                    const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont);
int cs_bn_mod_exp2_mont_11(BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1, const BIGNUM *a2,
                           const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx,
                           BN_MONT_CTX *in_mont);

int cs_bn_mod_exp_mont_11(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m,
                          BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    return cs_modexp_entry(&cs_ossl11, 0, r, a, p, m, ctx, in_mont);
}

int cs_bn_mod_exp_mont_consttime_11(BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                                    const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    return cs_modexp_entry(&cs_ossl11, 1, r, a, p, m, ctx, in_mont);
}

int cs_bn_mod_exp2_mont_11(BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1, const BIGNUM *a2,
                           const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx,
                           BN_MONT_CTX *in_mont)
{
    return cs_modexp2_entry(&cs_ossl11, rr, a1, p1, a2, p2, m, ctx, in_mont);
}
