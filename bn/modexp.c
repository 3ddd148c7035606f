/* Modular exponentiation: OpenSSL numbers in, kernel limbs through, OpenSSL
 * numbers out. Secret values cross the boundary with libcrypto's
 * constant-time byte conversions and are wiped from the stack after use. */
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

/* Exponent bits to process. A secret exponent is processed to a whole
 * number of limbs, as libcrypto does (its top, not its exact length). */
static size_t exponent_bits(const cs_ossl *api, const BIGNUM *p, int consttime)
{
    size_t bits = (size_t)api->num_bits(p);
    if (consttime || bits == 0)
        bits = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS * CS_LIMB_BITS;
    return bits ? bits : CS_LIMB_BITS;
}

/* Writes a mod m (a >= 0) as nbytes little-endian bytes. */
static int base_bytes(const cs_ossl *api, uint8_t *out, int nbytes, const BIGNUM *a,
                      const BIGNUM *m, BN_CTX *ctx)
{
    if (api->ucmp(a, m) < 0)
        return api->bn2lebinpad(a, out, nbytes) == nbytes;
    api->ctx_start(ctx);
    BIGNUM *t = api->ctx_get(ctx);
    int ok = t && api->nnmod(t, a, m, ctx) && api->bn2lebinpad(t, out, nbytes) == nbytes;
    api->ctx_end(ctx);
    return ok;
}

/* BIGNUM flags the shim understands: allocation and secure-heap markers,
 * BN_FLG_CONSTTIME, and libcrypto's internal "fixed top" (0x10000), which
 * RSA's CRT path sets on its operands. Anything else goes to libcrypto. */
#define KNOWN_BN_FLAGS (BN_FLG_MALLOCED | BN_FLG_STATIC_DATA | BN_FLG_CONSTTIME | \
                        BN_FLG_SECURE | 0x10000)

static int unknown_flags(const cs_ossl *api, const BIGNUM *x)
{
    return api->get_flags(x, ~KNOWN_BN_FLAGS) != 0;
}

/* libcrypto's bignum_st (crypto/bn/bn_local.h, the same from 1.1.1 to 4.0)
 * and where bn_mont_ctx_st keeps ri and N: 1.1.1, 3.0-3.5 and 4.0 start
 * with ri, then RR and N; 3.6 moved ri after RR, N, Ni and n0[2] (struct
 * padding). Read only after layout_ok() has seen libcrypto's own
 * BN_MONT_CTX_set fill one of them so. */
struct ossl_bignum {
    BN_ULONG *d;
    int top, dmax, neg, flags;
};
struct mont_layout {
    size_t ri, n; /* byte offsets of ri and N */
};
static const struct mont_layout layouts[] = {
    {0, 8 + sizeof(struct ossl_bignum)},                     /* ri, RR, N, Ni, n0, flags */
    {3 * sizeof(struct ossl_bignum) + 16, sizeof(struct ossl_bignum)}, /* RR, N, Ni, n0, ri */
};
#define NLAYOUTS (sizeof layouts / sizeof layouts[0])

/* Whether c (a BN_MONT_CTX laid out as L says) holds N = the n limbs m with
 * n*CS_LIMB_BITS-bit R. Reads no pointer unless every count matches. */
static int peek_is_for(const BN_MONT_CTX *c, const struct mont_layout *L, const cs_limb *m,
                       size_t n)
{
    const unsigned char *b = (const void *)c;
    int ri;
    struct ossl_bignum N;
    memcpy(&ri, b + L->ri, sizeof ri);
    memcpy(&N, b + L->n, sizeof N);
    return ri == (int)(n * CS_LIMB_BITS) && N.top == (int)n && N.neg == 0 &&
           N.dmax >= N.top && N.d && !memcmp(N.d, m, n * sizeof(cs_limb));
}

/* See modexp.h. Confirms the layout with two contexts libcrypto sets for
 * known odd moduli (256 and 512 bits): their counts and words must read back
 * as set, at the same offsets in both. */
int cs_mont_ctx_layout_ok(const cs_ossl *api, BN_CTX *ctx)
{
    /* api->mont_layout (ossl.h): written only here, atomically. */
    int *layout = (int *)&api->mont_layout;
    int state = __atomic_load_n(layout, __ATOMIC_ACQUIRE);
    if (state)
        return state > 0;
    int ok = sizeof(BN_ULONG) == sizeof(cs_limb) && api->mont_ctx_new && api->mont_ctx_set &&
             api->mont_ctx_free;
    unsigned fits = ok ? (1u << NLAYOUTS) - 1 : 0; /* layouts every context matched */
    for (int bytes = 32; fits && bytes <= 64; bytes += 32) {
        uint8_t buf[64];
        cs_limb ml[64 / CS_LIMB_BYTES];
        for (int i = 0; i < bytes; i++)
            buf[i] = (uint8_t)(i * 37 + bytes);
        buf[0] |= 1, buf[bytes - 1] |= 0x80;
        size_t n = (size_t)bytes / CS_LIMB_BYTES;
        cs_limbs_from_le_bytes(ml, n, buf, (size_t)bytes);
        api->ctx_start(ctx);
        BIGNUM *t = api->ctx_get(ctx);
        BN_MONT_CTX *c = t && api->lebin2bn(buf, bytes, t) ? api->mont_ctx_new() : NULL;
        if (!c || !api->mont_ctx_set(c, t, ctx))
            fits = 0;
        for (unsigned l = 0; l < NLAYOUTS; l++)
            if ((fits >> l & 1) && !peek_is_for(c, &layouts[l], ml, n))
                fits &= ~(1u << l);
        if (c)
            api->mont_ctx_free(c);
        api->ctx_end(ctx);
    }
    /* Exactly one layout must fit; two would leave the choice to chance. */
    int found = fits && !(fits & (fits - 1)) ? __builtin_ctz(fits) + 1 : -1;
    __atomic_store_n(layout, found, __ATOMIC_RELEASE);
    return found > 0;
}

/* See modexp.h. Where the layout is confirmed, N is compared with m word
 * for word. Otherwise, with R = 2^(limb bits * mont->n): N divides m when
 * m R^-1 mod N is 0, and (m - R mod m) R^-1 mod N = m - 1 needs N > m - 1
 * (results are below N, or below m/R + N for wide inputs); both hold only
 * for N = m, whatever the context holds (even an unset or even N). */
int cs_mont_ctx_is_for(const cs_ossl *api, BN_MONT_CTX *in_mont, const BIGNUM *m,
                       const cs_mont *mont, BN_CTX *ctx)
{
    if (ctx && cs_mont_ctx_layout_ok(api, ctx))
        return peek_is_for(in_mont, &layouts[__atomic_load_n(&api->mont_layout, __ATOMIC_RELAXED) - 1],
                           mont->m, mont->n);
    return cs_mont_ctx_reduces_as(api, in_mont, m, mont, ctx);
}

/* See modexp.h. */
int cs_mont_ctx_reduces_as(const cs_ossl *api, BN_MONT_CTX *in_mont, const BIGNUM *m,
                           const cs_mont *mont, BN_CTX *ctx)
{
    if (!api->from_montgomery || !ctx)
        return 0;
    size_t n = mont->n;
    int nbytes = (int)(n * CS_LIMB_BYTES);
    cs_limb t[CS_BN_MAX_LIMBS];
    uint8_t buf[MAX_BYTES];
    cs_dlimb borrow = 0;
    for (size_t i = 0; i < n; i++) { /* t = m - (R mod m), public */
        cs_dlimb d = (cs_dlimb)mont->m[i] - mont->one[i] - borrow;
        t[i] = (cs_limb)d;
        borrow = (d >> CS_LIMB_BITS) & 1;
    }
    cs_limbs_to_le_bytes(buf, (size_t)nbytes, t, n);
    api->ctx_start(ctx);
    BIGNUM *x = api->ctx_get(ctx), *y = api->ctx_get(ctx);
    int ok = y && api->lebin2bn(buf, nbytes, x) && api->from_montgomery(y, x, in_mont, ctx) &&
             api->bn2lebinpad(y, buf, nbytes) == nbytes;
    if (ok) {
        cs_limbs_to_le_bytes((uint8_t *)t, (size_t)nbytes, mont->m, n);
        ((uint8_t *)t)[0] ^= 1; /* m - 1: m is odd */
        ok = !memcmp(buf, t, (size_t)nbytes) && api->from_montgomery(y, m, in_mont, ctx) &&
             api->is_zero(y);
    }
    api->ctx_end(ctx);
    return ok;
}

/* One exponentiation's operands as kernel limbs. */
struct operands {
    size_t n, ebits;
    int nbytes;
    cs_limb a[CS_BN_MAX_LIMBS], e[MAX_EXP_LIMBS];
    cs_mont mont;
};

/* Checks that kernel k can serve a^p mod m and converts the operands into o.
 * Returns 1, 0 on an OpenSSL error (left on its queue), or -1 when k cannot
 * serve the input. The caller wipes o (secret exponent) in every case. */
static int load_operands(const cs_ossl *api, const cs_bn_kernel *k, int consttime,
                         const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                         BN_MONT_CTX *in_mont, struct operands *o)
{
    if (!api->is_odd(m) || api->is_negative(m) || api->is_negative(a) ||
        api->is_negative(p) || !ctx || unknown_flags(api, a) || unknown_flags(api, p) ||
        unknown_flags(api, m))
        return -1;
    unsigned bits = (unsigned)api->num_bits(m);
    if (bits < k->min_bits || bits > k->max_bits || bits < CS_BN_MIN_BITS ||
        bits > CS_BN_MAX_BITS)
        return -1;
    o->ebits = exponent_bits(api, p, consttime);
    if (o->ebits > CS_BN_MAX_EXP_BITS)
        return -1;

    o->n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    o->nbytes = (int)(o->n * CS_LIMB_BYTES);
    size_t elimbs = (o->ebits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    int ebytes = (int)(elimbs * CS_LIMB_BYTES);
    uint8_t mb[MAX_BYTES], ab[MAX_BYTES], eb[MAX_EXP_BYTES];
    cs_limb ml[CS_BN_MAX_LIMBS];
    int ret = 0;

    if (api->bn2lebinpad(m, mb, o->nbytes) != o->nbytes)
        return -1;
    if (!base_bytes(api, ab, o->nbytes, a, m, ctx) ||
        api->bn2lebinpad(p, eb, ebytes) != ebytes)
        goto done;
    cs_limbs_from_le_bytes(ml, o->n, mb, (size_t)o->nbytes);
    cs_limbs_from_le_bytes(o->a, o->n, ab, (size_t)o->nbytes);
    cs_limbs_from_le_bytes(o->e, elimbs, eb, (size_t)ebytes);
    ret = cs_mont_cache_get(&o->mont, ml, o->n, k) < 0 ? -1 : 1;
    if (ret == 1 && in_mont && !cs_mont_ctx_is_for(api, in_mont, m, &o->mont, ctx))
        ret = -1;
done:
    cs_wipe(eb, sizeof eb);
    cs_wipe(ab, sizeof ab);
    return ret;
}

/* r = the kernel's result rl (o->n limbs); returns 1, or 0 on an OpenSSL
 * error. */
static int store_result(const cs_ossl *api, BIGNUM *r, const cs_limb *rl,
                        const struct operands *o)
{
    uint8_t buf[MAX_BYTES];
    cs_limbs_to_le_bytes(buf, (size_t)o->nbytes, rl, o->n);
    int ok = api->lebin2bn(buf, o->nbytes, r) != NULL;
    cs_wipe(buf, sizeof buf);
    return ok;
}

/* cs_modexp_with, checking the caller's Montgomery context in_mont (may be
 * NULL) too: one for another modulus is libcrypto's to serve (-1). */
static int modexp_with(const cs_ossl *api, const cs_bn_kernel *k, int consttime, BIGNUM *r,
                       const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                       BN_MONT_CTX *in_mont)
{
    /* In per-thread scratch, not on the stack: about 7 KB at 8192 bits. */
    struct {
        struct operands o;
        cs_limb rl[CS_BN_MAX_LIMBS];
    } *w = cs_scratch_take(sizeof *w);
    if (!w)
        return -1;
    int ret = load_operands(api, k, consttime, a, p, m, ctx, in_mont, &w->o);
    if (ret == 1)
        ret = k->exp(w->rl, w->o.a, w->o.e, w->o.ebits, &w->o.mont, consttime) < 0
                  ? -1
                  : store_result(api, r, w->rl, &w->o);
    cs_scratch_give(w, sizeof *w);
    return ret;
}

int cs_modexp_with(const cs_ossl *api, const cs_bn_kernel *k, int consttime, BIGNUM *r,
                   const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx)
{
    return modexp_with(api, k, consttime, r, a, p, m, ctx, NULL);
}

/* Whether the pair's outputs alias anything libcrypto's paired function
 * reads after it starts writing: stock's answer then depends on which of its
 * paths ran (its paired AVX-512 IFMA code reads both halves first, its
 * fallback finishes rr1 before reading the second half), so only libcrypto
 * itself gives it. */
static int x2_aliased(const BIGNUM *r1, const BIGNUM *r2, const BIGNUM *a2, const BIGNUM *p2,
                      const BIGNUM *m2)
{
    return r1 == a2 || r1 == p2 || r1 == m2 || r1 == r2;
}

/* Serves the pair with kernel k1 for the first half and k2 for the second:
 * one paired call when they are the same kernel and it has exp_x2 (paired
 * != 0 asks for it), else one exp each. Both halves are loaded and checked
 * before anything is computed, so a half the kernels cannot serve (an even
 * modulus, another modulus's BN_MONT_CTX, a size out of range) leaves the
 * whole pair to libcrypto: -1 and nothing written. Returns 1, 0 on an
 * OpenSSL error, or -1. */
static int modexp_x2_with(const cs_ossl *api, const cs_bn_kernel *k1, const cs_bn_kernel *k2,
                          int paired, BIGNUM *r1, const BIGNUM *a1, const BIGNUM *p1,
                          const BIGNUM *m1, BN_MONT_CTX *in_mont1, BIGNUM *r2,
                          const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m2,
                          BN_MONT_CTX *in_mont2, BN_CTX *ctx)
{
    if (x2_aliased(r1, r2, a2, p2, m2))
        return -1;
    paired = paired && k1 == k2 && k1->exp_x2;
    struct {
        struct operands o[2];
        cs_limb rl[2][CS_BN_MAX_LIMBS];
    } *w = cs_scratch_take(sizeof *w);
    if (!w)
        return -1;
    struct operands *o = w->o;
    cs_limb(*rl)[CS_BN_MAX_LIMBS] = w->rl;
    int ret = load_operands(api, k1, 1, a1, p1, m1, ctx, in_mont1, &o[0]);
    if (ret == 1)
        ret = load_operands(api, k2, 1, a2, p2, m2, ctx, in_mont2, &o[1]);
    if (ret == 1 && paired)
        ret = k1->exp_x2(rl[0], o[0].a, o[0].e, o[0].ebits, &o[0].mont, rl[1], o[1].a,
                         o[1].e, o[1].ebits, &o[1].mont) < 0
                  ? -1
                  : 1;
    else if (ret == 1)
        ret = k1->exp(rl[0], o[0].a, o[0].e, o[0].ebits, &o[0].mont, 1) < 0 ||
                      k2->exp(rl[1], o[1].a, o[1].e, o[1].ebits, &o[1].mont, 1) < 0
                  ? -1
                  : 1;
    /* r1 first, as libcrypto: r2 may alias a1, p1 or m1 (read already). */
    if (ret == 1)
        ret = store_result(api, r1, rl[0], &o[0]) & store_result(api, r2, rl[1], &o[1]);
    cs_scratch_give(w, sizeof *w);
    return ret;
}

int cs_modexp_x2_with(const cs_ossl *api, const cs_bn_kernel *k, BIGNUM *r1, const BIGNUM *a1,
                      const BIGNUM *p1, const BIGNUM *m1, BIGNUM *r2, const BIGNUM *a2,
                      const BIGNUM *p2, const BIGNUM *m2, BN_CTX *ctx)
{
    if (!k->exp_x2)
        return -1;
    return modexp_x2_with(api, k, k, 1, r1, a1, p1, m1, NULL, r2, a2, p2, m2, NULL, ctx);
}

static int wants_consttime(const cs_ossl *api, const BIGNUM *a, const BIGNUM *p,
                           const BIGNUM *m)
{
    return api->get_flags(p, BN_FLG_CONSTTIME) || api->get_flags(a, BN_FLG_CONSTTIME) ||
           api->get_flags(m, BN_FLG_CONSTTIME);
}

/* Set while one x2 call is being served on this thread (by libcrypto's own
 * paired function, whose fallback calls the consttime entry point for each
 * half, or by the shim half by half): the halves are not counted again. */
static __thread int in_x2 __attribute__((tls_model("initial-exec")));

/* Serves one exponentiation as cs_modexp_entry does, without counting it;
 * *served names who did (a kernel, or "libcrypto"). */
static int modexp_serve(cs_ossl *api, int ct_entry, BIGNUM *r, const BIGNUM *a,
                        const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont,
                        const char **served)
{
    int consttime = ct_entry || wants_consttime(api, a, p, m);
    unsigned bits = (unsigned)api->num_bits(m);
    const cs_bn_kernel *k = cs_dispatch_bn(api->family, consttime, bits);
    if (k) {
        int ret = modexp_with(api, k, consttime, r, a, p, m, ctx, in_mont);
        if (ret >= 0) {
            *served = k->name;
            return ret;
        }
    }
    *served = "libcrypto";
    /* libcrypto's BN_mod_exp_mont hands flagged inputs to the consttime
     * function first thing; going there directly counts the call once. */
    return consttime ? api->mod_exp_mont_consttime(r, a, p, m, ctx, in_mont)
                     : api->mod_exp_mont(r, a, p, m, ctx, in_mont);
}

int cs_modexp_entry(cs_ossl *api, int ct_entry, BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                    const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont)
{
    if (!cs_ossl_resolve(api))
        return 0; /* no libcrypto behind us: cannot happen in a caller of it */
    const char *served;
    int ret = modexp_serve(api, ct_entry, r, a, p, m, ctx, in_mont, &served);
    if (!in_x2)
        cs_stats_count(ct_entry || wants_consttime(api, a, p, m) ? CS_OP_MOD_EXP_CT
                                                                 : CS_OP_MOD_EXP,
                       served, (unsigned)api->num_bits(m));
    return ret;
}

int cs_modexp_x2_entry(cs_ossl *api, BIGNUM *rr1, const BIGNUM *a1, const BIGNUM *p1,
                       const BIGNUM *m1, BN_MONT_CTX *in_mont1, BIGNUM *rr2,
                       const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m2,
                       BN_MONT_CTX *in_mont2, BN_CTX *ctx)
{
    if (!cs_ossl_resolve(api) || !api->mod_exp_mont_consttime_x2)
        return 0;
    unsigned bits1 = (unsigned)api->num_bits(m1), bits2 = (unsigned)api->num_bits(m2);
    const cs_bn_kernel *kx = NULL, *k1 = NULL, *k2 = NULL;
    /* A mod_exp_consttime_x2 rule decides pairs of equal sizes; without one
     * (an older policy file) each half goes by the mod_exp_consttime rules. */
    if (bits1 == bits2 && cs_dispatch_bn_x2(api->family, bits1, &kx))
        k1 = k2 = kx;
    else
        k1 = cs_dispatch_bn(api->family, 1, bits1), k2 = cs_dispatch_bn(api->family, 1, bits2);
    int ret = -1;
    if (k1 && k2)
        ret = modexp_x2_with(api, k1, k2, kx != NULL, rr1, a1, p1, m1, in_mont1, rr2, a2, p2,
                             m2, in_mont2, ctx);
    if (ret >= 0) {
        cs_stats_count(CS_OP_MOD_EXP_CT_X2, k1->name, bits1);
        return ret;
    }
    /* Everything else is libcrypto's paired function, whole: it may have a
     * paired kernel of its own for this size, and for a pair the kernels
     * cannot serve, only it gives its answer (an invalid half fails the
     * whole pair in its paired code, not in its fallback). Its fallback's
     * calls of the consttime entry point are not counted again. */
    in_x2 = 1;
    ret = api->mod_exp_mont_consttime_x2(rr1, a1, p1, m1, in_mont1, rr2, a2, p2, m2, in_mont2,
                                         ctx);
    in_x2 = 0;
    cs_stats_count(CS_OP_MOD_EXP_CT_X2, "libcrypto", bits1);
    return ret;
}

int cs_modexp_with_mont(const cs_ossl *api, const cs_bn_kernel *k, int consttime, BIGNUM *r,
                        const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                        BN_MONT_CTX *in_mont)
{
    return modexp_with(api, k, consttime, r, a, p, m, ctx, in_mont);
}
