/* Four Keccak-f[1600] permutations with AVX2 (as keccak_x4_avx2.c) and a
 * fifth on 64-bit general registers, in one instruction stream: the first
 * keeps the vector units busy, the second the integer units, so together
 * they cost little more than the four alone. The "avx2" table's ExpandA
 * uses it to absorb keygen's tr = H(pk) (expand_avx2.c). The round body
 * was written out by a script from the lane-index formulas
 * b[y + 5((2x + 3y) mod 5)] = rot(a[x + 5y] ^ d[x], rho[x + 5y]),
 * a = b ^ (~b[x+1] & b[x+2]), vector and scalar statements alternating. */
#include "avx2.h"

static const uint64_t KRC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* Rotate each 64-bit lane left by n (a compile-time constant). */
static inline __attribute__((always_inline)) __m256i rol(__m256i x, int n)
{
    if (n == 8)
        return _mm256_shuffle_epi8(x, _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3,
                                                      2, 1, 0, 7, 14, 13, 12, 11, 10, 9, 8, 15,
                                                      6, 5, 4, 3, 2, 1, 0, 7));
    if (n == 56)
        return _mm256_shuffle_epi8(x, _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5,
                                                      4, 3, 2, 1, 8, 15, 14, 13, 12, 11, 10, 9,
                                                      0, 7, 6, 5, 4, 3, 2, 1));
    return _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - n));
}

#define XOR(a, b) _mm256_xor_si256(a, b)
#define ANDN(a, b) _mm256_andnot_si256(a, b) /* ~a & b */
#define X5(a, b, c, d, e) XOR(XOR(XOR(a, b), XOR(c, d)), e)
#define ROL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

void cs_keccakf1600_x4x1_avx2(uint64_t s4[100], uint64_t s1[25])
{
    __m256i *v = (__m256i *)s4;
    __m256i va0 = _mm256_loadu_si256(v + 0), vb0;
    __m256i va1 = _mm256_loadu_si256(v + 1), vb1;
    __m256i va2 = _mm256_loadu_si256(v + 2), vb2;
    __m256i va3 = _mm256_loadu_si256(v + 3), vb3;
    __m256i va4 = _mm256_loadu_si256(v + 4), vb4;
    __m256i va5 = _mm256_loadu_si256(v + 5), vb5;
    __m256i va6 = _mm256_loadu_si256(v + 6), vb6;
    __m256i va7 = _mm256_loadu_si256(v + 7), vb7;
    __m256i va8 = _mm256_loadu_si256(v + 8), vb8;
    __m256i va9 = _mm256_loadu_si256(v + 9), vb9;
    __m256i va10 = _mm256_loadu_si256(v + 10), vb10;
    __m256i va11 = _mm256_loadu_si256(v + 11), vb11;
    __m256i va12 = _mm256_loadu_si256(v + 12), vb12;
    __m256i va13 = _mm256_loadu_si256(v + 13), vb13;
    __m256i va14 = _mm256_loadu_si256(v + 14), vb14;
    __m256i va15 = _mm256_loadu_si256(v + 15), vb15;
    __m256i va16 = _mm256_loadu_si256(v + 16), vb16;
    __m256i va17 = _mm256_loadu_si256(v + 17), vb17;
    __m256i va18 = _mm256_loadu_si256(v + 18), vb18;
    __m256i va19 = _mm256_loadu_si256(v + 19), vb19;
    __m256i va20 = _mm256_loadu_si256(v + 20), vb20;
    __m256i va21 = _mm256_loadu_si256(v + 21), vb21;
    __m256i va22 = _mm256_loadu_si256(v + 22), vb22;
    __m256i va23 = _mm256_loadu_si256(v + 23), vb23;
    __m256i va24 = _mm256_loadu_si256(v + 24), vb24;
    uint64_t sa0 = s1[0], sb0;
    uint64_t sa1 = s1[1], sb1;
    uint64_t sa2 = s1[2], sb2;
    uint64_t sa3 = s1[3], sb3;
    uint64_t sa4 = s1[4], sb4;
    uint64_t sa5 = s1[5], sb5;
    uint64_t sa6 = s1[6], sb6;
    uint64_t sa7 = s1[7], sb7;
    uint64_t sa8 = s1[8], sb8;
    uint64_t sa9 = s1[9], sb9;
    uint64_t sa10 = s1[10], sb10;
    uint64_t sa11 = s1[11], sb11;
    uint64_t sa12 = s1[12], sb12;
    uint64_t sa13 = s1[13], sb13;
    uint64_t sa14 = s1[14], sb14;
    uint64_t sa15 = s1[15], sb15;
    uint64_t sa16 = s1[16], sb16;
    uint64_t sa17 = s1[17], sb17;
    uint64_t sa18 = s1[18], sb18;
    uint64_t sa19 = s1[19], sb19;
    uint64_t sa20 = s1[20], sb20;
    uint64_t sa21 = s1[21], sb21;
    uint64_t sa22 = s1[22], sb22;
    uint64_t sa23 = s1[23], sb23;
    uint64_t sa24 = s1[24], sb24;
    __m256i vc0, vc1, vc2, vc3, vc4, vd0, vd1, vd2, vd3, vd4;
    uint64_t sc0, sc1, sc2, sc3, sc4, sd0, sd1, sd2, sd3, sd4;
    for (unsigned i = 0; i < 24; i++) {
        vc0 = X5(va0, va5, va10, va15, va20);
        sc0 = (sa0 ^ sa5 ^ sa10 ^ sa15 ^ sa20);
        vc1 = X5(va1, va6, va11, va16, va21);
        sc1 = (sa1 ^ sa6 ^ sa11 ^ sa16 ^ sa21);
        vc2 = X5(va2, va7, va12, va17, va22);
        sc2 = (sa2 ^ sa7 ^ sa12 ^ sa17 ^ sa22);
        vc3 = X5(va3, va8, va13, va18, va23);
        sc3 = (sa3 ^ sa8 ^ sa13 ^ sa18 ^ sa23);
        vc4 = X5(va4, va9, va14, va19, va24);
        sc4 = (sa4 ^ sa9 ^ sa14 ^ sa19 ^ sa24);
        vd0 = XOR(vc4, rol(vc1, 1));
        sd0 = (sc4 ^ ROL64(sc1, 1));
        vd1 = XOR(vc0, rol(vc2, 1));
        sd1 = (sc0 ^ ROL64(sc2, 1));
        vd2 = XOR(vc1, rol(vc3, 1));
        sd2 = (sc1 ^ ROL64(sc3, 1));
        vd3 = XOR(vc2, rol(vc4, 1));
        sd3 = (sc2 ^ ROL64(sc4, 1));
        vd4 = XOR(vc3, rol(vc0, 1));
        sd4 = (sc3 ^ ROL64(sc0, 1));
        vb0 = XOR(va0, vd0);
        sb0 = (sa0 ^ sd0);
        vb10 = rol(XOR(va1, vd1), 1);
        sb10 = ROL64((sa1 ^ sd1), 1);
        vb20 = rol(XOR(va2, vd2), 62);
        sb20 = ROL64((sa2 ^ sd2), 62);
        vb5 = rol(XOR(va3, vd3), 28);
        sb5 = ROL64((sa3 ^ sd3), 28);
        vb15 = rol(XOR(va4, vd4), 27);
        sb15 = ROL64((sa4 ^ sd4), 27);
        vb16 = rol(XOR(va5, vd0), 36);
        sb16 = ROL64((sa5 ^ sd0), 36);
        vb1 = rol(XOR(va6, vd1), 44);
        sb1 = ROL64((sa6 ^ sd1), 44);
        vb11 = rol(XOR(va7, vd2), 6);
        sb11 = ROL64((sa7 ^ sd2), 6);
        vb21 = rol(XOR(va8, vd3), 55);
        sb21 = ROL64((sa8 ^ sd3), 55);
        vb6 = rol(XOR(va9, vd4), 20);
        sb6 = ROL64((sa9 ^ sd4), 20);
        vb7 = rol(XOR(va10, vd0), 3);
        sb7 = ROL64((sa10 ^ sd0), 3);
        vb17 = rol(XOR(va11, vd1), 10);
        sb17 = ROL64((sa11 ^ sd1), 10);
        vb2 = rol(XOR(va12, vd2), 43);
        sb2 = ROL64((sa12 ^ sd2), 43);
        vb12 = rol(XOR(va13, vd3), 25);
        sb12 = ROL64((sa13 ^ sd3), 25);
        vb22 = rol(XOR(va14, vd4), 39);
        sb22 = ROL64((sa14 ^ sd4), 39);
        vb23 = rol(XOR(va15, vd0), 41);
        sb23 = ROL64((sa15 ^ sd0), 41);
        vb8 = rol(XOR(va16, vd1), 45);
        sb8 = ROL64((sa16 ^ sd1), 45);
        vb18 = rol(XOR(va17, vd2), 15);
        sb18 = ROL64((sa17 ^ sd2), 15);
        vb3 = rol(XOR(va18, vd3), 21);
        sb3 = ROL64((sa18 ^ sd3), 21);
        vb13 = rol(XOR(va19, vd4), 8);
        sb13 = ROL64((sa19 ^ sd4), 8);
        vb14 = rol(XOR(va20, vd0), 18);
        sb14 = ROL64((sa20 ^ sd0), 18);
        vb24 = rol(XOR(va21, vd1), 2);
        sb24 = ROL64((sa21 ^ sd1), 2);
        vb9 = rol(XOR(va22, vd2), 61);
        sb9 = ROL64((sa22 ^ sd2), 61);
        vb19 = rol(XOR(va23, vd3), 56);
        sb19 = ROL64((sa23 ^ sd3), 56);
        vb4 = rol(XOR(va24, vd4), 14);
        sb4 = ROL64((sa24 ^ sd4), 14);
        va0 = XOR(vb0, ANDN(vb1, vb2));
        sa0 = (sb0 ^ (~sb1 & sb2));
        va1 = XOR(vb1, ANDN(vb2, vb3));
        sa1 = (sb1 ^ (~sb2 & sb3));
        va2 = XOR(vb2, ANDN(vb3, vb4));
        sa2 = (sb2 ^ (~sb3 & sb4));
        va3 = XOR(vb3, ANDN(vb4, vb0));
        sa3 = (sb3 ^ (~sb4 & sb0));
        va4 = XOR(vb4, ANDN(vb0, vb1));
        sa4 = (sb4 ^ (~sb0 & sb1));
        va5 = XOR(vb5, ANDN(vb6, vb7));
        sa5 = (sb5 ^ (~sb6 & sb7));
        va6 = XOR(vb6, ANDN(vb7, vb8));
        sa6 = (sb6 ^ (~sb7 & sb8));
        va7 = XOR(vb7, ANDN(vb8, vb9));
        sa7 = (sb7 ^ (~sb8 & sb9));
        va8 = XOR(vb8, ANDN(vb9, vb5));
        sa8 = (sb8 ^ (~sb9 & sb5));
        va9 = XOR(vb9, ANDN(vb5, vb6));
        sa9 = (sb9 ^ (~sb5 & sb6));
        va10 = XOR(vb10, ANDN(vb11, vb12));
        sa10 = (sb10 ^ (~sb11 & sb12));
        va11 = XOR(vb11, ANDN(vb12, vb13));
        sa11 = (sb11 ^ (~sb12 & sb13));
        va12 = XOR(vb12, ANDN(vb13, vb14));
        sa12 = (sb12 ^ (~sb13 & sb14));
        va13 = XOR(vb13, ANDN(vb14, vb10));
        sa13 = (sb13 ^ (~sb14 & sb10));
        va14 = XOR(vb14, ANDN(vb10, vb11));
        sa14 = (sb14 ^ (~sb10 & sb11));
        va15 = XOR(vb15, ANDN(vb16, vb17));
        sa15 = (sb15 ^ (~sb16 & sb17));
        va16 = XOR(vb16, ANDN(vb17, vb18));
        sa16 = (sb16 ^ (~sb17 & sb18));
        va17 = XOR(vb17, ANDN(vb18, vb19));
        sa17 = (sb17 ^ (~sb18 & sb19));
        va18 = XOR(vb18, ANDN(vb19, vb15));
        sa18 = (sb18 ^ (~sb19 & sb15));
        va19 = XOR(vb19, ANDN(vb15, vb16));
        sa19 = (sb19 ^ (~sb15 & sb16));
        va20 = XOR(vb20, ANDN(vb21, vb22));
        sa20 = (sb20 ^ (~sb21 & sb22));
        va21 = XOR(vb21, ANDN(vb22, vb23));
        sa21 = (sb21 ^ (~sb22 & sb23));
        va22 = XOR(vb22, ANDN(vb23, vb24));
        sa22 = (sb22 ^ (~sb23 & sb24));
        va23 = XOR(vb23, ANDN(vb24, vb20));
        sa23 = (sb23 ^ (~sb24 & sb20));
        va24 = XOR(vb24, ANDN(vb20, vb21));
        sa24 = (sb24 ^ (~sb20 & sb21));
        va0 = XOR(va0, _mm256_set1_epi64x((long long)KRC[i]));
        sa0 ^= KRC[i];
    }
    _mm256_storeu_si256(v + 0, va0);
    _mm256_storeu_si256(v + 1, va1);
    _mm256_storeu_si256(v + 2, va2);
    _mm256_storeu_si256(v + 3, va3);
    _mm256_storeu_si256(v + 4, va4);
    _mm256_storeu_si256(v + 5, va5);
    _mm256_storeu_si256(v + 6, va6);
    _mm256_storeu_si256(v + 7, va7);
    _mm256_storeu_si256(v + 8, va8);
    _mm256_storeu_si256(v + 9, va9);
    _mm256_storeu_si256(v + 10, va10);
    _mm256_storeu_si256(v + 11, va11);
    _mm256_storeu_si256(v + 12, va12);
    _mm256_storeu_si256(v + 13, va13);
    _mm256_storeu_si256(v + 14, va14);
    _mm256_storeu_si256(v + 15, va15);
    _mm256_storeu_si256(v + 16, va16);
    _mm256_storeu_si256(v + 17, va17);
    _mm256_storeu_si256(v + 18, va18);
    _mm256_storeu_si256(v + 19, va19);
    _mm256_storeu_si256(v + 20, va20);
    _mm256_storeu_si256(v + 21, va21);
    _mm256_storeu_si256(v + 22, va22);
    _mm256_storeu_si256(v + 23, va23);
    _mm256_storeu_si256(v + 24, va24);
    s1[0] = sa0;
    s1[1] = sa1;
    s1[2] = sa2;
    s1[3] = sa3;
    s1[4] = sa4;
    s1[5] = sa5;
    s1[6] = sa6;
    s1[7] = sa7;
    s1[8] = sa8;
    s1[9] = sa9;
    s1[10] = sa10;
    s1[11] = sa11;
    s1[12] = sa12;
    s1[13] = sa13;
    s1[14] = sa14;
    s1[15] = sa15;
    s1[16] = sa16;
    s1[17] = sa17;
    s1[18] = sa18;
    s1[19] = sa19;
    s1[20] = sa20;
    s1[21] = sa21;
    s1[22] = sa22;
    s1[23] = sa23;
    s1[24] = sa24;
}
