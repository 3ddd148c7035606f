/* Helpers shared by the differential tests (shim against libcrypto):
 * choosing kernels through the shim's own controls, running a test over
 * every kernel, its case count, and random BIGNUMs from the TAP support's
 * seeded generator. Header-only: it needs libcrypto and
 * the shim's objects, which the support library does not link. */
#ifndef CRYPTOSHIM_TEST_DIFF_COMMON_H
#define CRYPTOSHIM_TEST_DIFF_COMMON_H

#include <openssl/bn.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../../kernels/bn/bn_kernel.h"
#include "force_kernel.h"
#include "tap.h"

/* Forces kernel k as force_kernel does; 0, after a TAP skip, when this CPU
 * lacks its features. */
static inline int force_usable_kernel(const cs_bn_kernel *k)
{
    force_kernel(k->name);
    if (cs_bn_kernel_usable(k))
        return 1;
    tap_skip("%s: this CPU lacks its features", k->name);
    return 0;
}

/* Calls each(k, k's name, arg) with every kernel this CPU runs forced as
 * force_kernel does (a TAP skip for the others), then each(NULL, "built-in
 * policy", arg) with the controls unset. */
static inline void diff_each_kernel(void (*each)(const cs_bn_kernel *k, const char *name, void *arg),
                                    void *arg)
{
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++)
        if (force_usable_kernel(*k))
            each(*k, (*k)->name, arg);
    force_kernel(NULL);
    each(NULL, "built-in policy", arg);
}

/* The rest of a differential test's main once it has resolved
 * libcrypto's functions (ok; TAP line `what`): the generator seeded, then
 * each(k, name, arg) over every kernel and the built-in policy
 * (diff_each_kernel), *ctx a BN_CTX meanwhile. Returns tap_done(). */
static inline int diff_run_each_kernel(int ok, const char *what, BN_CTX **ctx,
                                       void (*each)(const cs_bn_kernel *k, const char *name,
                                                    void *arg),
                                       void *arg)
{
    *ctx = BN_CTX_new();
    if (tap_ok(ok, "%s", what)) {
        tap_rng_seed(20261130);
        diff_each_kernel(each, arg);
    }
    BN_CTX_free(*ctx);
    return tap_done();
}

/* The case count of a test that runs a share of diff_modexp's count
 * (argv[1], CS_DIFF_COUNT): argv[1] / share kept within [lo, hi]; hi when
 * there is no argv[1]. */
static inline long diff_share_count(int argc, char **argv, long share, long lo, long hi)
{
    long count = argc > 1 ? atol(argv[1]) / share : hi;
    if (count > hi)
        count = hi;
    if (count < lo)
        count = lo;
    return count;
}

/* x = a random number of exactly `bits` bits (odd if asked). */
static inline void rand_bits(BIGNUM *x, int bits, int odd)
{
    uint8_t buf[CS_BN_MAX_EXP_BITS / 8 + 8];
    int bytes = (bits + 7) / 8;
    tap_rng_bytes(buf, (size_t)bytes);
    if (bits % 8)
        buf[0] &= (uint8_t)((1u << (bits % 8)) - 1);
    if (bits)
        buf[0] |= (uint8_t)(1u << ((bits - 1) % 8));
    if (odd && bytes)
        buf[bytes - 1] |= 1;
    BN_bin2bn(buf, bytes, x);
}

/* x = a random number below m (m > 0), ctx for the reduction. */
static inline void rand_below_bn(BIGNUM *x, const BIGNUM *m, BN_CTX *ctx)
{
    rand_bits(x, BN_num_bits(m) + 8, 0);
    BN_mod(x, x, m, ctx);
}

/* The edge operands of the differential tests' edge cases, by kind. */
enum diff_edge {
    DIFF_ZERO, DIFF_ONE, DIFF_TWO, DIFF_M_MINUS_1, DIFF_M, DIFF_2M_PLUS_3, DIFF_NEG_BELOW, DIFF_BELOW
};

/* x = the operand of kind k against modulus m (> 0): 0, 1, 2, m - 1, m,
 * 2m + 3, minus (a random number below m, plus 1), a random number below
 * m (rand_below_bn with ctx). */
static inline void diff_edge_operand(BIGNUM *x, enum diff_edge k, const BIGNUM *m, BN_CTX *ctx)
{
    switch (k) {
    case DIFF_ZERO: BN_zero(x); break;
    case DIFF_ONE: BN_one(x); break;
    case DIFF_TWO: BN_set_word(x, 2); break;
    case DIFF_M_MINUS_1: BN_copy(x, m), BN_sub_word(x, 1); break;
    case DIFF_M: BN_copy(x, m); break;
    case DIFF_2M_PLUS_3: BN_lshift1(x, m), BN_add_word(x, 3); break;
    case DIFF_NEG_BELOW: rand_below_bn(x, m, ctx), BN_add_word(x, 1), BN_set_negative(x, 1); break;
    default: rand_below_bn(x, m, ctx); break;
    }
}

#endif
