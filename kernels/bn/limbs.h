/* Helpers for kernels whose number form is the plain limbs (portable.c, the
 * scalar x86-64 kernels and the SPARC and s390x ones). Internal to kernels/bn. */
#ifndef CRYPTOSHIM_BN_LIMBS_H
#define CRYPTOSHIM_BN_LIMBS_H

#include "engine.h"

/* Fills p's digit width, constants and arithmetic (mul, sqr: fully reducing
 * Montgomery products with R' = R) for mont, the form being plain limbs. */
void cs_bn_prepare_limbs(cs_bn_prep *p, const cs_mont *mont, cs_bn_mul_fn *mul,
                         cs_bn_mul_fn *sqr);

/* x = a, p->n limbs: load and store when the form is plain limbs and the
 * products are fully reduced. */
void cs_bn_copy_limbs(cs_limb *x, const cs_limb *a, const cs_bn_prep *p);

/* Defines kernel VAR over plain limbs with MUL (a cs_bn_mul_fn giving fully
 * reduced Montgomery products, also used to square): its prepare, ops and
 * the kernel (see CS_BN_KERNEL; EXP2 as there). */
#define CS_BN_LIMB_KERNEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, MUL, EXP2)              \
    static int VAR##_prepare(cs_bn_prep *p, const cs_mont *mont)                          \
    {                                                                                     \
        cs_bn_prepare_limbs(p, mont, MUL, MUL);                                           \
        return 0;                                                                         \
    }                                                                                     \
    static const cs_bn_ops VAR##_ops = {                                                  \
        .prepare = VAR##_prepare,                                                         \
        .load = cs_bn_copy_limbs,                                                         \
        .store = cs_bn_copy_limbs,                                                        \
    };                                                                                    \
    CS_BN_KERNEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, VAR##_ops, EXP2, 0)

#endif
