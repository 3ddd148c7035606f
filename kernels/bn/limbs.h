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

/* Defines kernel VAR over plain limbs with MUL and SQR (cs_bn_mul_fn giving
 * fully reduced Montgomery products; SQR is called with b == a) and the
 * table read SELECT (NULL: the engine's plain C one): its prepare, ops and
 * the kernel (see CS_BN_KERNEL; EXP2 as there). */
#define CS_BN_LIMB_KERNEL_SEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, MUL, SQR, SELECT, EXP2)  \
    static int VAR##_prepare(cs_bn_prep *p, const cs_mont *mont)                          \
    {                                                                                     \
        cs_bn_select_fn *const select = SELECT;                                           \
        cs_bn_prepare_limbs(p, mont, MUL, SQR);                                           \
        if (select)                                                                       \
            p->select = select;                                                           \
        return 0;                                                                         \
    }                                                                                     \
    CS_BN_KERNEL_OPS(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, VAR##_prepare, cs_bn_copy_limbs, \
                     cs_bn_copy_limbs, NULL, EXP2, 0)

/* CS_BN_LIMB_KERNEL_SEL with MUL also squaring and the plain C table read. */
#define CS_BN_LIMB_KERNEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, MUL, EXP2)              \
    CS_BN_LIMB_KERNEL_SEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, MUL, MUL, NULL, EXP2)

#endif
