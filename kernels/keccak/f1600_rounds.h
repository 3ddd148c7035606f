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
    b0 = A##00 ^ d0; \
    b1 = KROL(A##11 ^ d1, 44); \
    b2 = KROL(A##22 ^ d2, 43); \
    b3 = KROL(A##33 ^ d3, 21); \
    b4 = KROL(A##44 ^ d4, 14); \
    E##00 = b0 ^ (~b1 & b2); \
    E##10 = b1 ^ (~b2 & b3); \
    E##20 = b2 ^ (~b3 & b4); \
    E##30 = b3 ^ (~b4 & b0); \
    E##40 = b4 ^ (~b0 & b1); \
    E##00 ^= KRC(I); \
    b0 = KROL(A##30 ^ d3, 28); \
    b1 = KROL(A##41 ^ d4, 20); \
    b2 = KROL(A##02 ^ d0, 3); \
    b3 = KROL(A##13 ^ d1, 45); \
    b4 = KROL(A##24 ^ d2, 61); \
    E##01 = b0 ^ (~b1 & b2); \
    E##11 = b1 ^ (~b2 & b3); \
    E##21 = b2 ^ (~b3 & b4); \
    E##31 = b3 ^ (~b4 & b0); \
    E##41 = b4 ^ (~b0 & b1); \
    b0 = KROL(A##10 ^ d1, 1); \
    b1 = KROL(A##21 ^ d2, 6); \
    b2 = KROL(A##32 ^ d3, 25); \
    b3 = KROL(A##43 ^ d4, 8); \
    b4 = KROL(A##04 ^ d0, 18); \
    E##02 = b0 ^ (~b1 & b2); \
    E##12 = b1 ^ (~b2 & b3); \
    E##22 = b2 ^ (~b3 & b4); \
    E##32 = b3 ^ (~b4 & b0); \
    E##42 = b4 ^ (~b0 & b1); \
    b0 = KROL(A##40 ^ d4, 27); \
    b1 = KROL(A##01 ^ d0, 36); \
    b2 = KROL(A##12 ^ d1, 10); \
    b3 = KROL(A##23 ^ d2, 15); \
    b4 = KROL(A##34 ^ d3, 56); \
    E##03 = b0 ^ (~b1 & b2); \
    E##13 = b1 ^ (~b2 & b3); \
    E##23 = b2 ^ (~b3 & b4); \
    E##33 = b3 ^ (~b4 & b0); \
    E##43 = b4 ^ (~b0 & b1); \
    b0 = KROL(A##20 ^ d2, 62); \
    b1 = KROL(A##31 ^ d3, 55); \
    b2 = KROL(A##42 ^ d4, 39); \
    b3 = KROL(A##03 ^ d0, 41); \
    b4 = KROL(A##14 ^ d1, 2); \
    E##04 = b0 ^ (~b1 & b2); \
    E##14 = b1 ^ (~b2 & b3); \
    E##24 = b2 ^ (~b3 & b4); \
    E##34 = b3 ^ (~b4 & b0); \
    E##44 = b4 ^ (~b0 & b1)

static inline __attribute__((always_inline)) void KECCAK_ROUNDS_FN(uint64_t *s)
{
    KT a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
    KT e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;
    KT b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

    a00 = KLD(0);
    a10 = KLD(1);
    a20 = KLD(2);
    a30 = KLD(3);
    a40 = KLD(4);
    a01 = KLD(5);
    a11 = KLD(6);
    a21 = KLD(7);
    a31 = KLD(8);
    a41 = KLD(9);
    a02 = KLD(10);
    a12 = KLD(11);
    a22 = KLD(12);
    a32 = KLD(13);
    a42 = KLD(14);
    a03 = KLD(15);
    a13 = KLD(16);
    a23 = KLD(17);
    a33 = KLD(18);
    a43 = KLD(19);
    a04 = KLD(20);
    a14 = KLD(21);
    a24 = KLD(22);
    a34 = KLD(23);
    a44 = KLD(24);
    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, i);
        KECCAK_ROUND(e, a, i + 1);
    }
    KST(0, a00);
    KST(1, a10);
    KST(2, a20);
    KST(3, a30);
    KST(4, a40);
    KST(5, a01);
    KST(6, a11);
    KST(7, a21);
    KST(8, a31);
    KST(9, a41);
    KST(10, a02);
    KST(11, a12);
    KST(12, a22);
    KST(13, a32);
    KST(14, a42);
    KST(15, a03);
    KST(16, a13);
    KST(17, a23);
    KST(18, a33);
    KST(19, a43);
    KST(20, a04);
    KST(21, a14);
    KST(22, a24);
    KST(23, a34);
    KST(24, a44);
}

#undef KROL
#undef KECCAK_ROUND
#undef KECCAK_ROUNDS_FN
#undef KT
#undef KLD
#undef KST
#undef KRC
