/* Integer helpers the compiler calls on SPARC v7 (no hardware multiply or
 * divide): 64-bit multiply on top of the mulscc routines in v7_mul.S, and
 * 32/64-bit division by shift and subtract. They stand in for libgcc's and
 * the C library's versions, which Debian builds with the v8 instructions,
 * so code built with -mcpu=v7 and linked with these never executes umul,
 * smul, udiv or sdiv. Hidden: they bind only inside the linking module.
 * This file must be compiled with -mcpu=v7 and must not use / or %. */
#include <stdint.h>

#define HIDDEN __attribute__((visibility("hidden")))

uint64_t cs_v7_umul64(uint32_t a, uint32_t b) HIDDEN;

/* 64-bit product modulo 2^64 (signed or unsigned alike). */
HIDDEN uint64_t __muldi3(uint64_t a, uint64_t b);
HIDDEN uint64_t __muldi3(uint64_t a, uint64_t b)
{
    uint32_t al = (uint32_t)a, ah = (uint32_t)(a >> 32);
    uint32_t bl = (uint32_t)b, bh = (uint32_t)(b >> 32);
    uint64_t p = cs_v7_umul64(al, bl);
    uint32_t hi = (uint32_t)(p >> 32) + al * bh + ah * bl; /* .umul, low words */
    return ((uint64_t)hi << 32) | (uint32_t)p;
}

/* Unsigned 64-bit n / d and n % d by restoring division, one quotient bit
 * per step from the highest bit of n that can be set. d == 0 gives an
 * all-ones quotient (v7 has no divide trap to imitate). */
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;
    int i = 63;
    while (i >= 0 && !((n >> i) & 1))
        i--;
    for (; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    if (d == 0)
        q = ~(uint64_t)0;
    *rem = r;
    return q;
}

HIDDEN uint64_t __udivdi3(uint64_t n, uint64_t d);
HIDDEN uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    return udivmod64(n, d, &r);
}

HIDDEN uint64_t __umoddi3(uint64_t n, uint64_t d);
HIDDEN uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}

/* Magnitude of a signed value as unsigned (two's complement). */
static uint64_t mag64(int64_t x)
{
    return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

/* Signed division truncates toward zero; the remainder takes n's sign. */
HIDDEN int64_t __divdi3(int64_t n, int64_t d);
HIDDEN int64_t __divdi3(int64_t n, int64_t d)
{
    uint64_t r, q = udivmod64(mag64(n), mag64(d), &r);
    return (int64_t)(((n < 0) != (d < 0)) ? (uint64_t)0 - q : q);
}

HIDDEN int64_t __moddi3(int64_t n, int64_t d);
HIDDEN int64_t __moddi3(int64_t n, int64_t d)
{
    uint64_t r;
    udivmod64(mag64(n), mag64(d), &r);
    return (int64_t)(n < 0 ? (uint64_t)0 - r : r);
}

/* The 32-bit routines, under the names the compiler calls (.udiv etc.);
 * their argument and result registers match the C convention. */
HIDDEN uint32_t cs_v7_udiv(uint32_t n, uint32_t d) __asm__(".udiv");
HIDDEN uint32_t cs_v7_udiv(uint32_t n, uint32_t d)
{
    uint64_t r;
    return (uint32_t)udivmod64(n, d, &r);
}

HIDDEN uint32_t cs_v7_urem(uint32_t n, uint32_t d) __asm__(".urem");
HIDDEN uint32_t cs_v7_urem(uint32_t n, uint32_t d)
{
    uint64_t r;
    udivmod64(n, d, &r);
    return (uint32_t)r;
}

HIDDEN int32_t cs_v7_div(int32_t n, int32_t d) __asm__(".div");
HIDDEN int32_t cs_v7_div(int32_t n, int32_t d)
{
    return (int32_t)__divdi3(n, d);
}

HIDDEN int32_t cs_v7_rem(int32_t n, int32_t d) __asm__(".rem");
HIDDEN int32_t cs_v7_rem(int32_t n, int32_t d)
{
    return (int32_t)__moddi3(n, d);
}
