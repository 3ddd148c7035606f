/* Random test numbers in the kernels' limb form, from the TAP support's
 * seeded generator. Header-only: the tests that include it link the kernel
 * objects, which the support library does not. */
#ifndef CRYPTOSHIM_TEST_RAND_LIMBS_H
#define CRYPTOSHIM_TEST_RAND_LIMBS_H

#include <stdint.h>

#include "../../../kernels/bn/bn_kernel.h"
#include "tap.h"

/* m = a random odd number of exactly `bits` bits (top bit set), in n limbs. */
static inline void rand_odd_limbs(cs_limb *m, size_t n, unsigned bits)
{
    uint8_t b[CS_BN_MAX_LIMBS * CS_LIMB_BYTES];
    size_t nb = (bits + 7) / 8;
    tap_rng_bytes(b, nb);
    if (bits % 8)
        b[nb - 1] &= (uint8_t)((1u << (bits % 8)) - 1);
    b[(bits - 1) / 8] |= (uint8_t)(1u << ((bits - 1) % 8));
    b[0] |= 1;
    cs_limbs_from_le_bytes(m, n, b, nb);
}

#endif
