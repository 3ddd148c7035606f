/* ADX kernel: word-serial Montgomery multiplication with its rows in
 * assembly (adx_mont.S: mulx with two carry chains at once, adcx for the
 * low words and adox for the high words), the final subtraction of
 * scalar.c. Run only where BMI2 and ADX are present. */
#include <string.h>

#include "scalar.h"

/* The engine's multiplication over plain limbs: the rows in assembly
 * (adx_mont.S), then one masked subtraction; r may alias a or b (written
 * last). */
static void adx_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    uint64_t t[CS_BN_MAX_LIMBS + 2];
    memset(t, 0, (c->n + 2) * sizeof *t);
    cs_adx_mont_rows(t, a, b, c->m, c->n0, c->n);
    scalar_reduce(r, t, c->m, c->n);
}

CS_BN_LIMB_KERNEL(cs_bn_x86_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX, 256, SCALAR_MAX_BITS,
                  adx_mul, 1);
