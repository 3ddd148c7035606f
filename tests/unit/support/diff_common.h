/* Helpers shared by the differential tests (shim against libcrypto):
 * choosing kernels through the shim's own controls, and random BIGNUMs from
 * the TAP support's seeded generator. Header-only: it needs libcrypto and
 * the shim's objects, which the support library does not link. */
#ifndef CRYPTOSHIM_TEST_DIFF_COMMON_H
#define CRYPTOSHIM_TEST_DIFF_COMMON_H

#include <openssl/bn.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../../kernels/bn/bn_kernel.h"
#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "tap.h"

/* Re-reads the controls and dispatch as if CRYPTOSHIM_KERNELS were `name`
 * (NULL: unset, so the built-in policy decides). */
static inline void force_kernel(const char *name)
{
    if (name)
        setenv("CRYPTOSHIM_KERNELS", name, 1);
    else
        unsetenv("CRYPTOSHIM_KERNELS");
    cs_controls_load();
    cs_dispatch_init();
}

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

#endif
