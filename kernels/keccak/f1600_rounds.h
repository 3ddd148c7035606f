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
        c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
        c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
        c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
        c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
        c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
        d0 = c4 ^ KROL(c1, 1);
        d1 = c0 ^ KROL(c2, 1);
        d2 = c1 ^ KROL(c3, 1);
        d3 = c2 ^ KROL(c4, 1);
        d4 = c3 ^ KROL(c0, 1);
        b0 = a00 ^ d0;
        b1 = KROL(a11 ^ d1, 44);
        b2 = KROL(a22 ^ d2, 43);
        b3 = KROL(a33 ^ d3, 21);
        b4 = KROL(a44 ^ d4, 14);
        e00 = b0 ^ (~b1 & b2);
        e10 = b1 ^ (~b2 & b3);
        e20 = b2 ^ (~b3 & b4);
        e30 = b3 ^ (~b4 & b0);
        e40 = b4 ^ (~b0 & b1);
        e00 ^= KRC(i);
        b0 = KROL(a30 ^ d3, 28);
        b1 = KROL(a41 ^ d4, 20);
        b2 = KROL(a02 ^ d0, 3);
        b3 = KROL(a13 ^ d1, 45);
        b4 = KROL(a24 ^ d2, 61);
        e01 = b0 ^ (~b1 & b2);
        e11 = b1 ^ (~b2 & b3);
        e21 = b2 ^ (~b3 & b4);
        e31 = b3 ^ (~b4 & b0);
        e41 = b4 ^ (~b0 & b1);
        b0 = KROL(a10 ^ d1, 1);
        b1 = KROL(a21 ^ d2, 6);
        b2 = KROL(a32 ^ d3, 25);
        b3 = KROL(a43 ^ d4, 8);
        b4 = KROL(a04 ^ d0, 18);
        e02 = b0 ^ (~b1 & b2);
        e12 = b1 ^ (~b2 & b3);
        e22 = b2 ^ (~b3 & b4);
        e32 = b3 ^ (~b4 & b0);
        e42 = b4 ^ (~b0 & b1);
        b0 = KROL(a40 ^ d4, 27);
        b1 = KROL(a01 ^ d0, 36);
        b2 = KROL(a12 ^ d1, 10);
        b3 = KROL(a23 ^ d2, 15);
        b4 = KROL(a34 ^ d3, 56);
        e03 = b0 ^ (~b1 & b2);
        e13 = b1 ^ (~b2 & b3);
        e23 = b2 ^ (~b3 & b4);
        e33 = b3 ^ (~b4 & b0);
        e43 = b4 ^ (~b0 & b1);
        b0 = KROL(a20 ^ d2, 62);
        b1 = KROL(a31 ^ d3, 55);
        b2 = KROL(a42 ^ d4, 39);
        b3 = KROL(a03 ^ d0, 41);
        b4 = KROL(a14 ^ d1, 2);
        e04 = b0 ^ (~b1 & b2);
        e14 = b1 ^ (~b2 & b3);
        e24 = b2 ^ (~b3 & b4);
        e34 = b3 ^ (~b4 & b0);
        e44 = b4 ^ (~b0 & b1);

        c0 = e00 ^ e01 ^ e02 ^ e03 ^ e04;
        c1 = e10 ^ e11 ^ e12 ^ e13 ^ e14;
        c2 = e20 ^ e21 ^ e22 ^ e23 ^ e24;
        c3 = e30 ^ e31 ^ e32 ^ e33 ^ e34;
        c4 = e40 ^ e41 ^ e42 ^ e43 ^ e44;
        d0 = c4 ^ KROL(c1, 1);
        d1 = c0 ^ KROL(c2, 1);
        d2 = c1 ^ KROL(c3, 1);
        d3 = c2 ^ KROL(c4, 1);
        d4 = c3 ^ KROL(c0, 1);
        b0 = e00 ^ d0;
        b1 = KROL(e11 ^ d1, 44);
        b2 = KROL(e22 ^ d2, 43);
        b3 = KROL(e33 ^ d3, 21);
        b4 = KROL(e44 ^ d4, 14);
        a00 = b0 ^ (~b1 & b2);
        a10 = b1 ^ (~b2 & b3);
        a20 = b2 ^ (~b3 & b4);
        a30 = b3 ^ (~b4 & b0);
        a40 = b4 ^ (~b0 & b1);
        a00 ^= KRC(i + 1);
        b0 = KROL(e30 ^ d3, 28);
        b1 = KROL(e41 ^ d4, 20);
        b2 = KROL(e02 ^ d0, 3);
        b3 = KROL(e13 ^ d1, 45);
        b4 = KROL(e24 ^ d2, 61);
        a01 = b0 ^ (~b1 & b2);
        a11 = b1 ^ (~b2 & b3);
        a21 = b2 ^ (~b3 & b4);
        a31 = b3 ^ (~b4 & b0);
        a41 = b4 ^ (~b0 & b1);
        b0 = KROL(e10 ^ d1, 1);
        b1 = KROL(e21 ^ d2, 6);
        b2 = KROL(e32 ^ d3, 25);
        b3 = KROL(e43 ^ d4, 8);
        b4 = KROL(e04 ^ d0, 18);
        a02 = b0 ^ (~b1 & b2);
        a12 = b1 ^ (~b2 & b3);
        a22 = b2 ^ (~b3 & b4);
        a32 = b3 ^ (~b4 & b0);
        a42 = b4 ^ (~b0 & b1);
        b0 = KROL(e40 ^ d4, 27);
        b1 = KROL(e01 ^ d0, 36);
        b2 = KROL(e12 ^ d1, 10);
        b3 = KROL(e23 ^ d2, 15);
        b4 = KROL(e34 ^ d3, 56);
        a03 = b0 ^ (~b1 & b2);
        a13 = b1 ^ (~b2 & b3);
        a23 = b2 ^ (~b3 & b4);
        a33 = b3 ^ (~b4 & b0);
        a43 = b4 ^ (~b0 & b1);
        b0 = KROL(e20 ^ d2, 62);
        b1 = KROL(e31 ^ d3, 55);
        b2 = KROL(e42 ^ d4, 39);
        b3 = KROL(e03 ^ d0, 41);
        b4 = KROL(e14 ^ d1, 2);
        a04 = b0 ^ (~b1 & b2);
        a14 = b1 ^ (~b2 & b3);
        a24 = b2 ^ (~b3 & b4);
        a34 = b3 ^ (~b4 & b0);
        a44 = b4 ^ (~b0 & b1);
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
#undef KECCAK_ROUNDS_FN
#undef KT
#undef KLD
#undef KST
#undef KRC
