/* Constant-time helpers for every kernel family: one each for wiping
 * secrets, building masks and selecting by them, and declassifying a value
 * for the valgrind constant-time tests. No OpenSSL, no allocation. */
#ifndef CRYPTOSHIM_CT_H
#define CRYPTOSHIM_CT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Zeroes n bytes at p; the stores are kept even though p is not read again
 * (the empty asm makes the compiler assume the zeroes are read). */
static inline void cs_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Zeroes `bytes` of the stack just below the caller's frame: where the
 * functions it has called kept their frames, register spills and results.
 * Call it after the work, with at most the depth that work is known to use
 * (tests/unit/kernel_bn_stack.c measures it), so it never reaches further
 * than the work did. */
void cs_wipe_stack(size_t bytes);

/* x, with the compiler barred from knowing anything about its value: a mask
 * passed through it is not turned back into a branch. */
static inline uint64_t cs_ct_opaque(uint64_t x)
{
    __asm__("" : "+r"(x));
    return x;
}

/* All ones when a == b, else zero, without a branch (64-bit; callers with
 * narrower words truncate the mask). */
static inline uint64_t cs_ct_eq_mask(uint64_t a, uint64_t b)
{
    uint64_t d = cs_ct_opaque(a ^ b);
    /* the top bit of (d | -d) is set iff d != 0 */
    return ((d | (0 - d)) >> 63) - 1;
}

/* x where mask is all ones, y where it is zero (mask from cs_ct_eq_mask). */
static inline uint64_t cs_ct_select(uint64_t mask, uint64_t x, uint64_t y)
{
    return (x & mask) | (y & ~mask);
}

/* Declassification for the constant-time tests: marks n bytes at p public
 * for valgrind memcheck. Used only where the algorithm allows the leak
 * (rejection decisions) and on public values derived from secrets. Natively
 * a client request is a few no-op instructions; it is compiled in whenever
 * valgrind's header is present so the ct tests run on the very objects the
 * library uses. CS_NO_VALGRIND turns it off. */
#if !defined(CS_DECLASSIFY) && !defined(CS_NO_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CS_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#endif
#endif
#ifndef CS_DECLASSIFY
#define CS_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#endif
