/* The X25519 ladder of the "x86_64-adx" table (BMI2 and ADX):
 * ladder_body.h over the ADCX/ADOX carry chains.
 * void cs_c25519_adx_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]); */
#include "kernels/x86_64_asm.h"

#define LADDER_FN cs_c25519_adx_ladder
#include "ladder_chains_adx.h"
#include "ladder_body.h"
