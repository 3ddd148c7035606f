/* The x86-64 MULX/ADX implementation "x86_64-adx": the curve templates
 * over the 4x64-bit field of fe64.h with its ADCX/ADOX carry chains, the
 * X25519 ladder that of ladder_adx.S, the fixed-base loop that of
 * comb_adx.S. Runs only where BMI2 and ADX are
 * present. */
#include "fe64.h"

#define LADDER_FN cs_c25519_adx_ladder
#define COMB_FN cs_c25519_adx_comb
#include "table64.h"

CS_C25519_TABLE(cs_c25519_x86_64_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX);
