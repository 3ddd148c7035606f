/* The X25519 ladder of the "x86_64-mulx" table (BMI2 without ADX):
 * ladder_body.h over single ADD/ADC carry chains.
 * void cs_c25519_mulx_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]); */
#include "kernels/x86_64_asm.h"

#define LADDER_FN cs_c25519_mulx_ladder
#include "ladder_chains_mulx.h"
#include "ladder_body.h"
