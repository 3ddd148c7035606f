/* The constant-time cases of a big-number kernel, for ct_bn_exp (the
 * portable kernel, 64- and 32-bit limbs) and ct_bn_x86 (the x86-64
 * kernels, and their emulated AVX-512 build): run under valgrind memcheck
 * with the secret operands marked undefined, so a branch or memory index
 * that depends on them is reported. Header-only. */
#ifndef CRYPTOSHIM_TEST_CT_BN_CASES_H
#define CRYPTOSHIM_TEST_CT_BN_CASES_H

#include <string.h>
#include <valgrind/memcheck.h>

#include "kernels/bn/bn_kernel.h"
#include "rand_limbs.h"
#include "tap.h"

/* The Montgomery constants of the last case's modulus. */
static cs_mont ct_mont;

/* One secret-exponent exp by k (a bits-bit modulus, extra_limb zero limbs
 * on top, an ebits-bit exponent) with the base and the exponent
 * undefined; returns whether it agrees with the portable kernel's public
 * path on the same inputs. */
static int ct_exp_case(const cs_bn_kernel *k, unsigned bits, size_t ebits, int extra_limb)
{
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS + extra_limb;
    size_t el = (ebits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], e[CS_BN_MAX_EXP_BITS / CS_LIMB_BITS];
    cs_limb r[CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    rand_odd_limbs(m, n, bits);
    if (cs_mont_init(&ct_mont, m, n))
        return 0;
    /* a < m: one bit shorter than m. */
    rand_odd_limbs(a, n, bits - 1);
    uint8_t eb[CS_BN_MAX_EXP_BITS / 8];
    tap_rng_bytes(eb, (ebits + 7) / 8);
    cs_limbs_from_le_bytes(e, el, eb, (ebits + 7) / 8);

    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(e, el * sizeof(cs_limb));
    int rc = k->exp(r, a, e, ebits, &ct_mont, 1);
    VALGRIND_MAKE_MEM_DEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(e, el * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(cs_limb));
    int rc2 = cs_bn_portable.exp(want, a, e, ebits, &ct_mont, 0);
    return rc == 0 && rc2 == 0 && memcmp(r, want, n * sizeof(cs_limb)) == 0;
}

/* A case of ct_exp_cases: modulus bits, exponent bits, zero limbs on top. */
struct ct_exp_size {
    unsigned bits;
    size_t ebits;
    int extra;
};

/* One TAP line per case of c (n of them): ct_exp_case by k, the line
 * naming k where named is set; a skip for a modulus beyond k's range. */
static void ct_exp_cases(const cs_bn_kernel *k, const struct ct_exp_size *c, size_t n, int named)
{
    for (size_t i = 0; i < n; i++) {
        if (c[i].bits > k->max_bits) {
            tap_skip("%s: %u bits beyond its range", k->name, c[i].bits);
            continue;
        }
        tap_ok(ct_exp_case(k, c[i].bits, c[i].ebits, c[i].extra),
               "%s%sconsttime exp, %u-bit modulus, %zu-bit secret exponent%s", named ? k->name : "",
               named ? ": " : "", c[i].bits, c[i].ebits, c[i].extra ? ", top limb zero" : "");
    }
}

/* k's mont_mul then mont_sqr on a bits-bit modulus with both operands
 * undefined; 0 if the modulus was refused. */
static int ct_mul_case(const cs_bn_kernel *k, unsigned bits)
{
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], r[CS_BN_MAX_LIMBS];
    rand_odd_limbs(m, n, bits);
    if (cs_mont_init(&ct_mont, m, n))
        return 0;
    rand_odd_limbs(a, n, bits - 1);
    rand_odd_limbs(b, n, bits - 1);
    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(b, n * sizeof(cs_limb));
    k->mont_mul(r, a, b, &ct_mont);
    k->mont_sqr(r, r, &ct_mont);
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(cs_limb));
    return 1;
}

#endif
