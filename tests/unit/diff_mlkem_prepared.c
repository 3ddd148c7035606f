/* The provider's prepared ML-KEM keys (provider/mlkem_keymgmt.c), called
 * through its OSSL_DISPATCH tables as the core calls them (no core: plain
 * memory, no error queue; libcrypto linked for RAND_priv_bytes_ex): a key
 * generated from a seed, imported from ek, or from dk holds a prepared key
 * made by the implementation dispatched then; encapsulation ("ikme") and
 * decapsulation give the portable kernel's bytes; a dup starts without one
 * (the key skeleton's prepared slot, provider/key.h), serves after the
 * original is freed and is prepared at its first use; and once the dispatcher
 * picks another implementation (CRYPTOSHIM_KERNELS re-read, as
 * cs_dispatch_refresh does), keys prepared before still give the same
 * bytes (the unprepared path) while new keys are prepared by the new pick;
 * and four threads sharing one key (no lock: only its prepared slot may
 * change, by compare-and-swap) all get the reference bytes. Per parameter set, for every
 * implementation this CPU runs. */
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "provider/mlkem_key.h"
#include "runtime/controls.h"
#include "runtime/dispatch_mlkem.h"
#include "support/mlkem_prov_calls.h"
#include "support/tap.h"

/* Dispatches to CRYPTOSHIM_KERNELS=name from now on, as a refresh would. */
static void force(const char *name)
{
    setenv("CRYPTOSHIM_KERNELS", name, 1);
    cs_controls_load();
    cs_dispatch_refresh();
}

/* A key generated from the 64-byte seed, or NULL. */
static cs_mlkem_key *generate(int ps, const uint8_t seed[64])
{
    const OSSL_DISPATCH *t = keymgmt_of(ps);
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string(CS_P_SEED, (void *)seed, 64), OSSL_PARAM_END};
    void *g = ((void *(*)(void *, int, const OSSL_PARAM *))fn(t, OSSL_FUNC_KEYMGMT_GEN_INIT))(
        &prov, OSSL_KEYMGMT_SELECT_KEYPAIR, p);
    if (!g)
        return NULL;
    cs_mlkem_key *key = ((void *(*)(void *, OSSL_CALLBACK *, void *))fn(t, OSSL_FUNC_KEYMGMT_GEN))(
        g, NULL, NULL);
    ((void (*)(void *))fn(t, OSSL_FUNC_KEYMGMT_GEN_CLEANUP))(g);
    return key;
}

/* A key imported from one part (CS_P_PUB or CS_P_PRIV), or NULL. */
static cs_mlkem_key *import(int ps, const char *name, const uint8_t *data, size_t len)
{
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string(name, (void *)data, len), OSSL_PARAM_END};
    return import_params(ps, p);
}

/* The keymgmt's dup of the whole key. */
static cs_mlkem_key *dup(int ps, const cs_mlkem_key *key)
{
    return ((void *(*)(const void *, int))fn(keymgmt_of(ps), OSSL_FUNC_KEYMGMT_DUP))(
        key, OSSL_KEYMGMT_SELECT_ALL);
}

/* The portable kernel's key from seed and its encapsulation with m, the reference. */
typedef struct ref {
    int ps;
    size_t ekn, dkn, ctn;
    uint8_t seed[64], m[32], ek[1568], dk[3168], ct[1568], ss[32], rej[32];
} ref;

/* A fresh reference for ps; rej is the secret of ct with one bit flipped. */
static void make_ref(ref *r, int ps)
{
    r->ps = ps;
    r->ekn = cs_mlkem_ek_bytes(ps), r->dkn = cs_mlkem_dk_bytes(ps), r->ctn = cs_mlkem_ct_bytes(ps);
    tap_rng_bytes(r->seed, 64);
    tap_rng_bytes(r->m, 32);
    uint8_t bad[1568];
    if (cs_mlkem_portable.keygen(ps, r->ek, r->dk, r->seed, r->seed + 32) ||
        cs_mlkem_portable.encaps(ps, r->ct, r->ss, r->ek, r->m))
        abort();
    memcpy(bad, r->ct, r->ctn);
    bad[r->ctn / 2] ^= 4;
    if (cs_mlkem_portable.decaps(ps, r->rej, bad, r->dk))
        abort();
}

/* key (holding what `priv` says) gives the reference's bytes: encapsulation, and with a
 * private part decapsulation and implicit rejection. */
static int serves(cs_mlkem_key *key, const ref *r, int priv)
{
    uint8_t ct[1568], ss[32], bad[1568];
    int ok = kem_encaps(key, r->m, ct, NULL, ss) && !memcmp(ct, r->ct, r->ctn) &&
             !memcmp(ss, r->ss, 32);
    if (!priv)
        return ok;
    memcpy(bad, r->ct, r->ctn);
    bad[r->ctn / 2] ^= 4;
    return ok && kem_decaps(key, r->ct, r->ctn, ss) && !memcmp(ss, r->ss, 32) &&
           kem_decaps(key, bad, r->ctn, ss) && !memcmp(ss, r->rej, 32);
}

/* key's prepared data exists and was made by impl. */
static int prepared_by(const cs_mlkem_key *key, const cs_mlkem_impl *impl)
{
    const void *pr = key ? key->prep[CS_KEY_PREP_PUB] : NULL;
    return pr && cs_mlkem_prepared_impl(pr) == impl;
}

/* Generation, both imports and dup under implementation im, then the same keys after the
 * dispatcher moved to each other implementation. */
static void under(const cs_mlkem_impl *im, const cs_mlkem_impl *const *all, unsigned n, int ps)
{
    ref r;
    make_ref(&r, ps);
    force(im->name);
    cs_mlkem_key *gen = generate(ps, r.seed), *pub = import(ps, CS_P_PUB, r.ek, r.ekn);
    cs_mlkem_key *priv = import(ps, CS_P_PRIV, r.dk, r.dkn);
    tap_ok(cs_dispatch_mlkem(ps) == im && prepared_by(gen, im) && prepared_by(pub, im) &&
               prepared_by(priv, im),
           "%s: ML-KEM-%d generated, ek-imported and dk-imported keys are prepared by it",
           im->name, ps);
    tap_ok(gen && pub && priv && !memcmp(gen->pub, r.ek, r.ekn) && serves(gen, &r, 1) &&
               serves(pub, &r, 0) && serves(priv, &r, 1),
           "%s: ML-KEM-%d prepared keys encapsulate and decapsulate as the portable kernel",
           im->name, ps);
    cs_mlkem_key *copy = gen ? dup(ps, gen) : NULL;
    int unprepared = copy && !copy->prep[CS_KEY_PREP_PUB];
    key_free(ps, gen);
    tap_ok(unprepared && serves(copy, &r, 1) && prepared_by(copy, im),
           "%s: ML-KEM-%d a dup starts unprepared, serves after the original is freed and is "
           "prepared by it at first use", im->name, ps);
    for (unsigned j = 0; j < n; j++) {
        if (all[j] == im)
            continue;
        force(all[j]->name);
        cs_mlkem_key *fresh = import(ps, CS_P_PUB, r.ek, r.ekn);
        tap_ok(cs_dispatch_mlkem(ps) == all[j] && prepared_by(pub, im) && copy &&
                   serves(copy, &r, 1) && serves(pub, &r, 0) && serves(priv, &r, 1) &&
                   prepared_by(fresh, all[j]) && serves(fresh, &r, 0),
               "%s: ML-KEM-%d keys prepared by it serve unprepared once %s is dispatched; "
               "new keys are prepared by %s", im->name, ps, all[j]->name, all[j]->name);
        if (fresh)
            key_free(ps, fresh);
    }
    if (copy)
        key_free(ps, copy);
    if (pub)
        key_free(ps, pub);
    if (priv)
        key_free(ps, priv);
}

/* One thread's share of the shared-key check. */
typedef struct sharer {
    cs_mlkem_key *key;
    const ref *r;
    int ok;
} sharer;

/* Encapsulates and decapsulates 200 times with the shared key. */
static void *share(void *arg)
{
    sharer *s = arg;
    s->ok = 1;
    for (int i = 0; i < 200; i++)
        s->ok &= serves(s->key, s->r, 1);
    return NULL;
}

/* Four threads on one generated key at once, under the implementation dispatched now. */
static void shared_key(int ps)
{
    ref r;
    make_ref(&r, ps);
    cs_mlkem_key *key = generate(ps, r.seed);
    sharer s[4];
    pthread_t t[4];
    int ok = key != NULL, started = 0;
    for (int i = 0; ok && i < 4; i++, started++) {
        s[i] = (sharer){key, &r, 0};
        ok = pthread_create(&t[i], NULL, share, &s[i]) == 0;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        ok &= s[i].ok;
    }
    tap_ok(ok, "%s: ML-KEM-%d four threads share one prepared key: 4 x 200 encapsulations and "
           "decapsulations with the portable kernel's bytes", cs_dispatch_mlkem(ps)->name, ps);
    if (key)
        key_free(ps, key);
}

int main(void)
{
    static const int sets[] = {512, 768, 1024};
    const cs_mlkem_impl *all[8];
    unsigned n = 0;
    tap_rng_seed(2704);
    /* a call into libcrypto keeps it linked: the provider finds RAND_priv_bytes_ex (the
     * pairwise test of a dk import) by dlvsym in the process */
    if (!OPENSSL_init_crypto(0, NULL))
        return 1;
    cs_controls_load();
    cs_dispatch_init_with("/nonexistent/policy"); /* the built-in rules */
    uint32_t have = cs_cpu_features();
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i && n < 8; i++)
        if (((*i)->cpu_features & ~have) == 0)
            all[n++] = *i;
    for (unsigned j = 0; j < n; j++)
        for (unsigned s = 0; s < 3; s++)
            under(all[j], all, n, sets[s]);
    force(all[0]->name);
    for (unsigned s = 0; s < 3; s++)
        shared_key(sets[s]);
    return tap_done();
}
