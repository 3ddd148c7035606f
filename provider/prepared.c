/* Lazily computed per-key ML-DSA state (kernels/mldsa/mldsa.h's prepared
 * keys) for the provider's key objects. A key may be used from several
 * threads at once: each computes the state if none is published yet and
 * publishes it with a compare-and-swap; a loser frees its copy. Once
 * published the state is immutable until the key is freed or re-imported
 * (which OpenSSL never does while the key is in use). */
#include "prov.h"

/* Returns *slot, or computes one with make and publishes it. */
static const cs_mldsa_prepared *get_or_make(cs_mldsa_prepared **slot, cs_mldsa_key *key,
                                            const cs_mldsa_impl *impl, int priv)
{
    cs_mldsa_prepared *pr = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!pr) {
        cs_mldsa_prepared *mine = priv ? cs_mldsa_prepare_sk(impl, key->ps, key->sk)
                                       : cs_mldsa_prepare_pk(impl, key->ps, key->pk);
        if (!mine)
            return NULL;
        cs_mldsa_prepared *expected = NULL;
        if (__atomic_compare_exchange_n(slot, &expected, mine, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            pr = mine;
        } else {
            cs_mldsa_prepared_free(mine);
            pr = expected;
        }
    }
    return cs_mldsa_prepared_impl(pr) == impl ? pr : NULL;
}

const cs_mldsa_prepared *cs_key_prepared_sign(cs_mldsa_key *key, const cs_mldsa_impl *impl)
{
    return key->has_priv ? get_or_make(&key->prep_sign, key, impl, 1) : NULL;
}

const cs_mldsa_prepared *cs_key_prepared_verify(cs_mldsa_key *key, const cs_mldsa_impl *impl)
{
    return key->has_pub ? get_or_make(&key->prep_verify, key, impl, 0) : NULL;
}

void cs_key_prepared_reset(cs_mldsa_key *key)
{
    cs_mldsa_prepared_free(__atomic_exchange_n(&key->prep_sign, NULL, __ATOMIC_ACQ_REL));
    cs_mldsa_prepared_free(__atomic_exchange_n(&key->prep_verify, NULL, __ATOMIC_ACQ_REL));
}
