/* Keccak-f[1600] on two states at once with GCC/clang vector extensions
 * (two 64-bit lanes per 128-bit vector): SSE2 on any x86-64, VX on s390x
 * z13+, plain scalar pairs elsewhere. Backs the portable keccakf1600_x4,
 * whose interleaved layout (s[4*i + j]) puts lane i of states 0,1 and of
 * states 2,3 side by side, so no shuffling is needed. */
#include <string.h>

#include "mldsa_portable.h"

typedef uint64_t v2 __attribute__((vector_size(16)));

#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

static inline v2 ld(const uint64_t *p)
{
    v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st(uint64_t *p, v2 v)
{
    memcpy(p, &v, sizeof v);
}

/* Two permutations: lane i of state j (j = 0, 1) at s[4*i + j]. */
static void keccakf1600_x2(uint64_t *s)
{
    v2 a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
    v2 e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;
    v2 b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

    a00 = ld(s + 0);
    a10 = ld(s + 4);
    a20 = ld(s + 8);
    a30 = ld(s + 12);
    a40 = ld(s + 16);
    a01 = ld(s + 20);
    a11 = ld(s + 24);
    a21 = ld(s + 28);
    a31 = ld(s + 32);
    a41 = ld(s + 36);
    a02 = ld(s + 40);
    a12 = ld(s + 44);
    a22 = ld(s + 48);
    a32 = ld(s + 52);
    a42 = ld(s + 56);
    a03 = ld(s + 60);
    a13 = ld(s + 64);
    a23 = ld(s + 68);
    a33 = ld(s + 72);
    a43 = ld(s + 76);
    a04 = ld(s + 80);
    a14 = ld(s + 84);
    a24 = ld(s + 88);
    a34 = ld(s + 92);
    a44 = ld(s + 96);
    for (unsigned i = 0; i < 24; i += 2) {
        v2 rc0 = {cs_keccak_rc[i], cs_keccak_rc[i]};
        v2 rc1 = {cs_keccak_rc[i + 1], cs_keccak_rc[i + 1]};
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
        e00 ^= rc0;
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
        a00 ^= rc1;
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
    st(s + 0, a00);
    st(s + 4, a10);
    st(s + 8, a20);
    st(s + 12, a30);
    st(s + 16, a40);
    st(s + 20, a01);
    st(s + 24, a11);
    st(s + 28, a21);
    st(s + 32, a31);
    st(s + 36, a41);
    st(s + 40, a02);
    st(s + 44, a12);
    st(s + 48, a22);
    st(s + 52, a32);
    st(s + 56, a42);
    st(s + 60, a03);
    st(s + 64, a13);
    st(s + 68, a23);
    st(s + 72, a33);
    st(s + 76, a43);
    st(s + 80, a04);
    st(s + 84, a14);
    st(s + 88, a24);
    st(s + 92, a34);
    st(s + 96, a44);
}

/* Four permutations, interleaved lanes (s[4*i + j] = lane i of state j). */
void cs_keccakf1600_x4_vec(uint64_t s[100])
{
    keccakf1600_x2(s);
    keccakf1600_x2(s + 2);
}
