/* Lazily computed per-key ML-DSA state (kernels/mldsa/mldsa.h's prepared
 * keys) for the provider's key objects. A key may be used from several
 * threads at once: each computes the state if none is published yet and
 * publishes it with a compare-and-swap; a loser frees its copy. Once
 * published the state is immutable until the key is freed or re-imported
 * (which OpenSSL never does while the key is in use). */
#include "prov.h"

/* A private state (NTT(s1), NTT(s2), NTT(t0), K: secrets) lives in the
 * secret memory of the key's provider (the application's secure heap when
 * it has one); if that is full, there is none, and signing takes the
 * unprepared path (its workspace wiped after each call). A public state is
 * ordinary memory. */
static cs_mldsa_prepared *make(cs_mldsa_key *key, const cs_mldsa_impl *impl, int priv)
{
    size_t sb, pb;
    if (!priv)
        return cs_mldsa_prepare_pk(impl, key->ps, key->pk);
    if (cs_mldsa_prepared_sk_sizes(key->ps, &sb, &pb) != 0)
        return NULL;
    void *sec = cs_prov_secret_alloc_quiet(key->prov, sb);
    void *pub = sec ? cs_prov_secret_alloc(NULL, pb) : NULL; /* A-hat: public, plain heap */
    cs_mldsa_prepared *pr = pub ? cs_mldsa_prepare_sk_in(impl, key->ps, key->sk, sec, pub) : NULL;
    if (!pr) {
        cs_prov_secret_free(key->prov, sec, sb);
        cs_prov_secret_free(NULL, pub, pb);
    }
    return pr;
}

/* Releases a state made by make(). */
static void unmake(cs_mldsa_key *key, cs_mldsa_prepared *pr, int priv)
{
    size_t sb, pb;
    if (!pr)
        return;
    if (!priv) {
        cs_mldsa_prepared_free(pr);
        return;
    }
    void *pub = cs_mldsa_prepared_public_part(pr);
    cs_mldsa_prepared_sk_sizes(key->ps, &sb, &pb);
    cs_mldsa_prepared_wipe(pr);
    cs_prov_secret_free(key->prov, pr, sb);
    cs_prov_secret_free(NULL, pub, pb);
}

/* Returns *slot, or computes one with make and publishes it. */
static const cs_mldsa_prepared *get_or_make(cs_mldsa_prepared **slot, cs_mldsa_key *key,
                                            const cs_mldsa_impl *impl, int priv)
{
    cs_mldsa_prepared *pr = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!pr) {
        cs_mldsa_prepared *mine = make(key, impl, priv);
        if (!mine)
            return NULL;
        cs_mldsa_prepared *expected = NULL;
        if (__atomic_compare_exchange_n(slot, &expected, mine, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            pr = mine;
        } else {
            unmake(key, mine, priv);
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
    unmake(key, __atomic_exchange_n(&key->prep_sign, NULL, __ATOMIC_ACQ_REL), 1);
    unmake(key, __atomic_exchange_n(&key->prep_verify, NULL, __ATOMIC_ACQ_REL), 0);
}
