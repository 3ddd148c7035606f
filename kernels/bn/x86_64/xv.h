/* Shared core of the x86-64 vector kernels: numbers held as K small-radix
 * digits (w = 52 for AVX-512 IFMA, 28 for AVX2) and "almost Montgomery"
 * multiplication with R' = 2^(w*iters), kept below 2m between operations. The
 * digit kernels supply only the multiplication; conversions, the R' constants
 * and the exponentiation ladders live in xv_exp.c. Internal header. */
#ifndef CRYPTOSHIM_BN_X86_XV_H
#define CRYPTOSHIM_BN_X86_XV_H

#include "../bn_kernel.h"
#include "../../ct.h"

/* Largest digit count: 4096 bits at 28 bits a digit, plus 2 bits of headroom,
 * rounded up to whole 4-lane vectors. */
#define XV_MAXK 148
#define XV_MAX_BITS 4096

struct xv_ctx;

/* r = a*b/R' mod m, result < 2m with normalised digits, for a, b < 2m with
 * normalised digits; r may alias a or b. */
typedef void xv_amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                       const struct xv_ctx *c);

/* out = tab[idx] (entries of K digits), reading every entry under a mask:
 * idx is secret. */
typedef void xv_select_fn(uint64_t *out, const uint64_t *tab, size_t entries, size_t K,
                          unsigned idx);

typedef struct xv_ctx {
    unsigned w;          /* digit bits */
    size_t K;            /* digits held, a multiple of 4 (whole vectors) */
    size_t iters;        /* digits used, w*iters >= bits+2; R' = 2^(w*iters) */
    uint64_t n0;         /* -m^-1 mod 2^w */
    xv_amm_fn *amm;
    xv_amm_fn *asqr;     /* squaring (may be amm with a == b) */
    xv_select_fn *select; /* constant-time table read */
    const cs_mont *mont;
    uint64_t m[XV_MAXK] __attribute__((aligned(32)));
    uint64_t rr[XV_MAXK] __attribute__((aligned(32)));  /* R'^2 mod m */
    uint64_t one[XV_MAXK] __attribute__((aligned(32))); /* 1 as a number */
} xv_ctx;

/* Fills c for mont with w-bit digits (w = 64: plain limbs, K = n); returns 0,
 * or -1 if the modulus is too long for these kernels. Public data only. The
 * plain C select is installed; vector kernels may replace it. */
int xv_setup(xv_ctx *c, const cs_mont *mont, unsigned w, xv_amm_fn *amm, xv_amm_fn *asqr);

/* Constant-time table read in plain C, and one with AVX2 (xv_select_avx2.c). */
void xv_select_c(uint64_t *out, const uint64_t *tab, size_t entries, size_t K, unsigned idx);
void xv_select_avx2(uint64_t *out, const uint64_t *tab, size_t entries, size_t K, unsigned idx);

/* Conversions for kernels running their own ladders: a (c->mont->n limbs,
 * below m) into c->K digits, and normalised digits (value at most m) back
 * into limbs reduced below m. */
void xv_to_digits(const xv_ctx *c, uint64_t *d, const cs_limb *a);
void xv_from_digits_mod(const xv_ctx *c, cs_limb *r, const uint64_t *d);

/* The kernel interface on top of a context (see cs_bn_kernel). */
void xv_mont_mul(const xv_ctx *c, cs_limb *r, const cs_limb *a, const cs_limb *b);
int xv_exp(const xv_ctx *c, cs_limb *r, const cs_limb *a, const cs_limb *e,
           size_t ebits, int consttime);
/* cs_bn_kernel.exp2 on a context: r = a0^e0 * a1^e1 mod m, public
 * exponents, interleaved sliding windows over one squaring chain. */
int xv_exp2(const xv_ctx *c, cs_limb *r, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
            const cs_limb *a1, const cs_limb *e1, size_t ebits1);
/* As xv_exp2 with the windows given (1..7 bits each; capped to fit the
 * table), for measuring which sizes pay. */
int xv_exp2_windows(const xv_ctx *c, cs_limb *r, const cs_limb *a0, const cs_limb *e0,
                    size_t ebits0, const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                    unsigned w0, unsigned w1);

/* Defines a vector kernel's three cs_bn_kernel entry points, PREFIX_mont_mul,
 * PREFIX_mont_sqr and PREFIX_exp, on top of its SETUP function (which fills
 * an xv_ctx for a modulus and returns 0, or -1 for a size it cannot serve).
 * Each wipes the stack its work used (the context it keeps is public). */
#define XV_KERNEL_ENTRIES(PREFIX, SETUP)                                                \
    static void PREFIX##_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b,       \
                                  const cs_mont *mont)                                  \
    {                                                                                   \
        xv_ctx c;                                                                       \
        if (SETUP(&c, mont) == 0)                                                       \
            xv_mont_mul(&c, r, a, b);                                                   \
        cs_wipe_stack(CS_BN_WIPE_STACK);                                                \
    }                                                                                   \
    static void PREFIX##_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)    \
    {                                                                                   \
        PREFIX##_mont_mul(r, a, a, mont);                                               \
    }                                                                                   \
    static int PREFIX##_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits, \
                            const cs_mont *mont, int consttime)                         \
    {                                                                                   \
        xv_ctx c;                                                                       \
        if (ebits > CS_BN_MAX_EXP_BITS || SETUP(&c, mont))                              \
            return -1;                                                                  \
        int ret = xv_exp(&c, r, a, e, ebits, consttime);                                \
        cs_wipe_stack(CS_BN_WIPE_STACK);                                                \
        return ret;                                                                     \
    }

/* Defines PREFIX_exp2, a vector kernel's cs_bn_kernel.exp2 entry, on top of
 * its SETUP function (as XV_KERNEL_ENTRIES). */
#define XV_KERNEL_EXP2(PREFIX, SETUP)                                                    \
    static int PREFIX##_exp2(cs_limb *r, const cs_limb *a0, const cs_limb *e0,           \
                             size_t ebits0, const cs_limb *a1, const cs_limb *e1,        \
                             size_t ebits1, const cs_mont *mont)                         \
    {                                                                                    \
        xv_ctx c;                                                                        \
        if (ebits0 > CS_BN_MAX_EXP_BITS || ebits1 > CS_BN_MAX_EXP_BITS || SETUP(&c, mont)) \
            return -1;                                                                   \
        int ret = xv_exp2(&c, r, a0, e0, ebits0, a1, e1, ebits1);                        \
        cs_wipe_stack(CS_BN_WIPE_STACK);                                                 \
        return ret;                                                                      \
    }

#endif
