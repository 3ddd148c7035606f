/* Ed25519's fixed-base multiplication for the "x86_64-adx" table (BMI2,
 * ADX and AVX2): comb_body.h over the ADCX/ADOX carry chains, the AVX2
 * table scan.
 * void cs_c25519_adx_comb(uint64_t xyzt[16], const uint8_t a[32], const uint8_t tab[32][8][96],
 *                         const uint8_t tab16[32][8][96]); */
#include "kernels/x86_64_asm.h"

#define COMB_FN cs_c25519_adx_comb
#define COMB_AVX2 1
#include "ladder_chains_adx.h"
#include "comb_body.h"
