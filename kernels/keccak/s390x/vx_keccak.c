/* Keccak-f[1600] on two and four states with the z13 vector facility
 * (built with -march=z13 -mzvector: two 64-bit lanes per register, rotates
 * by element rotate, chi by AND with complement): the portable 2-way
 * code's template (x2_vec.h), which the distribution baseline (no vector
 * facility) compiles into scalar pairs no faster than the scalar
 * permutation. Also the s390x vector Keccak table. */
#define KECCAK_X2_FN cs_keccakf1600_x2_s390x_vx
#define KECCAK_X4_FN cs_keccakf1600_x4_s390x_vx
#include "../x2_vec.h"

/* The scalar permutation stays portable; the multi-state forms in vector
 * registers (the ML-DSA samplers' four streams). */
const cs_keccak_impl cs_keccak_s390x_vx = {
    .name = "s390x_vx",
    .cpu_features = CS_CPU_S390_VX,
    .f1600 = cs_keccakf1600_portable,
    .f1600_x2 = cs_keccakf1600_x2_s390x_vx,
    .f1600_x4 = cs_keccakf1600_x4_s390x_vx,
};
