/* What the per-lane zeta tables of the x86-64 ML-KEM NTTs (ntt_avx2_zetas.h,
 * ntt_avx512_zetas.h) are built from: cs_mlkem_zetas[k] as a constant
 * expression, its q^-1 multiple, the basemul lane pattern, and lists of
 * lanes. Each table is then one formula over (layer, pair, lane), so the
 * layouts the NTTs' shuffles need are written down instead of copied out;
 * kernel_mlkem_impls and kernel_mlkem_avx512 check the NTTs and products
 * against the portable ones. */
#ifndef CRYPTOSHIM_MLKEM_ZETA_LANES_H
#define CRYPTOSHIM_MLKEM_ZETA_LANES_H

#include <stdint.h>

/* a * b mod q for a, b in [0, q). */
#define MLKEM_ZMUL_(a, b) ((a) * (b) % 3329)
/* cs_mlkem_zetas[k] (k < 128): 17^brv7(k) * 2^16 mod q, centred. 17^brv7(k) is the
 * product of 17^(2^(6-i)) over the set bits i of k; 2285 = 2^16 mod q. */
#define MLKEM_ZETA(k)                                                                         \
    ((MLKEM_ZMUL_(MLKEM_ZMUL_(MLKEM_ZMUL_(MLKEM_ZMUL_(MLKEM_ZMUL_(MLKEM_ZMUL_(MLKEM_ZMUL_(      \
          2285, (k) & 64 ? 17 : 1), (k) & 32 ? 289 : 1), (k) & 16 ? 296 : 1),                 \
          (k) & 8 ? 1062 : 1), (k) & 4 ? 2642 : 1), (k) & 2 ? 2580 : 1), (k) & 1 ? 1729 : 1)  \
      + 1664) % 3329 - 1664)
/* z * q^-1 mod 2^16 as int16_t (q^-1 = 62209), without an out-of-range conversion. */
#define MLKEM_ZQINV(z) ((((z) * 62209 % 65536) + 98304) % 65536 - 32768)

/* Basemul row v of 4n lanes: lane l holds zetas[64 + n v + l/4] where l mod 4 = 1, its
 * negation where l mod 4 = 3, and 0 in the even lanes. */
#define MLKEM_BASEMUL(n, v, l) ((l) & 1 ? ((l) & 2 ? -1 : 1) * MLKEM_ZETA(64 + (n) * (v) + ((l) >> 2)) : 0)
#define MLKEM_BASEMULQ(n, v, l) MLKEM_ZQINV(MLKEM_BASEMUL(n, v, l))

/* F(a, b, lane) for 8, 16 or 32 lanes from o. */
#define MLKEM_L8_(F, a, b, o)                                                                 \
    F(a, b, (o)), F(a, b, (o) + 1), F(a, b, (o) + 2), F(a, b, (o) + 3), F(a, b, (o) + 4),     \
        F(a, b, (o) + 5), F(a, b, (o) + 6), F(a, b, (o) + 7)
#define MLKEM_L16_(F, a, b, o) MLKEM_L8_(F, a, b, o), MLKEM_L8_(F, a, b, (o) + 8)
#define MLKEM_L16(F, a, b) MLKEM_L16_(F, a, b, 0)
#define MLKEM_L32(F, a, b) MLKEM_L16_(F, a, b, 0), MLKEM_L16_(F, a, b, 16)

#endif
