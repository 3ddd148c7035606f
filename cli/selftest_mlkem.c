/* ML-KEM part of `cryptoshim selftest`: every implementation this CPU can
 * run derives a key pair from fixed d and z, encapsulates to it with a fixed
 * m and decapsulates; the shared secrets must agree, and SHAKE256(ek || dk
 * || ct || ss) must equal the known answer (checked against OpenSSL 3.5's
 * own ML-KEM: the same seed and ikme through EVP). */
#include <stdio.h>
#include <string.h>

#include "kernels/keccak/keccak.h"
#include "kernels/mlkem/mlkem.h"
#include "runtime/controls.h"
#include "cli.h"

static const struct {
    int ps;
    const char *digest;
} known[] = {
    {512, "a442088e6ea64460a752d6746a809cc12543ec52182409e3ba50a1f18061917b"},
    {768, "6eb7d6cf9cf62a4ed2d5a30d6f74274a3050d68a2334939cd72dce01df5a9d47"},
    {1024, "386054e89446d6821a4fa84561421d199aba042ceb1c6c2f47fed81836948415"},
};

/* 0 if impl reproduces the known answer for parameter set ps; the digest's
 * hex in hex (65 bytes). */
static int check(const cs_mlkem_impl *impl, int ps, const char *want, char hex[65])
{
    uint8_t d[32], z[32], m[32], ek[1568], dk[3168], ct[1568], ss[32], ss2[32], h[32];
    for (int j = 0; j < 32; j++) {
        d[j] = (uint8_t)(j * 3 + ps);
        z[j] = (uint8_t)(j * 5 + 1);
        m[j] = (uint8_t)(j * 11 + 7);
    }
    hex[0] = 0;
    if (impl->keygen(ps, ek, dk, d, z) || impl->encaps(ps, ct, ss, ek, m) ||
        impl->decaps(ps, ss2, ct, dk) || memcmp(ss, ss2, 32))
        return 1;
    cs_shake256 st;
    cs_shake256_init(&st, NULL);
    cs_shake256_absorb(&st, ek, cs_mlkem_ek_bytes(ps));
    cs_shake256_absorb(&st, dk, cs_mlkem_dk_bytes(ps));
    cs_shake256_absorb(&st, ct, cs_mlkem_ct_bytes(ps));
    cs_shake256_absorb(&st, ss, 32);
    cs_shake256_squeeze(&st, h, sizeof h);
    for (size_t j = 0; j < sizeof h; j++)
        snprintf(hex + 2 * j, 3, "%02x", h[j]);
    return strcmp(hex, want) != 0;
}

int cli_selftest_mlkem(void)
{
    int bad = 0;
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++) {
        if ((*i)->cpu_features & ~cs_cpu_features()) {
            printf("skip mlkem/%-9s (CPU lacks its features)\n", (*i)->name);
            continue;
        }
        int fails = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
            char hex[65];
            if (check(*i, known[k].ps, known[k].digest, hex)) {
                printf("FAIL mlkem/%s ML-KEM-%d (%s)\n", (*i)->name, known[k].ps, hex);
                fails++;
            }
        }
        if (!fails)
            printf("ok   mlkem/%-9s 3 known answers (keygen, encaps, decaps)\n", (*i)->name);
        bad += fails;
    }
    return bad;
}
