/* Every ML-DSA backend this CPU runs against the portable implementation on
 * 1,000 random seeds (parameter sets in turn): identical public and private
 * keys, identical deterministic signatures, and each backend verifies the
 * portable signature. One TAP line per backend. */
#include <stdio.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"


#define SEEDS 1000

static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], sk1[CS_MLDSA_MAX_SK_BYTES];
static uint8_t pk2[CS_MLDSA_MAX_PK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES];
static uint8_t sig1[CS_MLDSA_MAX_SIG_BYTES], sig2[CS_MLDSA_MAX_SIG_BYTES];

/* Returns the number of seeds on which im and portable disagree. */
static int compare(const cs_mldsa_impl *im)
{
    static const int sets[3] = {44, 65, 87};
    const cs_mldsa_impl *p = &cs_mldsa_portable;
    static const uint8_t zero[32];
    int bad = 0;
    for (int i = 0; i < SEEDS; i++) {
        int ps = sets[i % 3];
        uint8_t seed[32], msg[64];
        tap_rng_bytes(seed, sizeof seed);
        tap_rng_bytes(msg, sizeof msg);
        int ok = cs_mldsa_keygen(im, ps, pk1, sk1, seed) == 0 &&
                 cs_mldsa_keygen(p, ps, pk2, sk2, seed) == 0 &&
                 !memcmp(pk1, pk2, cs_mldsa_pk_bytes(ps)) &&
                 !memcmp(sk1, sk2, cs_mldsa_sk_bytes(ps)) &&
                 cs_mldsa_sign(im, ps, sig1, sk1, msg, sizeof msg, NULL, 0, zero) == 0 &&
                 cs_mldsa_sign(p, ps, sig2, sk2, msg, sizeof msg, NULL, 0, zero) == 0 &&
                 !memcmp(sig1, sig2, cs_mldsa_sig_bytes(ps)) &&
                 cs_mldsa_verify(im, ps, sig2, cs_mldsa_sig_bytes(ps), msg, sizeof msg, NULL,
                                 0, pk1) == 0;
        bad += !ok;
    }
    return bad;
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(0x5eed5eed1000ULL);
    int tested = 0;
    for (unsigned i = 1; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if (!impl_runs(im->name, im->cpu_features, have))
            continue;
        int bad = compare(im);
        tap_ok(bad == 0, "%s agrees with portable on %d random seeds (%d differ)", im->name,
               SEEDS, bad);
        tested++;
    }
    if (!tested)
        tap_skip("no ML-DSA backend besides portable runs here");
    return tap_done();
}
