/* Per-lane zetas of the AVX2 ML-KEM NTT's last three forward layers and first three
 * inverse layers (lengths 8, 4, 2), where a butterfly pairs lanes of one vector pair:
 * entry [layer][p][l] is the zeta of the block holding lane l of the 'hi' operand of
 * vector pair p (coefficients 32p..32p+31) as ntt_avx2.c shuffles them, taken from
 * cs_mlkem_zetas (forward: zetas[16 * 2^layer + block], inverse: zetas[32 * 2^layer - 1
 * - block]). Basemul: lane 2i+1 of vector v holds the zeta of coefficient pair 16v+2i
 * (+-zetas[64+j]). */
#ifndef CRYPTOSHIM_MLKEM_NTT_AVX2_ZETAS_H
#define CRYPTOSHIM_MLKEM_NTT_AVX2_ZETAS_H

#include "zeta_lanes.h"

/* The block (within the layer) of lane l of pair p after split(layer): 16 lanes, the
 * lane bits 3, 2 and 1 moved by the layer's shuffle. */
#define AVX2_BLOCK0(p, l) (2 * (p) + ((l) >> 3))
#define AVX2_BLOCK1(p, l) (4 * (p) + (((l) >> 1) & 2) + ((l) >> 3))
#define AVX2_BLOCK2(p, l) (8 * (p) + (((l) << 1) & 4) + (((l) >> 2) & 2) + (((l) >> 2) & 1))
#define AVX2_FWD(L, p, l) MLKEM_ZETA((16 << (L)) + AVX2_BLOCK##L(p, l))
#define AVX2_INV(L, p, l) MLKEM_ZETA((32 << (L)) - 1 - AVX2_BLOCK##L(p, l))
/* Eight rows of 16 lanes from row o: F(a, row, lane). */
#define AVX2_ROWS(F, a, o)                                                                    \
    {MLKEM_L16(F, a, (o))}, {MLKEM_L16(F, a, (o) + 1)}, {MLKEM_L16(F, a, (o) + 2)},           \
        {MLKEM_L16(F, a, (o) + 3)}, {MLKEM_L16(F, a, (o) + 4)}, {MLKEM_L16(F, a, (o) + 5)},   \
        {MLKEM_L16(F, a, (o) + 6)}, {MLKEM_L16(F, a, (o) + 7)}
/* The three layers of eight vector pairs. */
#define AVX2_LAYERS(F) {{AVX2_ROWS(F, 0, 0)}, {AVX2_ROWS(F, 1, 0)}, {AVX2_ROWS(F, 2, 0)}}

static const int16_t mlkem_zetas_fwd_avx2[3][8][16] __attribute__((aligned(32))) =
    AVX2_LAYERS(AVX2_FWD);
static const int16_t mlkem_zetas_inv_avx2[3][8][16] __attribute__((aligned(32))) =
    AVX2_LAYERS(AVX2_INV);
static const int16_t mlkem_zetas_basemul_avx2[16][16] __attribute__((aligned(32))) = {
    AVX2_ROWS(MLKEM_BASEMUL, 4, 0), AVX2_ROWS(MLKEM_BASEMUL, 4, 8)};

#endif
