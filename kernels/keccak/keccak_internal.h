/* The permutations behind the tables of keccak.h, for the table files, the
 * tests and the ISA code that calls one directly (the ML-DSA expanders).
 * Internal to kernels/. */
#ifndef CRYPTOSHIM_KECCAK_INTERNAL_H
#define CRYPTOSHIM_KECCAK_INTERNAL_H

#include "keccak.h"

/* Keccak-f[1600] round constants (f1600.c), for every permutation. */
extern const uint64_t cs_keccak_rc[24];

/* X(xy, i) for the 25 lanes in order: x and y the lane's coordinates (two
 * digits), i = x + 5y its index. For the round templates' loads, stores
 * and declarations. */
#define CS_KECCAK_LANES(X) \
    X(00, 0) X(10, 1) X(20, 2) X(30, 3) X(40, 4) \
    X(01, 5) X(11, 6) X(21, 7) X(31, 8) X(41, 9) \
    X(02, 10) X(12, 11) X(22, 12) X(32, 13) X(42, 14) \
    X(03, 15) X(13, 16) X(23, 17) X(33, 18) X(43, 19) \
    X(04, 20) X(14, 21) X(24, 22) X(34, 23) X(44, 24)

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
