/* The exported libcrypto entry points. A preloaded definition wins over
 * libcrypto's own for every caller, libcrypto's method tables included. */
#include "bn/modexp.h"

int BN_mod_exp_mont(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                    BN_MONT_CTX *in_mont)
{
    return cs_modexp_entry(&cs_ossl30, 0, r, a, p, m, ctx, in_mont);
}

int BN_mod_exp_mont_consttime(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m,
                              BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    return cs_modexp_entry(&cs_ossl30, 1, r, a, p, m, ctx, in_mont);
}

int BN_mod_exp_mont_consttime_x2(BIGNUM *rr1, const BIGNUM *a1, const BIGNUM *p1,
                                 const BIGNUM *m1, BN_MONT_CTX *in_mont1, BIGNUM *rr2,
                                 const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m2,
                                 BN_MONT_CTX *in_mont2, BN_CTX *ctx)
{
    return cs_modexp_x2_entry(&cs_ossl30, rr1, a1, p1, m1, in_mont1, rr2, a2, p2, m2, in_mont2,
                              ctx);
}

int BN_mod_exp2_mont(BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1, const BIGNUM *a2,
                     const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    return cs_modexp2_entry(&cs_ossl30, rr, a1, p1, a2, p2, m, ctx, in_mont);
}
