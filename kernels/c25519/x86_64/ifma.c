/* The x86-64 AVX-512 IFMA implementation "x86_64-ifma": x86_64-adx's
 * table (the 4x64-bit field of fe64.h with its ADCX/ADOX chains, Ed25519
 * signing and the fixed base on comb_adx.S) with the X25519 ladder replaced
 * by the four-lane IFMA ladder of ladder_ifma.c and Ed25519 verification's
 * double-scalar multiplication by double_mul_ifma.c's. The policy names it
 * nowhere yet: it is used where CRYPTOSHIM_KERNELS or a calibrated policy
 * chooses it (docs/benchmarks.md, "X25519 on AVX-512 IFMA", says how to
 * measure it). */
#include "fe64.h"

#define LADDER_FN cs_c25519_ifma_ladder
#define COMB_FN cs_c25519_adx_comb
#define DOUBLE_MUL_FN cs_c25519_ifma_double_mul
#include "table64.h"

CS_C25519_TABLE(cs_c25519_x86_64_ifma, "x86_64-ifma",
                CS_CPU_BMI2 | CS_CPU_ADX | CS_CPU_AVX2 | CS_CPU_AVX512F | CS_CPU_AVX512VL |
                    CS_CPU_AVX512IFMA);
