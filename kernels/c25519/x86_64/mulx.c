/* The x86-64 MULX implementation "x86_64-mulx", for CPUs with BMI2 and
 * without ADX (the Haswell class): the curve templates over the 4x64-bit
 * field of fe64.h with its ADD/ADC carry chains, the X25519 ladder that of
 * ladder_mulx.S, the fixed-base loop that of comb_mulx.S. */
#define FE64_MULX_ONLY 1
#include "fe64.h"

#define LADDER_FN cs_c25519_mulx_ladder
#define COMB_FN cs_c25519_mulx_comb
#include "table64.h"

CS_C25519_TABLE(cs_c25519_x86_64_mulx, "x86_64-mulx", CS_CPU_BMI2);
