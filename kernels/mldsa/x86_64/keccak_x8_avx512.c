/* Eight Keccak-f[1600] permutations at once on 512-bit registers (lane i
 * of state j is s[8*i + j]): the AVX-512 4-way permutation widened. Zen 4
 * runs 512-bit operations as two 256-bit halves, yet this costs about 1205
 * cycles against 1447 for two 4-way calls (fewer instructions, fewer
 * spills). Used by ExpandA/ExpandS/ExpandMask of the "avx512" table
 * (expand_avx512.c). */
#include "avx2.h"
#include "keccak_avx512_ops.h"


/* Round body as in keccak_x4_avx512.c, on eight lanes per register. */
void cs_keccakf1600_x8_avx512(uint64_t s[200])
{
    __m512i *v = (__m512i *)s;
    __m512i a0 = _mm512_loadu_si512(v + 0), a1 = _mm512_loadu_si512(v + 1),
            a2 = _mm512_loadu_si512(v + 2), a3 = _mm512_loadu_si512(v + 3),
            a4 = _mm512_loadu_si512(v + 4), a5 = _mm512_loadu_si512(v + 5),
            a6 = _mm512_loadu_si512(v + 6), a7 = _mm512_loadu_si512(v + 7),
            a8 = _mm512_loadu_si512(v + 8), a9 = _mm512_loadu_si512(v + 9),
            a10 = _mm512_loadu_si512(v + 10), a11 = _mm512_loadu_si512(v + 11),
            a12 = _mm512_loadu_si512(v + 12), a13 = _mm512_loadu_si512(v + 13),
            a14 = _mm512_loadu_si512(v + 14), a15 = _mm512_loadu_si512(v + 15),
            a16 = _mm512_loadu_si512(v + 16), a17 = _mm512_loadu_si512(v + 17),
            a18 = _mm512_loadu_si512(v + 18), a19 = _mm512_loadu_si512(v + 19),
            a20 = _mm512_loadu_si512(v + 20), a21 = _mm512_loadu_si512(v + 21),
            a22 = _mm512_loadu_si512(v + 22), a23 = _mm512_loadu_si512(v + 23),
            a24 = _mm512_loadu_si512(v + 24);
    __m512i b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18,
        b19, b20, b21, b22, b23, b24, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    for (unsigned i = 0; i < 24; i++) {
        c0 = X5(a0, a5, a10, a15, a20);
        c1 = X5(a1, a6, a11, a16, a21);
        c2 = X5(a2, a7, a12, a17, a22);
        c3 = X5(a3, a8, a13, a18, a23);
        c4 = X5(a4, a9, a14, a19, a24);
        d0 = XOR(c4, ROL(c1, 1));
        d1 = XOR(c0, ROL(c2, 1));
        d2 = XOR(c1, ROL(c3, 1));
        d3 = XOR(c2, ROL(c4, 1));
        d4 = XOR(c3, ROL(c0, 1));
        b0 = XOR(a0, d0);
        b10 = ROL(XOR(a1, d1), 1);
        b20 = ROL(XOR(a2, d2), 62);
        b5 = ROL(XOR(a3, d3), 28);
        b15 = ROL(XOR(a4, d4), 27);
        b16 = ROL(XOR(a5, d0), 36);
        b1 = ROL(XOR(a6, d1), 44);
        b11 = ROL(XOR(a7, d2), 6);
        b21 = ROL(XOR(a8, d3), 55);
        b6 = ROL(XOR(a9, d4), 20);
        b7 = ROL(XOR(a10, d0), 3);
        b17 = ROL(XOR(a11, d1), 10);
        b2 = ROL(XOR(a12, d2), 43);
        b12 = ROL(XOR(a13, d3), 25);
        b22 = ROL(XOR(a14, d4), 39);
        b23 = ROL(XOR(a15, d0), 41);
        b8 = ROL(XOR(a16, d1), 45);
        b18 = ROL(XOR(a17, d2), 15);
        b3 = ROL(XOR(a18, d3), 21);
        b13 = ROL(XOR(a19, d4), 8);
        b14 = ROL(XOR(a20, d0), 18);
        b24 = ROL(XOR(a21, d1), 2);
        b9 = ROL(XOR(a22, d2), 61);
        b19 = ROL(XOR(a23, d3), 56);
        b4 = ROL(XOR(a24, d4), 14);
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
        a0 = XOR(a0, _mm512_set1_epi64((long long)cs_keccak_rc[i]));
    }
    _mm512_storeu_si512(v + 0, a0), _mm512_storeu_si512(v + 1, a1);
    _mm512_storeu_si512(v + 2, a2), _mm512_storeu_si512(v + 3, a3);
    _mm512_storeu_si512(v + 4, a4), _mm512_storeu_si512(v + 5, a5);
    _mm512_storeu_si512(v + 6, a6), _mm512_storeu_si512(v + 7, a7);
    _mm512_storeu_si512(v + 8, a8), _mm512_storeu_si512(v + 9, a9);
    _mm512_storeu_si512(v + 10, a10), _mm512_storeu_si512(v + 11, a11);
    _mm512_storeu_si512(v + 12, a12), _mm512_storeu_si512(v + 13, a13);
    _mm512_storeu_si512(v + 14, a14), _mm512_storeu_si512(v + 15, a15);
    _mm512_storeu_si512(v + 16, a16), _mm512_storeu_si512(v + 17, a17);
    _mm512_storeu_si512(v + 18, a18), _mm512_storeu_si512(v + 19, a19);
    _mm512_storeu_si512(v + 20, a20), _mm512_storeu_si512(v + 21, a21);
    _mm512_storeu_si512(v + 22, a22), _mm512_storeu_si512(v + 23, a23);
    _mm512_storeu_si512(v + 24, a24);
}
