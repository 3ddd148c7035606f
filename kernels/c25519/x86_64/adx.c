/* The x86-64 MULX/ADX implementation "x86_64-adx": the curve templates
 * over the 4x64-bit field of fe64.h with its ADCX/ADOX carry chains, the
 * X25519 ladder that of ladder_adx.S, the fixed-base loop that of
 * comb_adx.S (its table scan AVX2). Runs only where BMI2, ADX and AVX2
 * are present; where ADX and BMI2 come without AVX2 (a part with AVX
 * fused off, an OS or hypervisor that keeps YMM off) x86_64-mulx serves. */
#include "fe64.h"

#define LADDER_FN cs_c25519_adx_ladder
#define COMB_FN cs_c25519_adx_comb
#include "table64.h"

CS_C25519_TABLE(cs_c25519_x86_64_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX | CS_CPU_AVX2);
