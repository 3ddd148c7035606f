/* Lazily computed per-key ML-DSA state (kernels/mldsa/mldsa.h's prepared
 * keys) for the provider's key objects: the prepare/unprepare hooks of the
 * key skeleton's prepared slots (provider/key.h: made on first use and
 * published with a compare-and-swap, a loser freeing its copy; immutable
 * until the key is freed or re-imported, which OpenSSL never does while
 * the key is in use). */
#include "runtime/dispatch.h"
#include "key.h"

/* A private state (NTT(s1), NTT(s2), NTT(t0), K: secrets) lives in the
 * secret memory of the key's provider (the application's secure heap when
 * it has one); if that is full, there is none, and signing takes the
 * unprepared path (its workspace wiped after each call). A public state is
 * ordinary memory. */
static cs_mldsa_prepared *make(cs_key *key, const cs_mldsa_impl *impl, int priv)
{
    size_t sb, pb;
    int ps = key->hooks->ps;
    if (!priv)
        return cs_mldsa_prepare_pk(impl, ps, key->pub);
    if (cs_mldsa_prepared_sk_sizes(ps, &sb, &pb) != 0)
        return NULL;
    void *sec = cs_prov_secret_alloc_quiet(key->prov, sb);
    void *pub = sec ? cs_prov_secret_alloc(NULL, pb) : NULL; /* A-hat: public, plain heap */
    cs_mldsa_prepared *pr = pub ? cs_mldsa_prepare_sk_in(impl, ps, key->priv, sec, pub) : NULL;
    if (!pr) {
        cs_prov_secret_free(key->prov, sec, sb);
        cs_prov_secret_free(NULL, pub, pb);
    }
    return pr;
}

/* Releases a state made by make(). */
static void unmake(cs_key *key, cs_mldsa_prepared *pr, int priv)
{
    size_t sb, pb;
    if (!pr)
        return;
    if (!priv) {
        cs_mldsa_prepared_free(pr);
        return;
    }
    void *pub = cs_mldsa_prepared_public_part(pr);
    cs_mldsa_prepared_sk_sizes(key->hooks->ps, &sb, &pb);
    cs_mldsa_prepared_wipe(pr);
    cs_prov_secret_free(key->prov, pr, sb);
    cs_prov_secret_free(NULL, pub, pb);
}

void *cs_mldsa_prepare(cs_key *key, int slot)
{
    return make(key, cs_dispatch_mldsa(key->hooks->ps), slot == CS_KEY_PREP_PRIV);
}

void cs_mldsa_unprepare(cs_key *key, void *prep, int slot)
{
    unmake(key, prep, slot == CS_KEY_PREP_PRIV);
}

/* The key's state of slot when impl made it (NULL otherwise: the caller
 * takes the unprepared functions). */
static const cs_mldsa_prepared *prepared_for(cs_key *key, int slot, const cs_mldsa_impl *impl)
{
    const cs_mldsa_prepared *pr = cs_key_prepared(key, slot);
    return pr && cs_mldsa_prepared_impl(pr) == impl ? pr : NULL;
}

const cs_mldsa_prepared *cs_key_prepared_sign(cs_mldsa_key *key, const cs_mldsa_impl *impl)
{
    return key->has_priv ? prepared_for(key, CS_KEY_PREP_PRIV, impl) : NULL;
}

const cs_mldsa_prepared *cs_key_prepared_verify(cs_mldsa_key *key, const cs_mldsa_impl *impl)
{
    return key->has_pub ? prepared_for(key, CS_KEY_PREP_PUB, impl) : NULL;
}
