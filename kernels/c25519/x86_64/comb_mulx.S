/* Ed25519's fixed-base multiplication for the "x86_64-mulx" table (BMI2
 * without ADX): comb_body.h over single ADD/ADC carry chains, the SSE2
 * table scan.
 * void cs_c25519_mulx_comb(uint64_t xyzt[16], const uint8_t a[32], const uint8_t tab[32][8][96],
 *                          const uint8_t tab16[32][8][96]); */
#include "kernels/x86_64_asm.h"

#define COMB_FN cs_c25519_mulx_comb
#include "ladder_chains_mulx.h"
#include "comb_body.h"
