/* ADX kernel: word-serial Montgomery multiplication with its rows in
 * assembly (adx_mont.S: mulx with two carry chains at once, adcx for the
 * low words and adox for the high words), a squaring that computes each
 * cross product once, a final masked subtraction, and the SSE2 table read
 * of scalar.c. Run only where BMI2 and ADX are present. */
#include <string.h>

#include "../limbs.h"
#include "scalar.h"

/* r = a^2/2^(64n) mod m, fully reduced, for a < m of n = 16 or 24 limbs,
 * each in one straight-line assembly function (adx_fixed.S) with its
 * own scratch; r may alias a. */
void cs_adx_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0);
void cs_adx_sqr24(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0);
/* r = a*b/2^1024 mod m, fully reduced, for 16-limb a, b < m, likewise; r
 * may alias a or b. */
void cs_adx_mul16(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                  uint64_t n0);

/* The engine's multiplication over plain limbs: the rows, then one masked
 * subtraction, in assembly (adx_mont.S); at a multiple of eight limbs the
 * product and the reduction by blocks of eight rows in registers
 * (adx_blk.S), at 16 limbs all of it in one straight-line function
 * (adx_fixed.S). r may alias a or b (written last). n is public. */
static void adx_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    size_t n = c->n;
    if (n == 16) {
        cs_adx_mul16(r, a, b, c->m, c->n0);
        return;
    }
    uint64_t t[2 * CS_BN_MAX_LIMBS + 1];
    if (n % 8 == 0) {
        memset(t, 0, 2 * n * sizeof *t);
        cs_adx_blk_mul(t, a, b, n);
        cs_adx_blk_redc(t, c->m, c->n0, n);
        cs_adx_blk_reduce(r, t + n, c->m, n);
        return;
    }
    memset(t, 0, (n + 2) * sizeof *t);
    cs_adx_mont_rows(t, a, b, c->m, c->n0, n);
    cs_adx_reduce(r, t, c->m, n);
}

/* The engine's squaring (b == a): a^2 with each cross product once
 * (n(n-1)/2 mulx, not n^2), doubled, the squares added, then the
 * reduction rows (n^2; by blocks of eight at a multiple of eight limbs),
 * and one masked subtraction, all in assembly; at 16 and 24 limbs one
 * straight-line function does it all, no scratch from here.
 * r may alias a. */
static void adx_sqr(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    (void)b;
    const cs_bn_prep *c = ctx;
    size_t n = c->n;
    if (n == 16) {
        cs_adx_sqr16(r, a, c->m, c->n0);
        return;
    }
    if (n == 24) {
        cs_adx_sqr24(r, a, c->m, c->n0);
        return;
    }
    uint64_t t[2 * CS_BN_MAX_LIMBS + 1];
    memset(t, 0, (2 * n + 1) * sizeof *t);
    if (n % 8 == 0) {
        cs_adx_blk_sqr_cross(t, a, n);
        cs_adx_blk_diag(t, a, n);
        cs_adx_blk_redc(t, c->m, c->n0, n);
        cs_adx_blk_reduce(r, t + n, c->m, n);
        return;
    }
    if (n >= 2)
        cs_adx_sqr_cross(t, a, n);
    cs_adx_sqr_diag(t, a, n);
    cs_adx_redc(t, c->m, c->n0, n);
    cs_adx_reduce(r, t + n, c->m, n);
}

CS_BN_LIMB_KERNEL_SEL(cs_bn_x86_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX, 256, SCALAR_MAX_BITS,
                      adx_mul, adx_sqr, scalar_select, 1);
