/* `cryptoshim selftest`: every big-number kernel this CPU can run, checked
 * against libcrypto on random operands of every size class, secret and
 * public exponents and (kernels with an exp2 entry) a1^p1 * a2^p2, then
 * every ML-DSA and ML-KEM implementation on known answers. Exit status 1 on
 * any mismatch. */
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <stdio.h>

#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "bn_util.h"
#include "cli.h"

static int check_kernel(cs_ossl *api, const cs_bn_kernel *k, BN_CTX *ctx)
{
    static const int sizes[] = {256, 512, 1024, 1536, 2048, 3072, 4096, 8192};
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *want = BN_new(), *got = BN_new();
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int bits = sizes[i];
        if ((unsigned)bits < k->min_bits || (unsigned)bits > k->max_bits)
            continue;
        for (int ct = 0; ct < 2; ct++) {
            int ebits = ct ? bits / 2 : 17;
            if (!cli_random_operands(m, a, p, bits, ebits) ||
                !BN_mod_exp_mont(want, a, p, m, ctx, NULL) ||
                cs_modexp_with(api, k, ct, got, a, p, m, ctx) != 1 || BN_cmp(want, got)) {
                printf("FAIL %s %d-bit %s\n", k->name, bits, ct ? "secret" : "public");
                bad++;
            }
            runs++;
        }
        /* a^p * b^q with 256-bit public exponents (DSA verification). */
        BIGNUM *b = BN_new(), *q = BN_new();
        if (k->exp2 && b && q &&
            (!cli_random_operands(m, a, p, bits, 256) || !BN_rand_range(b, m) ||
             !BN_rand(q, 256, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) ||
             !BN_mod_exp2_mont(want, a, p, b, q, m, ctx, NULL) ||
             cs_modexp2_with(api, k, got, a, p, b, q, m, ctx) != 1 || BN_cmp(want, got))) {
            printf("FAIL %s %d-bit exp2\n", k->name, bits);
            bad++;
        }
        runs += k->exp2 != NULL;
        BN_free(b), BN_free(q);
    }
    BN_free(m), BN_free(a), BN_free(p), BN_free(want), BN_free(got);
    if (!bad)
        printf("ok   %-14s %d known answers\n", k->name, runs);
    return bad;
}

int cli_selftest(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "cryptoshim selftest: takes no options ('%.40s')\n", argv[1]);
        return 2;
    }
    cs_ossl *api = cli_ossl();
    BN_CTX *ctx = BN_CTX_new();
    int bad = 0;
    if (!api || !ctx) {
        fprintf(stderr, "selftest: libcrypto unavailable\n");
        return 1;
    }
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        if (!cs_bn_kernel_usable(*k)) {
            printf("skip %-14s (CPU lacks its features)\n", (*k)->name);
            continue;
        }
        bad += check_kernel(api, *k, ctx);
    }
    BN_CTX_free(ctx);
    bad += cli_selftest_kats();
    printf("%s\n", bad ? "selftest FAILED" : "selftest passed");
    return bad ? 1 : 0;
}
