/* ML-DSA part of `cryptoshim selftest` (cli/selftest_kat.c runs it on
 * every implementation this CPU can run): a key from a fixed seed signs a
 * fixed message deterministically with a context; SHAKE256(pk || sig) must
 * equal the known answer (checked against OpenSSL 3.5's own ML-DSA), and
 * the signature must verify. */
#include "kernels/mldsa/mldsa.h"
#include "cli.h"

/* Key pair from a seed of set ps, deterministic signature with a context
 * (verified); pk and sig into st. */
int cli_kat_mldsa(const void *impl, int ps, cs_shake256 *st)
{
    static const uint8_t msg[] = "cryptoshim selftest", ctx[] = "ctx", rnd[32];
    uint8_t seed[CS_MLDSA_SEED_BYTES], pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES];
    uint8_t sig[CS_MLDSA_MAX_SIG_BYTES];
    for (int j = 0; j < CS_MLDSA_SEED_BYTES; j++)
        seed[j] = (uint8_t)(j * 7 + ps);
    if (cs_mldsa_keygen(impl, ps, pk, sk, seed) ||
        cs_mldsa_sign(impl, ps, sig, sk, msg, sizeof msg - 1, ctx, sizeof ctx - 1, rnd) ||
        cs_mldsa_verify(impl, ps, sig, cs_mldsa_sig_bytes(ps), msg, sizeof msg - 1, ctx,
                        sizeof ctx - 1, pk))
        return 1;
    cs_shake256_absorb(st, pk, cs_mldsa_pk_bytes(ps));
    cs_shake256_absorb(st, sig, cs_mldsa_sig_bytes(ps));
    return 0;
}
