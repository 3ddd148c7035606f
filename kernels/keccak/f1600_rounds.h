/* Keccak-f[1600] rounds as a template for one lane type: all 25 lanes in
 * locals, two rounds per loop iteration (state A -> E -> A) so no lane is
 * copied between rounds. The includer defines
 *   KECCAK_ROUNDS_FN  the name of the static inline function to define,
 *                     taking the state pointer s;
 *   KT                the lane type (uint64_t, or a GCC vector of them:
 *                     the operators below work on both);
 *   KLD(i), KST(i, v) load and store lane i of s;
 *   KRC(i)            round constant i as a KT.
 * Every use gets the same statements, so the scalar, BMI and 2-way builds
 * compute the same function (kernels/keccak/f1600.c, x2.c,
 * x86_64/f1600_bmi.c). The macros are undefined at the end. */
#include <stdint.h>

#include "keccak_internal.h"

#define KROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/* Plane y of chi's output into the lanes named E##xy (x = 0..4), from
 * the five rho-pi outputs B0..B4 that feed it. */
#define KECCAK_PLANE(E, y, B0, B1, B2, B3, B4) \
    b0 = B0; \
    b1 = B1; \
    b2 = B2; \
    b3 = B3; \
    b4 = B4; \
    E##0##y = b0 ^ (~b1 & b2); \
    E##1##y = b1 ^ (~b2 & b3); \
    E##2##y = b2 ^ (~b3 & b4); \
    E##3##y = b3 ^ (~b4 & b0); \
    E##4##y = b4 ^ (~b0 & b1)

/* One round (theta, rho-pi, chi, iota) from the lanes named A##xy into
 * those named E##xy, with round constant I. */
#define KECCAK_ROUND(A, E, I) \
    c0 = A##00 ^ A##01 ^ A##02 ^ A##03 ^ A##04; \
    c1 = A##10 ^ A##11 ^ A##12 ^ A##13 ^ A##14; \
    c2 = A##20 ^ A##21 ^ A##22 ^ A##23 ^ A##24; \
    c3 = A##30 ^ A##31 ^ A##32 ^ A##33 ^ A##34; \
    c4 = A##40 ^ A##41 ^ A##42 ^ A##43 ^ A##44; \
    d0 = c4 ^ KROL(c1, 1); \
    d1 = c0 ^ KROL(c2, 1); \
    d2 = c1 ^ KROL(c3, 1); \
    d3 = c2 ^ KROL(c4, 1); \
    d4 = c3 ^ KROL(c0, 1); \
    KECCAK_PLANE(E, 0, A##00 ^ d0, KROL(A##11 ^ d1, 44), KROL(A##22 ^ d2, 43), \
                 KROL(A##33 ^ d3, 21), KROL(A##44 ^ d4, 14)); \
    E##00 ^= KRC(I); \
    KECCAK_PLANE(E, 1, KROL(A##30 ^ d3, 28), KROL(A##41 ^ d4, 20), KROL(A##02 ^ d0, 3), \
                 KROL(A##13 ^ d1, 45), KROL(A##24 ^ d2, 61)); \
    KECCAK_PLANE(E, 2, KROL(A##10 ^ d1, 1), KROL(A##21 ^ d2, 6), KROL(A##32 ^ d3, 25), \
                 KROL(A##43 ^ d4, 8), KROL(A##04 ^ d0, 18)); \
    KECCAK_PLANE(E, 3, KROL(A##40 ^ d4, 27), KROL(A##01 ^ d0, 36), KROL(A##12 ^ d1, 10), \
                 KROL(A##23 ^ d2, 15), KROL(A##34 ^ d3, 56)); \
    KECCAK_PLANE(E, 4, KROL(A##20 ^ d2, 62), KROL(A##31 ^ d3, 55), KROL(A##42 ^ d4, 39), \
                 KROL(A##03 ^ d0, 41), KROL(A##14 ^ d1, 2))

/* Declarations, loads and stores of the lanes (CS_KECCAK_LANES). */
#define KECCAK_DECL(xy, i) KT a##xy, e##xy;
#define KECCAK_LD(xy, i) a##xy = KLD(i);
#define KECCAK_ST(xy, i) KST(i, a##xy);

static inline __attribute__((always_inline)) void KECCAK_ROUNDS_FN(uint64_t *s)
{
    CS_KECCAK_LANES(KECCAK_DECL)
    KT b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

    CS_KECCAK_LANES(KECCAK_LD)
    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, i);
        KECCAK_ROUND(e, a, i + 1);
    }
    CS_KECCAK_LANES(KECCAK_ST)
}

#undef KROL
#undef KECCAK_ROUND
#undef KECCAK_PLANE
#undef KECCAK_DECL
#undef KECCAK_LD
#undef KECCAK_ST
#undef KECCAK_ROUNDS_FN
#undef KT
#undef KLD
#undef KST
#undef KRC
