/* Per-lane zetas of the AVX-512 ML-KEM NTT (ntt_avx512.c), 32 coefficients a
 * vector. Its four inner layers (lengths 16, 8, 4, 2) run on a vector pair
 * (coefficients 64p..64p+63) after chained shuffles that leave each butterfly's
 * operands in the same lane of two vectors X, Y: entry [layer][p][0][l] is the
 * zeta of the block holding lane l of Y (forward: zetas[8 * 2^layer + block],
 * inverse: zetas[16 * 2^layer - 1 - block]), [1][l] the same times q^-1 mod 2^16.
 * Basemul: lane 2i+1 of vector v holds the zeta of coefficient pair 32v+2i
 * (+-zetas[64+j]), even lanes 0. */
#ifndef CRYPTOSHIM_MLKEM_NTT_AVX512_ZETAS_H
#define CRYPTOSHIM_MLKEM_NTT_AVX512_ZETAS_H

#include "zeta_lanes.h"

/* The block (within the layer) of lane l of pair p: 2^(layer+1) blocks a pair, lane l
 * in block l / 2^(4-layer). */
#define AVX512_BLOCK(L, p, l) (((p) << ((L) + 1)) + ((l) >> (4 - (L))))
#define AVX512_FWD(L, p, l) MLKEM_ZETA((8 << (L)) + AVX512_BLOCK(L, p, l))
#define AVX512_FWDQ(L, p, l) MLKEM_ZQINV(AVX512_FWD(L, p, l))
#define AVX512_INV(L, p, l) MLKEM_ZETA((16 << (L)) - 1 - AVX512_BLOCK(L, p, l))
#define AVX512_INVQ(L, p, l) MLKEM_ZQINV(AVX512_INV(L, p, l))
/* Row p: the zetas (F) and their q^-1 multiples (FQ), 32 lanes each. */
#define AVX512_ROW(F, FQ, a, p) {{MLKEM_L32(F, a, p)}, {MLKEM_L32(FQ, a, p)}}
/* Four rows from o. */
#define AVX512_ROWS4(F, FQ, a, o)                                                             \
    AVX512_ROW(F, FQ, a, (o)), AVX512_ROW(F, FQ, a, (o) + 1), AVX512_ROW(F, FQ, a, (o) + 2),  \
        AVX512_ROW(F, FQ, a, (o) + 3)
/* The four layers of four vector pairs. */
#define AVX512_LAYERS(F, FQ)                                                                  \
    {{AVX512_ROWS4(F, FQ, 0, 0)}, {AVX512_ROWS4(F, FQ, 1, 0)}, {AVX512_ROWS4(F, FQ, 2, 0)},   \
     {AVX512_ROWS4(F, FQ, 3, 0)}}

/* forward per-lane zetas [layer][pair][z, z q^-1][32] (layers of length 16, 8, 4, 2) */
static const int16_t mlkem_zetas_fwd_avx512[4][4][2][32] __attribute__((aligned(64))) =
    AVX512_LAYERS(AVX512_FWD, AVX512_FWDQ);
/* inverse: the same lanes, zetas[256/len - 1 - block] */
static const int16_t mlkem_zetas_inv_avx512[4][4][2][32] __attribute__((aligned(64))) =
    AVX512_LAYERS(AVX512_INV, AVX512_INVQ);
/* basemul: lane 2i+1 of vector v holds the zeta of coefficient pair 32v+2i */
static const int16_t mlkem_zetas_basemul_avx512[8][2][32] __attribute__((aligned(64))) = {
    AVX512_ROWS4(MLKEM_BASEMUL, MLKEM_BASEMULQ, 8, 0),
    AVX512_ROWS4(MLKEM_BASEMUL, MLKEM_BASEMULQ, 8, 4)};

#endif
