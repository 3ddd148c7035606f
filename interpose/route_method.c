/* Default-method installation for libcryptos the symbol route cannot reach. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>

#include "runtime/controls.h"
#include "bn/modexp.h"
#include "runtime/ossl.h"
#include "patch_const.h"
#include "runtime/route.h"
#include "route_method.h"
#include "bn/rsa_crt.h"

/* RSA_METHOD, DH_METHOD, DSA_METHOD and the keys stay opaque here: the
 * method API is deprecated in the 3.x headers and may leave them. */
typedef const void *(*get_meth_fn)(void);
typedef int (*set_hook_fn)(void *, void *);

/* The libcrypto functions the installer calls, from one library. */
struct meth_api {
    unsigned long (*version_num)(void);
    get_meth_fn rsa_get_default, rsa_stock, dh_get_default, dh_stock, dsa_get_default, dsa_stock;
    set_hook_fn rsa_set_exp, dh_set_exp, dsa_set_exp, dsa_set_exp2;
    set_hook_fn rsa_set_mod_exp;
    void *(*rsa_get_mod_exp)(const void *meth);
};

/* Per version node: the table the hooks compute with, the stock methods
 * patched, what happened. */
struct node_state {
    const char *node;
    cs_ossl *api;
    int state; /* atomic: CS_METHOD_* bits, 0 until tried */
    void *rsa, *dh, *dsa;
};

#define HOOKS(tag, table)                                                                  \
    static cs_rsa_api rsa_api_##tag;                                                       \
    static int rsa_crt_##tag(BIGNUM *r0, const BIGNUM *i, void *rsa, BN_CTX *ctx)          \
    {                                                                                      \
        return cs_rsa_crt(&table, &rsa_api_##tag, r0, i, rsa, ctx);                       \
    }                                                                                      \
    static int rsa_exp_##tag(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, \
                             BN_CTX *ctx, BN_MONT_CTX *mont)                               \
    {                                                                                      \
        return cs_modexp_entry(&table, 0, r, a, p, m, ctx, mont);                         \
    }                                                                                      \
    static int key_exp_##tag(const void *key, BIGNUM *r, const BIGNUM *a, const BIGNUM *p, \
                             const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *mont)              \
    {                                                                                      \
        (void)key;                                                                         \
        return cs_modexp_entry(&table, 0, r, a, p, m, ctx, mont);                         \
    }                                                                                      \
    static int dsa_exp2_##tag(void *dsa, BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1,  \
                              const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m,         \
                              BN_CTX *ctx, BN_MONT_CTX *mont)                              \
    {                                                                                      \
        (void)dsa;                                                                         \
        return cs_modexp2_entry(&table, rr, a1, p1, a2, p2, m, ctx, mont);                \
    }

/* The stock hooks call BN_mod_exp_mont (which hands BN_FLG_CONSTTIME inputs
 * to the consttime function) and BN_mod_exp2_mont; cs_modexp_entry with
 * ct_entry 0 and cs_modexp2_entry do the same when they pass a call on. DH's
 * and DSA's bn_mod_exp hooks differ only in the type of their first
 * argument, the key (opaque here and unused): key_exp serves both. */
HOOKS(30, cs_ossl30)
HOOKS(40, cs_ossl40)

static struct node_state nodes[] = {
    {.node = "OPENSSL_3.0.0", .api = &cs_ossl30},
    {.node = "OPENSSL_4.0.0", .api = &cs_ossl40},
};
static void *const hooks[][5] = {
    {(void *)rsa_exp_30, (void *)key_exp_30, (void *)key_exp_30, (void *)dsa_exp2_30,
     (void *)rsa_crt_30},
    {(void *)rsa_exp_40, (void *)key_exp_40, (void *)key_exp_40, (void *)dsa_exp2_40,
     (void *)rsa_crt_40},
};
static cs_rsa_api *const rsa_apis[] = {&rsa_api_30, &rsa_api_40};

static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int installing __attribute__((tls_model("initial-exec")));

static int node_index(const char *node)
{
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
        if (!strcmp(nodes[i].node, node))
            return (int)i;
    return -1;
}

/* Resolves the installer's functions from the library at path. */
static int resolve_meth_api(const char *path, const char *node, struct meth_api *m)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
#define GET(field, name) *(void **)&m->field = dlvsym(h, name, node)
    GET(version_num, "OpenSSL_version_num");
    GET(rsa_get_default, "RSA_get_default_method");
    GET(rsa_stock, "RSA_PKCS1_OpenSSL");
    GET(rsa_set_exp, "RSA_meth_set_bn_mod_exp");
    GET(dh_get_default, "DH_get_default_method");
    GET(dh_stock, "DH_OpenSSL");
    GET(dh_set_exp, "DH_meth_set_bn_mod_exp");
    GET(dsa_get_default, "DSA_get_default_method");
    GET(dsa_stock, "DSA_OpenSSL");
    GET(dsa_set_exp, "DSA_meth_set_bn_mod_exp");
    GET(dsa_set_exp2, "DSA_meth_set_mod_exp");
    GET(rsa_set_mod_exp, "RSA_meth_set_mod_exp");
    GET(rsa_get_mod_exp, "RSA_meth_get_mod_exp");
#undef GET
    dlclose(h); /* the process keeps its own reference */
    return m->version_num != NULL;
}

/* Fills r from the library at path (node), with stock's rsa_mod_exp read
 * from its stock method; r stays incomplete where anything is missing. */
static void resolve_rsa_api(const char *path, const char *node, const struct meth_api *m,
                            cs_rsa_api *r)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return;
#define GET(field, name) *(void **)&r->field = dlvsym(h, name, node)
    GET(get0_key, "RSA_get0_key");
    GET(get0_factors, "RSA_get0_factors");
    GET(get0_crt, "RSA_get0_crt_params");
    GET(extra_primes, "RSA_get_multi_prime_extra_count");
    GET(bn_new, "BN_new");
    GET(bn_free, "BN_clear_free");
    GET(with_flags, "BN_with_flags");
    GET(copy, "BN_copy");
    GET(cmp, "BN_cmp");
    GET(dup, "BN_dup");
#undef GET
    dlclose(h);
    const void *stock = m->rsa_stock ? m->rsa_stock() : NULL;
    if (stock && m->rsa_get_mod_exp)
        *(void **)&r->stock_mod_exp = m->rsa_get_mod_exp(stock);
}

/* One algorithm's stock method and the hooks to store into it. */
struct patch {
    void *meth;
    set_hook_fn set1, set2;
    void *hook1, *hook2;
};

/* cs_patch_const callback: stores the hooks through libcrypto's setters. */
static int store_hooks(void *arg)
{
    struct patch *p = arg;
    return p->set1(p->meth, p->hook1) && (!p->set2 || !p->hook2 || p->set2(p->meth, p->hook2));
}

/* Bytes of a method object the setters may write: the 1.1.1-4.0 RSA_METHOD
 * is the largest, 17 pointers and an int. */
#define METHOD_BYTES 256

/* Installs one algorithm's hooks into libcrypto's stock method object itself,
 * unless the default is no longer the stock one (the application's or an
 * engine's choice, left alone). In place, not a copy: libcrypto treats a key
 * whose method is not its stock object as foreign, and refuses to duplicate
 * it or copy its parameters (EVP_PKEY_dup, TLS 1.3 ffdhe key shares). Keys
 * made before installation use the stock object too, so they are served as
 * well. Returns the CS_METHOD_* bits for what happened. */
static int install_one(get_meth_fn get_default, get_meth_fn stock, set_hook_fn set1,
                       void *hook1, set_hook_fn set2, void *hook2, void **keep,
                       int installed_bit, int kept_bit)
{
    if (!get_default || !stock || !set1)
        return 0;
    const void *s = stock();
    if (!s)
        return 0;
    if (get_default() != s)
        return kept_bit;
    struct patch p = {(void *)s, set1, set2, hook1, hook2};
    /* The object may sit in a read-only page (4.0's RSA and DSA methods). */
    if (!cs_patch_const(s, METHOD_BYTES, store_hooks, &p))
        return 0;
    *keep = p.meth;
    return installed_bit;
}

/* Finds the libcrypto at st's node, and installs the methods if its route is
 * the method route. Lock held. */
static int install(struct node_state *st, int idx, const char *entry)
{
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX);
    const cs_libcrypto *c = NULL;
    for (int i = 0; i < n && !c; i++)
        if (!strcmp(lc[i].abi, st->node))
            c = &lc[i];
    if (!c)
        return CS_METHOD_TRIED;
    if (c->modexp != CS_ROUTE_METHOD) {
        cs_route_note_lib(c, NULL); /* e.g. opened after the constructor ran */
        return CS_METHOD_TRIED;
    }
    char text[160];
    Dl_info di;
    struct meth_api m = {0};
    /* The hooks compute with st->api: it must come from this library (not
     * another libcrypto at the same node that resolved first). */
    if (!cs_ossl_resolve_path(st->api, c->path) || !dladdr((void *)st->api->num_bits, &di) ||
        (uintptr_t)di.dli_fbase != c->base || !resolve_meth_api(c->path, st->node, &m)) {
        cs_route_note_lib(c, "not installed: another libcrypto at this ABI");
        return CS_METHOD_TRIED;
    }
    int bits = CS_METHOD_TRIED;
    void *const *h = hooks[idx];
    /* RSA's private operation too, so that its CRT halves stay one paired
     * call (rsa_crt.h); only with every function that needs. */
    cs_rsa_api *ra = rsa_apis[idx];
    resolve_rsa_api(c->path, st->node, &m, ra);
    int crt = cs_rsa_api_complete(ra) && m.rsa_set_mod_exp;
    bits |= install_one(m.rsa_get_default, m.rsa_stock, m.rsa_set_exp, h[0],
                        crt ? m.rsa_set_mod_exp : NULL, crt ? h[4] : NULL, &st->rsa,
                        CS_METHOD_RSA, CS_METHOD_RSA_KEPT);
    bits |= install_one(m.dh_get_default, m.dh_stock, m.dh_set_exp, h[1], NULL, NULL, &st->dh,
                        CS_METHOD_DH, CS_METHOD_DH_KEPT);
    bits |= install_one(m.dsa_get_default, m.dsa_stock, m.dsa_set_exp, h[2], m.dsa_set_exp2,
                        h[3], &st->dsa, CS_METHOD_DSA, CS_METHOD_DSA_KEPT);
    /* OpenSSL_version_num: the application has called in, so the library
     * is initialised enough to answer. */
    unsigned long v = m.version_num();
    snprintf(text, sizeof text, "%lu.%lu.%lu: %s%s%s%s%s%s%sfrom %s", v >> 28,
             (v >> 20) & 0xff, (v >> 4) & 0xff, bits & CS_METHOD_RSA ? "rsa " : "",
             bits & CS_METHOD_RSA && crt ? "rsa-crt " : "",
             bits & CS_METHOD_DH ? "dh " : "", bits & CS_METHOD_DSA ? "dsa " : "",
             bits & CS_METHOD_RSA_KEPT ? "rsa-app's " : "",
             bits & CS_METHOD_DH_KEPT ? "dh-app's " : "",
             bits & CS_METHOD_DSA_KEPT ? "dsa-app's " : "", entry);
    cs_route_note_lib(c, text);
    return bits;
}

void cs_route_trigger(const char *node, const char *entry)
{
    int idx = node[8] == '3' ? 0 : node[8] == '4' ? 1 : node_index(node);
    if (idx < 0)
        return;
    struct node_state *st = &nodes[idx];
    if (__atomic_load_n(&st->state, __ATOMIC_ACQUIRE) || installing || cs_disabled())
        return;
    installing = 1;
    pthread_mutex_lock(&install_lock);
    if (!__atomic_load_n(&st->state, __ATOMIC_RELAXED))
        __atomic_store_n(&st->state, install(st, idx, entry), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&install_lock);
    installing = 0;
}

int cs_route_method_state(const char *node)
{
    int idx = node_index(node);
    return idx < 0 ? 0 : __atomic_load_n(&nodes[idx].state, __ATOMIC_ACQUIRE);
}
