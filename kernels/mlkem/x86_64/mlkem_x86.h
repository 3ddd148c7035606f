/* The x86-64 ML-KEM backends' pieces (kernels/mlkem/x86_64): AVX2 NTTs and
 * products in 16-bit lanes, the 4-way and 8-way samplers, and the AVX2
 * coders. Every NTT-domain polynomial keeps the portable (standard) order,
 * so the portable coders and any mix of these pieces agree. Internal. */
#ifndef CRYPTOSHIM_MLKEM_X86_H
#define CRYPTOSHIM_MLKEM_X86_H

#include <string.h>

#include "../mlkem_backend.h"

/* ntt_avx2.c and poly_avx2.c: the cs_mlkem_ops entries of the same names
 * (mlkem_backend.h). */
CS_MLKEM_DECLARE_ARITH(, avx2);

/* ntt_avx512.c and poly_avx512.c: the same entries in AVX-512 F/BW (32 coefficients a
 * vector; d = 5 and 11 of compress/decompress are the AVX2 coders'). */
CS_MLKEM_DECLARE_ARITH(, avx512);

/* sample_avx2.c: A_hat with the AVX2 4-way SHAKE128 and noise with the 4-way SHAKE256
 * (g_noise_j: with G and J, as cs_mlkem_ops.g_noise_j). */
CS_MLKEM_DECLARE_SAMPLERS(avx2);
/* The AVX2 rejection step (as cs_mlkem_rej_uniform) and CBD (as cs_mlkem_cbd). */
unsigned cs_mlkem_rej_uniform_avx2(int16_t *r, unsigned have, const uint8_t *buf, size_t len);
void cs_mlkem_cbd_avx2(cs_mlkem_poly *p, const uint8_t *buf, unsigned eta);

/* rej_avx512.c: the rejection step in AVX-512 F/BW (as cs_mlkem_rej_uniform). */
unsigned cs_mlkem_rej_uniform_avx512(int16_t *r, unsigned have, const uint8_t *buf, size_t len);

/* The same samplers on the 8-way (and 8+1-way) AVX-512 Keccak and that rejection step
 * (sample_avx2.c too). */
CS_MLKEM_DECLARE_SAMPLERS(avx512);

/* SampleNTT's rejection over a 16-candidate step (step(dst, in): the values below q of the
 * 24 bytes at in, appended at dst, their count): appends to r[have..] from buf (len bytes,
 * readable to len + 8), 24 bytes a step, the last steps through a spare buffer so r is
 * never overrun, then the portable step for a tail under 24 bytes. Inlined so each
 * backend's step is too. Public data. */
static inline __attribute__((always_inline)) unsigned
cs_mlkem_rej_steps(int16_t *r, unsigned have, const uint8_t *buf, size_t len,
                   unsigned (*step)(int16_t *dst, const uint8_t *in))
{
    size_t pos = 0;
    for (; have + 16 <= CS_MLKEM_N && pos + 24 <= len; pos += 24)
        have += step(r + have, buf + pos);
    for (; have < CS_MLKEM_N && pos + 24 <= len; pos += 24) {
        int16_t last[16];
        unsigned c = step(last, buf + pos);
        if (c > CS_MLKEM_N - have)
            c = CS_MLKEM_N - have;
        memcpy(r + have, last, c * sizeof last[0]);
        have += c;
    }
    return cs_mlkem_rej_uniform(r, have, buf + pos, len - pos);
}

#endif
