/* The exponentiation engine's side of the kernel contract: what a kernel
 * supplies (prepare, number-form conversions, and through its prepared
 * context the multiplication, squaring, table read and digit width; an
 * optional paired arithmetic), and CS_BN_KERNEL, which makes a cs_bn_kernel
 * whose entries are the engine's ladders (engine.c) over those primitives.
 * Internal to kernels/bn. */
#ifndef CRYPTOSHIM_BN_ENGINE_H
#define CRYPTOSHIM_BN_ENGINE_H

#include "bn_kernel.h"

/* Two halves' numbers in one form (RSA's CRT halves computed together):
 * the paired multiplication, squaring and two-index table read work on
 * joined numbers of `words` words. */
typedef struct cs_bn_pair_ops {
    size_t ctx_bytes; /* the paired context's size */
    /* Fills ctx for the halves' prepared contexts p0 and p1; returns the
     * words of a joined number, or 0 when this pair is not served. */
    size_t (*prepare)(void *ctx, const cs_bn_prep *p0, const cs_bn_prep *p1);
    /* x = x0 and x1 (each in its half's form) joined; x0, x1 = x's halves. */
    void (*join)(cs_limb *x, const cs_limb *x0, const cs_limb *x1, const void *ctx);
    void (*split)(cs_limb *x0, cs_limb *x1, const cs_limb *x, const void *ctx);
    cs_bn_mul_fn *mul, *sqr;
    cs_bn_select_fn *select; /* idx[0] for half 0, idx[1] for half 1 */
} cs_bn_pair_ops;

/* Defines VAR, a cs_bn_pair_ops over the paired context type CTX and the
 * functions PREPARE, JOIN, SPLIT, MUL, SQR and SELECT. */
#define CS_BN_PAIR_OPS(VAR, CTX, PREPARE, JOIN, SPLIT, MUL, SQR, SELECT)                      \
    const cs_bn_pair_ops VAR = {                                                          \
        .ctx_bytes = sizeof(CTX),                                                         \
        .prepare = PREPARE,                                                               \
        .join = JOIN,                                                                     \
        .split = SPLIT,                                                                   \
        .mul = MUL,                                                                       \
        .sqr = SQR,                                                                       \
        .select = SELECT,                                                                 \
    }

/* A kernel's primitives. */
typedef struct cs_bn_ops {
    /* Fills p (all but p->kernel) for mont, whose size is within the
     * kernel's range: digit width, arithmetic and the constants m, R'^2,
     * R'^2/R in the kernel's form (onem is the engine's). Returns 0, or -1
     * for a modulus it cannot serve after all. Public data. */
    int (*prepare)(cs_bn_prep *p, const cs_mont *mont);
    /* x (p->words) = a (p->n limbs, below m) in the kernel's form. */
    void (*load)(cs_limb *x, const cs_limb *a, const cs_bn_prep *p);
    /* r (p->n limbs) = x (kernel form, at most m) reduced below m. */
    void (*store)(cs_limb *r, const cs_limb *x, const cs_bn_prep *p);
    const cs_bn_pair_ops *pair; /* optional paired arithmetic (exp_x2) */
} cs_bn_ops;

/* The engine's entries for kernel k (see cs_bn_kernel): each checks k's
 * range, takes k's context from mont->prep or prepares it in scratch, runs
 * the ladder and wipes the stack it used. */
int cs_bn_engine_exp(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a, const cs_limb *e,
                     size_t ebits, const cs_mont *mont, int consttime);
int cs_bn_engine_exp2(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a0, const cs_limb *e0,
                      size_t ebits0, const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                      const cs_mont *mont);
int cs_bn_engine_exp_x2(const cs_bn_kernel *k, cs_limb *r0, const cs_limb *a0,
                        const cs_limb *e0, size_t ebits0, const cs_mont *mont0, cs_limb *r1,
                        const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                        const cs_mont *mont1);
void cs_bn_engine_mont_mul(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a,
                           const cs_limb *b, const cs_mont *mont);

/* The plain C table read (cs_bn_select_fn), for kernels without their own. */
void cs_bn_select_c(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx);

/* 1 as a number in every kernel's form (digit 0 is 1), CS_BN_MAX_WORDS words. */
extern const cs_limb cs_bn_one[CS_BN_MAX_WORDS];

/* Defines kernel VAR (a const cs_bn_kernel) from its name, CPU features,
 * modulus range (stated here only) and ops: the entries are the engine's,
 * exp2 offered when EXP2 is 1 and exp_x2 when X2 is 1 (ops with a pair). */
#define CS_BN_KERNEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, OPS, EXP2, X2)                      \
    extern const cs_bn_kernel VAR;                                                        \
    static void VAR##_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b,            \
                               const cs_mont *mont)                                       \
    {                                                                                     \
        cs_bn_engine_mont_mul(&VAR, r, a, b, mont);                                       \
    }                                                                                     \
    static void VAR##_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)         \
    {                                                                                     \
        cs_bn_engine_mont_mul(&VAR, r, a, a, mont);                                       \
    }                                                                                     \
    static int VAR##_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,    \
                         const cs_mont *mont, int consttime)                              \
    {                                                                                     \
        return cs_bn_engine_exp(&VAR, r, a, e, ebits, mont, consttime);                   \
    }                                                                                     \
    static int VAR##_exp2(cs_limb *r, const cs_limb *a0, const cs_limb *e0, size_t eb0,   \
                          const cs_limb *a1, const cs_limb *e1, size_t eb1,               \
                          const cs_mont *mont)                                            \
    {                                                                                     \
        return cs_bn_engine_exp2(&VAR, r, a0, e0, eb0, a1, e1, eb1, mont);                \
    }                                                                                     \
    static int VAR##_exp_x2(cs_limb *r0, const cs_limb *a0, const cs_limb *e0,            \
                            size_t eb0, const cs_mont *m0, cs_limb *r1,                   \
                            const cs_limb *a1, const cs_limb *e1, size_t eb1,             \
                            const cs_mont *m1)                                            \
    {                                                                                     \
        return cs_bn_engine_exp_x2(&VAR, r0, a0, e0, eb0, m0, r1, a1, e1, eb1, m1);       \
    }                                                                                     \
    const cs_bn_kernel VAR = {                                                            \
        .name = NAME,                                                                     \
        .cpu_features = FEATURES,                                                         \
        .min_bits = MIN_BITS,                                                             \
        .max_bits = MAX_BITS,                                                             \
        .ops = &OPS,                                                                      \
        .mont_mul = VAR##_mont_mul,                                                       \
        .mont_sqr = VAR##_mont_sqr,                                                       \
        .exp = VAR##_exp,                                                                 \
        .exp2 = (EXP2) ? VAR##_exp2 : NULL,                                               \
        .exp_x2 = (X2) ? VAR##_exp_x2 : NULL,                                             \
    }

/* CS_BN_KERNEL with its ops (VAR##_ops) made here from the primitives
 * PREPARE, LOAD, STORE and PAIR (a cs_bn_pair_ops pointer, or NULL and X2 0). */
#define CS_BN_KERNEL_OPS(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, PREPARE, LOAD, STORE, PAIR,    \
                         EXP2, X2)                                                        \
    static const cs_bn_ops VAR##_ops = {                                                  \
        .prepare = PREPARE,                                                               \
        .load = LOAD,                                                                     \
        .store = STORE,                                                                   \
        .pair = PAIR,                                                                     \
    };                                                                                    \
    CS_BN_KERNEL(VAR, NAME, FEATURES, MIN_BITS, MAX_BITS, VAR##_ops, EXP2, X2)

#endif
