/* Lane operations shared by the 8-way AVX-512 Keccak permutations
 * (keccak_x8_avx512.c, keccak_x8x1_avx512.c): one-instruction rotations
 * and three-input logic on 512-bit vectors, and the round constants.
 * Internal header: include after avx2.h. */
#ifndef CRYPTOSHIM_MLDSA_KECCAK_AVX512_OPS_H
#define CRYPTOSHIM_MLDSA_KECCAK_AVX512_OPS_H

#include "../mldsa_portable.h"

/* 0x96: a ^ b ^ c; 0xD2: a ^ (~b & c). */
#define XOR(a, b) _mm512_xor_si512(a, b)
#define XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xD2)
#define ROL(x, n) _mm512_rol_epi64(x, n)
#define X5(a, b, c, d, e) XOR3(XOR3(a, b, c), d, e)

#endif
