/* Portable Keccak-f[1600]: all 25 lanes in locals, two rounds per loop
 * iteration (state A -> E -> A) so no lane copies are needed between rounds.
 * Lanes are native uint64_t; byte order is handled by the sponge code. */
#include "mldsa_portable.h"

#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/* Round constants (shared by every permutation, mldsa_portable.h). */
const uint64_t cs_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* One Keccak-f[1600] permutation of s (lane x + 5y = s[x + 5y]). */
void cs_keccakf1600_portable(uint64_t s[25])
{
    uint64_t a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
    uint64_t e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;
    uint64_t b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

    a00 = s[0];
    a10 = s[1];
    a20 = s[2];
    a30 = s[3];
    a40 = s[4];
    a01 = s[5];
    a11 = s[6];
    a21 = s[7];
    a31 = s[8];
    a41 = s[9];
    a02 = s[10];
    a12 = s[11];
    a22 = s[12];
    a32 = s[13];
    a42 = s[14];
    a03 = s[15];
    a13 = s[16];
    a23 = s[17];
    a33 = s[18];
    a43 = s[19];
    a04 = s[20];
    a14 = s[21];
    a24 = s[22];
    a34 = s[23];
    a44 = s[24];
    for (unsigned i = 0; i < 24; i += 2) {
        c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
        c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
        c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
        c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
        c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
        d0 = c4 ^ ROL(c1, 1);
        d1 = c0 ^ ROL(c2, 1);
        d2 = c1 ^ ROL(c3, 1);
        d3 = c2 ^ ROL(c4, 1);
        d4 = c3 ^ ROL(c0, 1);
        b0 = a00 ^ d0;
        b1 = ROL(a11 ^ d1, 44);
        b2 = ROL(a22 ^ d2, 43);
        b3 = ROL(a33 ^ d3, 21);
        b4 = ROL(a44 ^ d4, 14);
        e00 = b0 ^ (~b1 & b2);
        e10 = b1 ^ (~b2 & b3);
        e20 = b2 ^ (~b3 & b4);
        e30 = b3 ^ (~b4 & b0);
        e40 = b4 ^ (~b0 & b1);
        e00 ^= cs_keccak_rc[i];
        b0 = ROL(a30 ^ d3, 28);
        b1 = ROL(a41 ^ d4, 20);
        b2 = ROL(a02 ^ d0, 3);
        b3 = ROL(a13 ^ d1, 45);
        b4 = ROL(a24 ^ d2, 61);
        e01 = b0 ^ (~b1 & b2);
        e11 = b1 ^ (~b2 & b3);
        e21 = b2 ^ (~b3 & b4);
        e31 = b3 ^ (~b4 & b0);
        e41 = b4 ^ (~b0 & b1);
        b0 = ROL(a10 ^ d1, 1);
        b1 = ROL(a21 ^ d2, 6);
        b2 = ROL(a32 ^ d3, 25);
        b3 = ROL(a43 ^ d4, 8);
        b4 = ROL(a04 ^ d0, 18);
        e02 = b0 ^ (~b1 & b2);
        e12 = b1 ^ (~b2 & b3);
        e22 = b2 ^ (~b3 & b4);
        e32 = b3 ^ (~b4 & b0);
        e42 = b4 ^ (~b0 & b1);
        b0 = ROL(a40 ^ d4, 27);
        b1 = ROL(a01 ^ d0, 36);
        b2 = ROL(a12 ^ d1, 10);
        b3 = ROL(a23 ^ d2, 15);
        b4 = ROL(a34 ^ d3, 56);
        e03 = b0 ^ (~b1 & b2);
        e13 = b1 ^ (~b2 & b3);
        e23 = b2 ^ (~b3 & b4);
        e33 = b3 ^ (~b4 & b0);
        e43 = b4 ^ (~b0 & b1);
        b0 = ROL(a20 ^ d2, 62);
        b1 = ROL(a31 ^ d3, 55);
        b2 = ROL(a42 ^ d4, 39);
        b3 = ROL(a03 ^ d0, 41);
        b4 = ROL(a14 ^ d1, 2);
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
        d0 = c4 ^ ROL(c1, 1);
        d1 = c0 ^ ROL(c2, 1);
        d2 = c1 ^ ROL(c3, 1);
        d3 = c2 ^ ROL(c4, 1);
        d4 = c3 ^ ROL(c0, 1);
        b0 = e00 ^ d0;
        b1 = ROL(e11 ^ d1, 44);
        b2 = ROL(e22 ^ d2, 43);
        b3 = ROL(e33 ^ d3, 21);
        b4 = ROL(e44 ^ d4, 14);
        a00 = b0 ^ (~b1 & b2);
        a10 = b1 ^ (~b2 & b3);
        a20 = b2 ^ (~b3 & b4);
        a30 = b3 ^ (~b4 & b0);
        a40 = b4 ^ (~b0 & b1);
        a00 ^= cs_keccak_rc[i + 1];
        b0 = ROL(e30 ^ d3, 28);
        b1 = ROL(e41 ^ d4, 20);
        b2 = ROL(e02 ^ d0, 3);
        b3 = ROL(e13 ^ d1, 45);
        b4 = ROL(e24 ^ d2, 61);
        a01 = b0 ^ (~b1 & b2);
        a11 = b1 ^ (~b2 & b3);
        a21 = b2 ^ (~b3 & b4);
        a31 = b3 ^ (~b4 & b0);
        a41 = b4 ^ (~b0 & b1);
        b0 = ROL(e10 ^ d1, 1);
        b1 = ROL(e21 ^ d2, 6);
        b2 = ROL(e32 ^ d3, 25);
        b3 = ROL(e43 ^ d4, 8);
        b4 = ROL(e04 ^ d0, 18);
        a02 = b0 ^ (~b1 & b2);
        a12 = b1 ^ (~b2 & b3);
        a22 = b2 ^ (~b3 & b4);
        a32 = b3 ^ (~b4 & b0);
        a42 = b4 ^ (~b0 & b1);
        b0 = ROL(e40 ^ d4, 27);
        b1 = ROL(e01 ^ d0, 36);
        b2 = ROL(e12 ^ d1, 10);
        b3 = ROL(e23 ^ d2, 15);
        b4 = ROL(e34 ^ d3, 56);
        a03 = b0 ^ (~b1 & b2);
        a13 = b1 ^ (~b2 & b3);
        a23 = b2 ^ (~b3 & b4);
        a33 = b3 ^ (~b4 & b0);
        a43 = b4 ^ (~b0 & b1);
        b0 = ROL(e20 ^ d2, 62);
        b1 = ROL(e31 ^ d3, 55);
        b2 = ROL(e42 ^ d4, 39);
        b3 = ROL(e03 ^ d0, 41);
        b4 = ROL(e14 ^ d1, 2);
        a04 = b0 ^ (~b1 & b2);
        a14 = b1 ^ (~b2 & b3);
        a24 = b2 ^ (~b3 & b4);
        a34 = b3 ^ (~b4 & b0);
        a44 = b4 ^ (~b0 & b1);
    }
    s[0] = a00;
    s[1] = a10;
    s[2] = a20;
    s[3] = a30;
    s[4] = a40;
    s[5] = a01;
    s[6] = a11;
    s[7] = a21;
    s[8] = a31;
    s[9] = a41;
    s[10] = a02;
    s[11] = a12;
    s[12] = a22;
    s[13] = a32;
    s[14] = a42;
    s[15] = a03;
    s[16] = a13;
    s[17] = a23;
    s[18] = a33;
    s[19] = a43;
    s[20] = a04;
    s[21] = a14;
    s[22] = a24;
    s[23] = a34;
    s[24] = a44;
}

/* Four permutations on interleaved lanes (s[4*i + j] = lane i of state j):
 * de-interleaves and runs the single-state code, for backends without a
 * SIMD version and as the reference in tests. */
void cs_keccakf1600_x4_portable(uint64_t s[100])
{
    uint64_t t[25];
    for (unsigned j = 0; j < 4; j++) {
        for (unsigned i = 0; i < 25; i++)
            t[i] = s[4 * i + j];
        cs_keccakf1600_portable(t);
        for (unsigned i = 0; i < 25; i++)
            s[4 * i + j] = t[i];
    }
}
