/* `cryptoshim bench bn`: each usable kernel against libcrypto's
 * BN_mod_exp_mont_consttime (secret exponent of modulus length) and
 * BN_mod_exp_mont (e = 65537), in-process, same operands. */
#include <openssl/bn.h>
#include <stdio.h>

#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "bn_util.h"
#include "cli.h"
#include "runtime/timer.h"

/* Operations per second of one configuration over about `secs` seconds of
 * wall time. */
static double rate(cs_ossl *api, const cs_bn_kernel *k, int ct, BIGNUM *r, BIGNUM *a, BIGNUM *p,
                   BIGNUM *m, BN_CTX *ctx, double secs)
{
    long n = 0;
    double t0 = cs_timer_wall(), t;
    do {
        int ok = k ? cs_modexp_with(api, k, ct, r, a, p, m, ctx) == 1
                   : (ct ? BN_mod_exp_mont_consttime(r, a, p, m, ctx, NULL)
                         : BN_mod_exp_mont(r, a, p, m, ctx, NULL));
        if (!ok)
            return -1;
        n++;
        t = cs_timer_wall();
    } while (t - t0 < secs);
    return (double)n / (t - t0);
}

int cli_bench_bn(int argc, char **argv)
{
    static const int sizes[] = {1024, 1536, 2048, 3072, 4096};
    if (argc > 1) {
        fprintf(stderr, "cryptoshim bench bn: takes no options ('%.40s')\n", argv[1]);
        return 2;
    }
    cs_ossl *api = cli_ossl();
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *r = BN_new();
    if (!api || !ctx || !m || !a || !p || !r)
        return 1;
    printf("%-6s %-10s %-14s %12s %12s %7s\n", "bits", "exponent", "kernel", "ops/s",
           "libcrypto", "ratio");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int ct = 1; ct >= 0; ct--) {
            if (!cli_random_operands(m, a, p, sizes[i], ct ? sizes[i] : 17))
                return 1;
            if (!ct)
                BN_set_word(p, 65537);
            double base = rate(api, NULL, ct, r, a, p, m, ctx, 0.3);
            for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
                if (!cs_bn_kernel_usable(*k) || (unsigned)sizes[i] < (*k)->min_bits ||
                    (unsigned)sizes[i] > (*k)->max_bits)
                    continue;
                double v = rate(api, *k, ct, r, a, p, m, ctx, 0.3);
                printf("%-6d %-10s %-14s %12.1f %12.1f %6.2fx\n", sizes[i],
                       ct ? "secret" : "65537", (*k)->name, v, base, v / base);
            }
        }
    }
    BN_free(m), BN_free(a), BN_free(p), BN_free(r);
    BN_CTX_free(ctx);
    return 0;
}
