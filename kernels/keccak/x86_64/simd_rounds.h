/* Keccak-f[1600] rounds as a template for 25 SIMD registers, one round per
 * loop iteration: register i holds lane i of every state (the interleaved
 * layouts of keccak.h), so each step is the scalar one on vectors. The
 * includer defines
 *   KECCAK_SIMD_FN     the name of the static inline function to define,
 *                      taking the state pointer sv;
 *   V                  the register type;
 *   VLD(i), VST(i, v)  load and store register i of sv;
 *   XOR(a, b), XOR3(a, b, c), X5(a, b, c, d, e), ROL(x, n)  exclusive or
 *                      of two, three and five registers, 64-bit rotation
 *                      left by a constant;
 *   CHI(a, b, c)       a ^ (~b & c);
 *   VRC(i)             round constant i in every 64-bit element.
 * The round body was written out by a script from the lane-index formulas
 * b[y + 5((2x + 3y) mod 5)] = rot(a[x + 5y] ^ d[x], rho[x + 5y]);
 * a = b ^ (~b[x+1] & b[x+2]), with theta's d[x] = c[x-1] ^ rot(c[x+1], 1)
 * never formed: a ^ c[x-1] ^ r[x], r[x] = rot(c[x+1], 1), is one
 * three-input XOR (vpternlogq), five operations a round fewer than
 * forming d first. Used by x4_avx512.c and x8_avx512.c (the
 * AVX2 ones go plane by plane, x4_planes_avx2.S); KECCAK_SIMD_FN is
 * undefined at the end, the operations (avx512_ops.h) stay. */
#include "../keccak_internal.h"

static inline __attribute__((always_inline)) void KECCAK_SIMD_FN(uint64_t *sv)
{
#define KECCAK_SIMD_LD(xy, i) V a##i = VLD(i);
    CS_KECCAK_LANES(KECCAK_SIMD_LD)
#undef KECCAK_SIMD_LD
    V b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18,
        b19, b20, b21, b22, b23, b24, c0, c1, c2, c3, c4, r0, r1, r2, r3, r4;
    for (unsigned i = 0; i < 24; i++) {
        c0 = X5(a0, a5, a10, a15, a20);
        c1 = X5(a1, a6, a11, a16, a21);
        c2 = X5(a2, a7, a12, a17, a22);
        c3 = X5(a3, a8, a13, a18, a23);
        c4 = X5(a4, a9, a14, a19, a24);
        r0 = ROL(c1, 1);
        r1 = ROL(c2, 1);
        r2 = ROL(c3, 1);
        r3 = ROL(c4, 1);
        r4 = ROL(c0, 1);
        b0 = XOR3(a0, c4, r0);
        b10 = ROL(XOR3(a1, c0, r1), 1);
        b20 = ROL(XOR3(a2, c1, r2), 62);
        b5 = ROL(XOR3(a3, c2, r3), 28);
        b15 = ROL(XOR3(a4, c3, r4), 27);
        b16 = ROL(XOR3(a5, c4, r0), 36);
        b1 = ROL(XOR3(a6, c0, r1), 44);
        b11 = ROL(XOR3(a7, c1, r2), 6);
        b21 = ROL(XOR3(a8, c2, r3), 55);
        b6 = ROL(XOR3(a9, c3, r4), 20);
        b7 = ROL(XOR3(a10, c4, r0), 3);
        b17 = ROL(XOR3(a11, c0, r1), 10);
        b2 = ROL(XOR3(a12, c1, r2), 43);
        b12 = ROL(XOR3(a13, c2, r3), 25);
        b22 = ROL(XOR3(a14, c3, r4), 39);
        b23 = ROL(XOR3(a15, c4, r0), 41);
        b8 = ROL(XOR3(a16, c0, r1), 45);
        b18 = ROL(XOR3(a17, c1, r2), 15);
        b3 = ROL(XOR3(a18, c2, r3), 21);
        b13 = ROL(XOR3(a19, c3, r4), 8);
        b14 = ROL(XOR3(a20, c4, r0), 18);
        b24 = ROL(XOR3(a21, c0, r1), 2);
        b9 = ROL(XOR3(a22, c1, r2), 61);
        b19 = ROL(XOR3(a23, c2, r3), 56);
        b4 = ROL(XOR3(a24, c3, r4), 14);
        a0 = CHI(b0, b1, b2);
        a1 = CHI(b1, b2, b3);
        a2 = CHI(b2, b3, b4);
        a3 = CHI(b3, b4, b0);
        a4 = CHI(b4, b0, b1);
        a5 = CHI(b5, b6, b7);
        a6 = CHI(b6, b7, b8);
        a7 = CHI(b7, b8, b9);
        a8 = CHI(b8, b9, b5);
        a9 = CHI(b9, b5, b6);
        a10 = CHI(b10, b11, b12);
        a11 = CHI(b11, b12, b13);
        a12 = CHI(b12, b13, b14);
        a13 = CHI(b13, b14, b10);
        a14 = CHI(b14, b10, b11);
        a15 = CHI(b15, b16, b17);
        a16 = CHI(b16, b17, b18);
        a17 = CHI(b17, b18, b19);
        a18 = CHI(b18, b19, b15);
        a19 = CHI(b19, b15, b16);
        a20 = CHI(b20, b21, b22);
        a21 = CHI(b21, b22, b23);
        a22 = CHI(b22, b23, b24);
        a23 = CHI(b23, b24, b20);
        a24 = CHI(b24, b20, b21);
        a0 = XOR(a0, VRC(i));
    }
#define KECCAK_SIMD_ST(xy, i) VST(i, a##i);
    CS_KECCAK_LANES(KECCAK_SIMD_ST)
#undef KECCAK_SIMD_ST
}

#undef KECCAK_SIMD_FN
