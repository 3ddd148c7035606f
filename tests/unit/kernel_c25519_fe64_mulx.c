/* kernel_c25519_fe64's checks over fe64.h's MULX-only carry chains
 * (x86_64/fe64_mulx.h: the x86_64-mulx table's field); skips without BMI2. */
#define FE64_MULX_ONLY 1
#include "kernel_c25519_fe64.c"
