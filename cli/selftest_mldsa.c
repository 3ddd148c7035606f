/* ML-DSA part of `cryptoshim selftest`: every implementation this CPU can
 * run derives a key from a fixed seed and signs a fixed message
 * deterministically with a context; SHAKE256(pk || sig) must equal the known
 * answer (checked against OpenSSL 3.5's own ML-DSA), and the signature must
 * verify. */
#include <stdio.h>
#include <string.h>

#include "kernels/mldsa/mldsa.h"
#include "runtime/controls.h"
#include "cli.h"

static const struct {
    int ps;
    const char *digest;
} known[] = {
    {44, "5bd6bfa2cfdb0e40ce0dece3f2f6b963719d01c51c29173d08f19d4dbb3757b0"},
    {65, "3a1fd09a4707af93eb2afe3963e37b5cf33c7cbfff73febe9ad1c80d4a77fe5c"},
    {87, "e3e1bf20a0831a9a59fbae1cc611f5c18a8e47b9a57b9f95a5d6cf64750bc849"},
};

/* 0 if impl reproduces the known answer for parameter set ps. */
static int check(const cs_mldsa_impl *impl, int ps, const char *want)
{
    static const uint8_t msg[] = "cryptoshim selftest", ctx[] = "ctx", rnd[32];
    uint8_t seed[CS_MLDSA_SEED_BYTES], pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES];
    uint8_t sig[CS_MLDSA_MAX_SIG_BYTES], d[32];
    char hex[65];
    for (int j = 0; j < CS_MLDSA_SEED_BYTES; j++)
        seed[j] = (uint8_t)(j * 7 + ps);
    if (cs_mldsa_keygen(impl, ps, pk, sk, seed) ||
        cs_mldsa_sign(impl, ps, sig, sk, msg, sizeof msg - 1, ctx, sizeof ctx - 1, rnd) ||
        cs_mldsa_verify(impl, ps, sig, cs_mldsa_sig_bytes(ps), msg, sizeof msg - 1, ctx,
                        sizeof ctx - 1, pk))
        return 1;
    cs_shake256 st;
    cs_shake256_init(&st, NULL);
    cs_shake256_absorb(&st, pk, cs_mldsa_pk_bytes(ps));
    cs_shake256_absorb(&st, sig, cs_mldsa_sig_bytes(ps));
    cs_shake256_squeeze(&st, d, sizeof d);
    for (size_t j = 0; j < sizeof d; j++)
        snprintf(hex + 2 * j, 3, "%02x", d[j]);
    return strcmp(hex, want) != 0;
}

int cli_selftest_mldsa(void)
{
    int bad = 0;
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i; i++) {
        const char *name = cs_mldsa_impl_name(*i);
        if (cs_mldsa_impl_cpu_features(*i) & ~cs_cpu_features()) {
            printf("skip mldsa/%-9s (CPU lacks its features)\n", name);
            continue;
        }
        int fails = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (check(*i, known[k].ps, known[k].digest)) {
                printf("FAIL mldsa/%s ML-DSA-%d\n", name, known[k].ps);
                fails++;
            }
        if (!fails)
            printf("ok   mldsa/%-9s 3 known answers (keygen, sign, verify)\n", name);
        bad += fails;
    }
    return bad;
}
