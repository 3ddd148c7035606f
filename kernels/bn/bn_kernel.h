/* The narrow interface between the shim and big-number kernels.
 *
 * Numbers are little-endian arrays of cs_limb (least significant limb first),
 * all of the modulus' limb count n. No OpenSSL types: the shim converts. */
#ifndef CRYPTOSHIM_BN_KERNEL_H
#define CRYPTOSHIM_BN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu_features.h"
#include "../impl.h"

#if defined(__SIZEOF_INT128__) && !defined(CS_BN_LIMB32)
typedef uint64_t cs_limb;
typedef unsigned __int128 cs_dlimb;
#define CS_LIMB_BITS 64
#else
typedef uint32_t cs_limb;
typedef uint64_t cs_dlimb;
#define CS_LIMB_BITS 32
#endif
#define CS_LIMB_BYTES (CS_LIMB_BITS / 8)

/* Moduli the kernels accept, in bits. */
#define CS_BN_MIN_BITS 256
#define CS_BN_MAX_BITS 8192
#define CS_BN_MAX_LIMBS (CS_BN_MAX_BITS / CS_LIMB_BITS)
/* Longest exponent accepted (bits); longer ones go to libcrypto. */
#define CS_BN_MAX_EXP_BITS (2 * CS_BN_MAX_BITS)
/* Stack below a kernel's exp, exp2 or exp_x2 entry wiped after the work
 * (cs_wipe_stack, kernels/ct.h): at least the deepest callee chain of any
 * kernel (measured by tests/unit/kernel_bn_stack.c, with margin). */
#define CS_BN_WIPE_STACK 8192

/* Words (cs_limb) a number may take in a kernel's own form: the modulus'
 * limbs, or more smaller digits (4096 bits in 28-bit digits plus headroom,
 * rounded to whole vectors, is 148 64-bit words). */
#define CS_BN_MAX_WORDS (CS_BN_MAX_LIMBS + 32)

struct cs_bn_kernel;

/* r = a*b/R' mod m in a kernel's number form and Montgomery radix R'
 * (almost-Montgomery kernels leave r below 2m); r may alias a or b. ctx is
 * the kernel's prepared context (cs_bn_prep), or a paired one. */
typedef void cs_bn_mul_fn(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx);

/* out = entry idx[l] of tab for each lane l (one lane, or two for a paired
 * context), entries of `words` words; every entry is read under a mask, so
 * no address depends on the (secret) indices. */
typedef void cs_bn_select_fn(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                             const unsigned *idx);

/* A kernel's context for one modulus, as its prepare primitive fills it
 * (kernels/bn/engine.h): digit width, arithmetic specialised to the size and
 * the constants in the kernel's form. Held with the modulus (cs_mont.prep,
 * cached by the shim) so nothing is rebuilt per call. Public data only, and
 * no pointer into other memory: copying a cs_mont copies it whole. */
typedef struct cs_bn_prep {
    const struct cs_bn_kernel *kernel; /* who prepared it; NULL: empty */
    size_t n;              /* limbs of m */
    size_t words;          /* words a number takes in the kernel's form */
    size_t iters;          /* digits used, w*iters >= bits (+2 for almost-Montgomery) */
    unsigned w;            /* digit bits; R' = 2^(w*iters) */
    cs_limb n0;            /* -m^-1 mod 2^w */
    cs_bn_mul_fn *mul;     /* multiplication, specialised to the size */
    cs_bn_mul_fn *sqr;     /* squaring (called with b == a) */
    cs_bn_select_fn *select; /* constant-time table read */
    unsigned max_window;   /* widest fixed window worth its table (measured) */
    cs_limb m[CS_BN_MAX_WORDS] __attribute__((aligned(64)));    /* m in digits */
    cs_limb rr[CS_BN_MAX_WORDS] __attribute__((aligned(64)));   /* R'^2 mod m */
    cs_limb rx[CS_BN_MAX_WORDS] __attribute__((aligned(64)));   /* R'^2/R mod m */
    cs_limb onem[CS_BN_MAX_WORDS] __attribute__((aligned(64))); /* R' mod m */
} cs_bn_prep;

/* Montgomery constants for one odd modulus m of n limbs, R = 2^(n*CS_LIMB_BITS).
 * Built once per modulus by cs_mont_init and cached by the shim. The modulus
 * is public: building it need not be constant time. */
typedef struct cs_mont {
    size_t n;                      /* limbs in m, top limb may be zero */
    unsigned bits;                 /* bit length of m */
    cs_limb n0;                    /* -m^-1 mod 2^CS_LIMB_BITS */
    cs_limb m[CS_BN_MAX_LIMBS];    /* the modulus */
    cs_limb rr[CS_BN_MAX_LIMBS];   /* R^2 mod m */
    cs_limb one[CS_BN_MAX_LIMBS];  /* R mod m (1 in Montgomery form) */
    cs_bn_prep prep;               /* one kernel's context (cs_bn_prepare); empty after init */
} cs_mont;

/* Fills mont for the odd modulus m (n limbs, 1 <= n <= CS_BN_MAX_LIMBS).
 * Returns 0, or -1 if m is even or too long. */
int cs_mont_init(cs_mont *mont, const cs_limb *m, size_t n);

/* r = a*a/R mod m with the portable kernel, for public values only (as
 * cs_mont_init's): without the kernel entry's wipe of the stack. */
void cs_mont_sqr_public(cs_limb *r, const cs_limb *a, const cs_mont *mont);

struct cs_bn_ops;

/* One implementation of Montgomery arithmetic. Selected by the shim's
 * dispatcher; each is tested alone against the portable one. A kernel
 * supplies primitives (ops); the entries below are the exponentiation
 * engine's (kernels/bn/engine.c) on top of them, defined by CS_BN_KERNEL. */
typedef struct cs_bn_kernel {
    CS_IMPL_HEAD;           /* name, cpu_features (kernels/impl.h) */
    unsigned min_bits;      /* modulus sizes served, inclusive */
    unsigned max_bits;
    const struct cs_bn_ops *ops; /* the kernel's primitives */

    /* r = a*b/R mod m, for a, b < m; r may alias a or b. */
    void (*mont_mul)(cs_limb *r, const cs_limb *a, const cs_limb *b,
                     const cs_mont *mont);
    /* r = a*a/R mod m, for a < m; r may alias a. */
    void (*mont_sqr)(cs_limb *r, const cs_limb *a, const cs_mont *mont);
    /* r = a^e mod m for a < m (ordinary, not Montgomery form), e given as
     * ceil(ebits/CS_LIMB_BITS) limbs of which the low ebits bits are used.
     * consttime != 0: e is secret; no branch or memory index depends on it
     * (fixed window, every table entry read under a mask, all ebits bits
     * processed). Returns 0, or -1 if the kernel cannot serve the input. */
    int (*exp)(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
               const cs_mont *mont, int consttime);
    /* Optional (NULL when absent): two independent secret-exponent
     * exponentiations, r0 = a0^e0 mod m0 and r1 = a1^e1 mod m1, in one call
     * (RSA's CRT halves), with exp's conventions and constant-time rules for
     * each (the work depends only on the moduli's and exponents' lengths).
     * Returns 0, or -1 if the kernel cannot serve this pair. */
    int (*exp_x2)(cs_limb *r0, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
                  const cs_mont *mont0, cs_limb *r1, const cs_limb *a1, const cs_limb *e1,
                  size_t ebits1, const cs_mont *mont1);
    /* Optional (NULL when absent): r = a0^e0 * a1^e1 mod m for a0, a1 < m
     * (ordinary form) and one modulus, both exponents public (DSA
     * verification), each given as exp's e with its own bit count (0 allowed:
     * that factor is 1). Variable time. Returns 0, or -1 if the kernel cannot
     * serve the input. */
    int (*exp2)(cs_limb *r, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
                const cs_limb *a1, const cs_limb *e1, size_t ebits1, const cs_mont *mont);
} cs_bn_kernel;

/* Prepares kernel k's context for mont's modulus into mont->prep (for the
 * modulus cache: later calls with this mont then rebuild nothing). Returns
 * 0, or -1 when k does not serve this modulus (mont->prep left empty). */
int cs_bn_prepare(const cs_bn_kernel *k, cs_mont *mont);

/* The kernels built into this library, NULL-terminated; portable first. */
extern const cs_bn_kernel *const cs_bn_kernels[];
extern const cs_bn_kernel cs_bn_portable;

/* Endian-clean conversions between little-endian bytes and limbs. nbytes may
 * be anything; missing bytes read as zero, extra limbs are zeroed. */
void cs_limbs_from_le_bytes(cs_limb *r, size_t n, const uint8_t *in, size_t nbytes);
void cs_limbs_to_le_bytes(uint8_t *out, size_t nbytes, const cs_limb *a, size_t n);

#endif
