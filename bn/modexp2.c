/* Simultaneous exponentiation a1^p1 * a2^p2 mod m with public exponents
 * (BN_mod_exp2_mont, DSA verification): OpenSSL numbers in, a kernel's exp2
 * entry, OpenSSL numbers out. Inputs libcrypto treats specially (a zero
 * base makes the product 0 whatever the exponents; bases at or above m are
 * reduced) go to libcrypto, so its answers are kept exactly. */
#include <string.h>

#include "kernels/bn/scratch.h"
#include "kernels/ct.h"
#include "runtime/dispatch.h"
#include "modexp.h"
#include "mont_cache.h"
#include "runtime/stats.h"

#define MAX_BYTES (CS_BN_MAX_BITS / 8)
#define MAX_EXP_BYTES (CS_BN_MAX_EXP_BITS / 8)
#define MAX_EXP_LIMBS (CS_BN_MAX_EXP_BITS / CS_LIMB_BITS)

/* BIGNUM flags a kernel may see: allocation and secure-heap markers and
 * libcrypto's internal "fixed top" (0x10000). BN_FLG_CONSTTIME asks for a
 * constant-time path this variable-time entry does not give: libcrypto's. */
#define EXP2_BN_FLAGS (BN_FLG_MALLOCED | BN_FLG_STATIC_DATA | BN_FLG_SECURE | 0x10000)

/* Whether x is a non-negative number with only the flags above. */
static int plain(const cs_ossl *api, const BIGNUM *x)
{
    return !api->is_negative(x) && api->get_flags(x, ~EXP2_BN_FLAGS) == 0;
}

/* Whether a is a base a kernel serves as libcrypto would: 0 < a < m. */
static int base_ok(const cs_ossl *api, const BIGNUM *a, const BIGNUM *m)
{
    return plain(api, a) && !api->is_zero(a) && api->ucmp(a, m) < 0;
}

/* x as n little-endian limbs through nbytes bytes; 0 if it does not fit. */
static int to_limbs(const cs_ossl *api, cs_limb *out, size_t n, const BIGNUM *x, uint8_t *buf)
{
    int nbytes = (int)(n * CS_LIMB_BYTES);
    if (api->bn2lebinpad(x, buf, nbytes) != nbytes)
        return 0;
    cs_limbs_from_le_bytes(out, n, buf, (size_t)nbytes);
    return 1;
}

/* The operands of one call as kernel limbs. */
struct operands2 {
    cs_limb a[2][CS_BN_MAX_LIMBS];
    cs_limb e[2][MAX_EXP_LIMBS];
    cs_limb r[CS_BN_MAX_LIMBS];
    uint8_t buf[MAX_EXP_BYTES];
    cs_mont mont;
};

/* cs_modexp2_with, checking the caller's Montgomery context in_mont (may be
 * NULL) too: one for another modulus is libcrypto's to serve (-1). */
static int modexp2_with(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *rr, const BIGNUM *a1,
                        const BIGNUM *p1, const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,
                        BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    if (!k->exp2 || !ctx || !api->is_odd(m) || !plain(api, m) || !plain(api, p1) ||
        !plain(api, p2) || !base_ok(api, a1, m) || !base_ok(api, a2, m))
        return -1;
    unsigned bits = (unsigned)api->num_bits(m);
    size_t ebits[2] = {(size_t)api->num_bits(p1), (size_t)api->num_bits(p2)};
    if (bits < k->min_bits || bits > k->max_bits || bits < CS_BN_MIN_BITS ||
        bits > CS_BN_MAX_BITS || ebits[0] > CS_BN_MAX_EXP_BITS || ebits[1] > CS_BN_MAX_EXP_BITS)
        return -1;
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    /* In per-thread scratch, not on the stack: about 12 KB at 8192 bits. */
    struct operands2 *w = cs_scratch_take(sizeof *w);
    if (!w)
        return -1;
    cs_limb ml[CS_BN_MAX_LIMBS];
    const BIGNUM *base[2] = {a1, a2}, *ex[2] = {p1, p2};
    int ret = -1;
    if (!to_limbs(api, ml, n, m, w->buf) || cs_mont_cache_get(&w->mont, ml, n, k) < 0 ||
        (in_mont && !cs_mont_ctx_is_for(api, in_mont, m, &w->mont, ctx)))
        goto done;
    for (int i = 0; i < 2; i++)
        if (!to_limbs(api, w->a[i], n, base[i], w->buf) ||
            !to_limbs(api, w->e[i], (ebits[i] + CS_LIMB_BITS - 1) / CS_LIMB_BITS, ex[i], w->buf))
            goto done;
    if (k->exp2(w->r, w->a[0], w->e[0], ebits[0], w->a[1], w->e[1], ebits[1], &w->mont) < 0)
        goto done;
    /* The result is written last: rr may alias any input. */
    cs_limbs_to_le_bytes(w->buf, n * CS_LIMB_BYTES, w->r, n);
    ret = api->lebin2bn(w->buf, (int)(n * CS_LIMB_BYTES), rr) != NULL;
done:
    cs_scratch_give(w, sizeof *w);
    return ret;
}

int cs_modexp2_with(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *rr, const BIGNUM *a1,
                    const BIGNUM *p1, const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,
                    BN_CTX *ctx)
{
    return modexp2_with(api, k, rr, a1, p1, a2, p2, m, ctx, NULL);
}

int cs_modexp2_entry(cs_ossl *api, BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1,
                     const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx,
                     BN_MONT_CTX *in_mont)
{
    if (!cs_ossl_resolve(api) || !api->mod_exp2_mont)
        return 0; /* no libcrypto behind us: cannot happen in a caller of it */
    unsigned bits = (unsigned)api->num_bits(m);
    const cs_bn_kernel *k = cs_dispatch_bn2(api->family, bits);
    if (k) {
        int ret = modexp2_with(api, k, rr, a1, p1, a2, p2, m, ctx, in_mont);
        if (ret >= 0) {
            cs_stats_count(CS_OP_MOD_EXP2, k->name, bits);
            return ret;
        }
    }
    cs_stats_count(CS_OP_MOD_EXP2, "libcrypto", bits);
    return api->mod_exp2_mont(rr, a1, p1, a2, p2, m, ctx, in_mont);
}

int cs_modexp2_with_mont(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *rr, const BIGNUM *a1,
                         const BIGNUM *p1, const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,
                         BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    return modexp2_with(api, k, rr, a1, p1, a2, p2, m, ctx, in_mont);
}
