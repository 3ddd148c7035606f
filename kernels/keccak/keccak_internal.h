/* The permutations behind the tables of keccak.h, for the table files, the
 * tests and the ISA code that calls one directly (the ML-DSA expanders).
 * Internal to kernels/. */
#ifndef CRYPTOSHIM_KECCAK_INTERNAL_H
#define CRYPTOSHIM_KECCAK_INTERNAL_H

#include "keccak.h"

/* Keccak-f[1600] round constants (f1600.c), for every permutation. */
extern const uint64_t cs_keccak_rc[24];

/* Portable (f1600.c, x2.c): the scalar permutation; four states one after
 * the other (the reference for the x4 forms in tests); two and four with
 * GCC/clang vector extensions (SSE2 on x86-64, VX on s390x z13+). */
void cs_keccakf1600_portable(uint64_t s[25]);
void cs_keccakf1600_x4_portable(uint64_t s[100]);
void cs_keccakf1600_x2_vec(uint64_t s[50]);
void cs_keccakf1600_x4_vec(uint64_t s[100]);

#if defined(__x86_64__)
/* x86_64/: the scalar permutation built with BMI1 (ANDN for chi, VEX
 * encodings); four with AVX2, with AVX-512VL on 256-bit registers; eight
 * on 512-bit registers; the fused forms. */
void cs_keccakf1600_bmi(uint64_t s[25]);
void cs_keccakf1600_x4_avx2(uint64_t s[100]);
void cs_keccakf1600_x4x1_avx2(uint64_t s4[100], uint64_t s1[25]);
void cs_keccakf1600_x4_avx512(uint64_t s[100]);
void cs_keccakf1600_x8_avx512(uint64_t s[200]);
void cs_keccakf1600_x8x1_avx512(uint64_t s8[200], uint64_t s1[25]);
extern const cs_keccak_impl cs_keccak_avx2, cs_keccak_avx512;
#endif

#if defined(__s390x__)
/* s390x/: one permutation through CPACF KIMD; only valid when
 * cs_cpu_probe_s390_shake() reported CS_CPU_S390_SHAKE. */
void cs_keccakf1600_s390x_cpacf(uint64_t s[25]);
extern const cs_keccak_impl cs_keccak_s390x_cpacf;
/* s390x/vx_keccak.c: two and four permutations in z13 vector registers. */
void cs_keccakf1600_x2_s390x_vx(uint64_t s[50]);
void cs_keccakf1600_x4_s390x_vx(uint64_t s[100]);
extern const cs_keccak_impl cs_keccak_s390x_vx;
/* CS_CPU_S390_SHAKE if the CPACF query reports the SHAKE function codes and
 * the CPACF permutation agrees with the software one on a test state; 0
 * otherwise. Overrides the runtime's weak default (runtime/cpu.c). */
uint32_t cs_cpu_probe_s390_shake(void);
#endif

#endif
