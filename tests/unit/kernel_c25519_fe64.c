/* The x86-64 field of kernels/c25519 (x86_64/fe64.h: four 64-bit limbs,
 * any value below 2^256) against a slow reference modulo 2^255 - 19, on
 * random values and on the edges where its folds by 38 carry twice
 * (values at and just below 2^256, p, 2p, zero). Over the ADX carry chains,
 * or the MULX-only ones where the includer defines FE64_MULX_ONLY
 * (kernel_c25519_fe64_mulx.c); skips without the chains' CPU features,
 * and off x86-64. No OpenSSL. */
#include <stdio.h>
#include <string.h>

#include "kernels/cpu_features.h"
#include "runtime/cpu.h"
#include "support/tap.h"
/* The reference functions this test does not call. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "support/bn_ref.h"

#if defined(__x86_64__)
#include "kernels/c25519/x86_64/fe64.h"
#include "kernels/c25519/x25519_ladder.h"
#include "support/fe25519_ref.h"

/* r = the value of f modulo p. */
static void ref_of(uint32_t r[8], const fe *f)
{
    uint32_t a[8];
    for (int i = 0; i < 4; i++) {
        a[2 * i] = (uint32_t)f->v[i];
        a[2 * i + 1] = (uint32_t)(f->v[i] >> 32);
    }
    ref_mod(r, a, 8, P32, 8);
}

/* Random limbs, or limbs at the edges: all ones (2^256 - 1 and near),
 * p and 2p and their neighbours, zero. */
static void random_fe(fe *f, unsigned kind)
{
    static const uint64_t top[4] = {0xffffffffffffffff, 0x7fffffffffffffff, 0xffffffffffffffff, 0};
    uint64_t r = tap_rng_u64();
    switch (kind % 5) {
    case 0:
        for (int i = 0; i < 4; i++)
            f->v[i] = tap_rng_u64();
        break;
    case 1: /* 2^256 - small */
        for (int i = 0; i < 4; i++)
            f->v[i] = ~(uint64_t)0;
        f->v[0] -= r % 80;
        break;
    case 2: /* p or 2p plus or minus a little */
        f->v[3] = top[r % 2];
        f->v[1] = f->v[2] = ~(uint64_t)0;
        f->v[0] = (r % 2 ? 0xffffffffffffffda : 0xffffffffffffffed) + (r >> 8) % 40 - 20;
        break;
    case 3: /* small */
        memset(f, 0, sizeof(*f));
        f->v[0] = r % 64;
        break;
    default: /* random words mixing 0 and all ones */
        for (int i = 0; i < 4; i++)
            f->v[i] = (r >> i) & 1 ? ~(uint64_t)0 : (r >> (8 + i)) & 1 ? 0 : tap_rng_u64();
        break;
    }
}

/* fe64's operations against the reference on random and edge values, and
 * fe_neg, fe_iszero, fe_isnegative. */
static void field(void)
{
    unsigned bad[FE_BAD_KINDS] = {0};
    for (unsigned t = 0; t < 20000; t++) {
        fe f, g, h;
        uint32_t rf[8], rh[8];
        random_fe(&f, t);
        random_fe(&g, t / 5 + t);
        fe_ref_check(bad, rf, &f, &g, NULL, t % 200 == 0);
        fe_neg(&h, &f);
        fe_add(&h, &h, &f);
        ref_of(rh, &h);
        for (int i = 0; i < 8; i++)
            bad[FE_BAD_SUB] += rh[i] != 0;
        bad[FE_BAD_BYTES] +=
            fe_iszero(&f) != !(rf[0] | rf[1] | rf[2] | rf[3] | rf[4] | rf[5] | rf[6] | rf[7]);
        bad[FE_BAD_BYTES] += fe_isnegative(&f) != (int)(rf[0] & 1);
    }
    static const char *const what[FE_BAD_KINDS] = {
        "mul", "sq", "add", "sub/neg", "mul121666", "tobytes/iszero/isnegative", NULL, "invert"};
    fe_ref_report("fe64 (" FE64_CHAINS ")", bad, what);
}
#endif

int main(void)
{
    tap_rng_seed(25519);
#if defined(__x86_64__)
    uint32_t need = FE64_CPU_FEATURES;
    if ((cs_cpu_probe() & need) == need)
        field();
    else
        tap_skip("fe64 (%s): CPU lacks its features", FE64_CHAINS);
#else
    tap_skip("fe64: x86-64 only");
#endif
    return tap_done();
}
