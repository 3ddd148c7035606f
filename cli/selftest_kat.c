/* The known answers `selftest` checks for ML-DSA and ML-KEM, one row per
 * family: every implementation of the family (runtime/registry.h) this CPU
 * can run computes each parameter set's outputs from fixed inputs (the
 * family's cli_kat_* function), and SHAKE256 of them must equal the known
 * answer (checked against OpenSSL 3.5's own ML-DSA and ML-KEM). */
#include <stdio.h>
#include <string.h>

#include "runtime/controls.h"
#include "runtime/registry.h"
#include "cli.h"

#define SETS 3

static const struct kat {
    int family;      /* CS_IMPL_*: its name prefixes the lines */
    const char *alg; /* parameter-set names: "ML-DSA" (-44) */
    const char *ops; /* what an answer covers */
    int fail_hex;    /* FAIL lines show the digest computed */
    int sets[SETS];
    const char *digests[SETS];
    int (*run)(const void *impl, int ps, cs_shake256 *st);
} kats[] = {
    {CS_IMPL_MLDSA, "ML-DSA", "keygen, sign, verify", 0, {44, 65, 87},
     {"5bd6bfa2cfdb0e40ce0dece3f2f6b963719d01c51c29173d08f19d4dbb3757b0",
      "3a1fd09a4707af93eb2afe3963e37b5cf33c7cbfff73febe9ad1c80d4a77fe5c",
      "e3e1bf20a0831a9a59fbae1cc611f5c18a8e47b9a57b9f95a5d6cf64750bc849"},
     cli_kat_mldsa},
    {CS_IMPL_MLKEM, "ML-KEM", "keygen, encaps, decaps", 1, {512, 768, 1024},
     {"a442088e6ea64460a752d6746a809cc12543ec52182409e3ba50a1f18061917b",
      "6eb7d6cf9cf62a4ed2d5a30d6f74274a3050d68a2334939cd72dce01df5a9d47",
      "386054e89446d6821a4fa84561421d199aba042ceb1c6c2f47fed81836948415"},
     cli_kat_mlkem},
};

/* 0 when impl's outputs for set k hash to the known answer; the digest's
 * hex in hex (empty when the implementation failed before it). */
static int check(const struct kat *kat, const void *impl, size_t k, char hex[65])
{
    uint8_t d[32];
    cs_shake256 st;
    hex[0] = 0;
    cs_shake256_init(&st, NULL);
    if (kat->run(impl, kat->sets[k], &st))
        return 1;
    cs_shake256_squeeze(&st, d, sizeof d);
    for (size_t j = 0; j < sizeof d; j++)
        snprintf(hex + 2 * j, 3, "%02x", d[j]);
    return strcmp(hex, kat->digests[k]) != 0;
}

/* One implementation on kat's answers (skipped when this CPU lacks one of
 * its features): a line per failure or one ok line; the failures. */
static int check_impl(const struct kat *kat, const void *impl)
{
    const char *family = cs_impl_family_name(kat->family), *name = cs_impl_name(impl);
    if (cs_impl_cpu_features(impl) & ~cs_cpu_features()) {
        printf("skip %s/%-9s (CPU lacks its features)\n", family, name);
        return 0;
    }
    int fails = 0;
    for (size_t k = 0; k < SETS; k++) {
        char hex[65];
        if (!check(kat, impl, k, hex))
            continue;
        if (kat->fail_hex)
            printf("FAIL %s/%s %s-%d (%s)\n", family, name, kat->alg, kat->sets[k], hex);
        else
            printf("FAIL %s/%s %s-%d\n", family, name, kat->alg, kat->sets[k]);
        fails++;
    }
    if (!fails)
        printf("ok   %s/%-9s %d known answers (%s)\n", family, name, SETS, kat->ops);
    return fails;
}

int cli_selftest_kats(void)
{
    int bad = 0;
    const void *impl;
    for (size_t f = 0; f < sizeof kats / sizeof kats[0]; f++)
        for (unsigned i = 0; (impl = cs_impl_at(kats[f].family, i)); i++)
            bad += check_impl(&kats[f], impl);
    return bad;
}
