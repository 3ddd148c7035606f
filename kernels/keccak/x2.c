/* Keccak-f[1600] on two and four states at once with GCC/clang vector
 * extensions (x2_vec.h): SSE2 on any x86-64, plain scalar pairs elsewhere
 * (s390x z13+ builds the same template with VX, s390x/vx_keccak.c). */
#define KECCAK_X2_FN cs_keccakf1600_x2_vec
#define KECCAK_X4_FN cs_keccakf1600_x4_vec
#include "x2_vec.h"
