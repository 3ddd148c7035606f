/* Lazy installation of the cryptoshim provider (ML-DSA and ML-KEM on 3.5+,
 * X25519 and Ed25519 on 3.0 and 3.5+) into OpenSSL 3.x.
 *
 * Never from the constructor: the trigger is the application's first
 * EVP_PKEY_CTX constructor call in a library context (every key generation,
 * signature and verification, TLS included, starts with one), by which time
 * the application has initialised OpenSSL and loaded its configuration. The
 * provider is registered as a built-in, loaded with fallbacks retained (so
 * the default provider still auto-loads), and made preferred with an
 * optional "?provider=cryptoshim" merged into the default property query.
 * Stays dormant under CRYPTOSHIM_DISABLE=1, with libcrypto older than 3.0
 * (the provider itself refuses cores it does not serve), when the default
 * properties already pin a provider or ask for fips, and when the default
 * provider is not available in that library context. 3.0 and 3.1 cannot
 * read the default properties (EVP_get1_default_properties is 3.2+): there
 * the shim stays out when FIPS properties are on and otherwise sets
 * "?provider=cryptoshim" as the whole default (docs/provider.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "provider/provider.h"
#include "runtime/route.h"
#include "route_method.h"
#include "runtime/controls.h"
#include "runtime/dispatch_c25519.h"

#define NODE30 "OPENSSL_3.0.0"
#define NODE40 "OPENSSL_4.0.0"
#define MAX_LIBCTX 16
/* A slot whose library context was freed (OSSL_LIB_CTX_free below): skipped
 * by lookups, reused by the next context. */
#define FREED_CTX ((OSSL_LIB_CTX *)1)

/* libcrypto functions the installer calls, resolved from the libcrypto that
 * the interposed call would have reached. */
static struct {
    unsigned long (*version_num)(void);
    int (*init_crypto)(uint64_t opts, const void *settings);
    int (*available)(OSSL_LIB_CTX *, const char *);
    int (*add_builtin)(OSSL_LIB_CTX *, const char *, OSSL_provider_init_fn *);
    OSSL_PROVIDER *(*try_load)(OSSL_LIB_CTX *, const char *, int);
    char *(*get1_props)(OSSL_LIB_CTX *);
    int (*set_props)(OSSL_LIB_CTX *, const char *);
    void (*crypto_free)(void *, const char *, int);
    int (*unload)(OSSL_PROVIDER *);
    int (*fips_enabled)(OSSL_LIB_CTX *); /* for 3.0/3.1, without get1_props */
} api;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int default_done;                 /* atomic: NULL libctx handled */
static OSSL_LIB_CTX *done_ctx[MAX_LIBCTX]; /* atomic slots: handled libctxs */
/* The providers loaded, kept reachable for the life of the process (the
 * shim runs nothing at exit; libcrypto unloads them in OPENSSL_cleanup). */
static OSSL_PROVIDER *loaded_prov[MAX_LIBCTX + 1];
static __thread int installing;          /* no re-entry from our own calls */

/* The next definition of name@node (libcrypto's), reached even when
 * libcrypto was opened RTLD_LOCAL under any file name; NULL if none. */
static void *real_sym(const char *name, const char *node)
{
    void *f = dlvsym(RTLD_NEXT, name, node);
    if (!f)
        f = cs_route_find_sym(name, node);
    return f ? f : cs_route_default_sym(name);
}

/* Resolves the installer's functions from the library holding `from`.
 * Returns 1 when all are there (libcrypto 3.5 has them all). Lock held. */
static int resolve_api(void *from)
{
    Dl_info info;
    if (api.set_props)
        return 1;
    if (!dladdr(from, &info) || !info.dli_fname)
        return 0;
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    *(void **)&api.version_num = dlsym(h, "OpenSSL_version_num");
    *(void **)&api.init_crypto = dlsym(h, "OPENSSL_init_crypto");
    *(void **)&api.available = dlsym(h, "OSSL_PROVIDER_available");
    *(void **)&api.add_builtin = dlsym(h, "OSSL_PROVIDER_add_builtin");
    *(void **)&api.try_load = dlsym(h, "OSSL_PROVIDER_try_load");
    *(void **)&api.get1_props = dlsym(h, "EVP_get1_default_properties");
    *(void **)&api.crypto_free = dlsym(h, "CRYPTO_free");
    *(void **)&api.unload = dlsym(h, "OSSL_PROVIDER_unload");
    *(void **)&api.fips_enabled = dlsym(h, "EVP_default_properties_is_fips_enabled");
    void *set = dlsym(h, "EVP_set_default_properties");
    dlclose(h); /* the process keeps its own reference to libcrypto */
    if (!api.version_num || !api.init_crypto || !api.available || !api.add_builtin ||
        !api.try_load || (!api.get1_props && !api.fips_enabled) || !api.crypto_free || !set)
        return 0;
    *(void **)&api.set_props = set;
    return 1;
}

/* Whether libctx was already handled (installed or judged unsuitable). */
static int handled(OSSL_LIB_CTX *libctx)
{
    if (!libctx)
        return __atomic_load_n(&default_done, __ATOMIC_ACQUIRE);
    int free_slot = 0;
    for (int i = 0; i < MAX_LIBCTX; i++) {
        OSSL_LIB_CTX *c = __atomic_load_n(&done_ctx[i], __ATOMIC_ACQUIRE);
        if (c == libctx)
            return 1;
        if (!c)
            return 0;
        free_slot |= c == FREED_CTX;
    }
    return !free_slot; /* table full: leave further contexts alone */
}

/* Records libctx as handled. Lock held. */
static void mark_handled(OSSL_LIB_CTX *libctx)
{
    if (!libctx) {
        __atomic_store_n(&default_done, 1, __ATOMIC_RELEASE);
        return;
    }
    for (int i = 0; i < MAX_LIBCTX; i++)
        if (!done_ctx[i] || done_ctx[i] == FREED_CTX) {
            __atomic_store_n(&done_ctx[i], libctx, __ATOMIC_RELEASE);
            return;
        }
}

/* Forgets libctx (about to be freed): a new context at its address is a new
 * context. Returns the provider reference the shim held in it (to release
 * before the context goes), or NULL. Lock held. */
static OSSL_PROVIDER *forget_handled(OSSL_LIB_CTX *libctx)
{
    OSSL_PROVIDER *prov = NULL;
    for (int i = 0; i < MAX_LIBCTX; i++)
        if (done_ctx[i] == libctx) {
            __atomic_store_n(&done_ctx[i], FREED_CTX, __ATOMIC_RELEASE);
            prov = loaded_prov[i + 1];
            loaded_prov[i + 1] = NULL;
        }
    return prov;
}

/* Slot in loaded_prov for libctx's provider (0: the default context). Lock
 * held; called before mark_handled. */
static OSSL_PROVIDER **prov_slot(OSSL_LIB_CTX *libctx)
{
    if (!libctx)
        return &loaded_prov[0];
    for (int i = 0; i < MAX_LIBCTX; i++)
        if (!done_ctx[i] || done_ctx[i] == FREED_CTX)
            return &loaded_prov[i + 1];
    return NULL;
}

/* Installs the provider into libctx if everything allows it. Lock held. */
static void install(OSSL_LIB_CTX *libctx)
{
    unsigned long v = api.version_num();
    if (v < 0x30000000UL)
        return;
    /* Below 3.5 only the curves are offered (3.1-3.4 not at all): stay
     * out unless a curve kernel serves here. */
    if (v < 0x30500000UL && ((v >= 0x30100000UL) || (!cs_dispatch_c25519_serves(CS_C25519_X25519) &&
                                                      !cs_dispatch_c25519_serves(CS_C25519_ED25519))))
        return;
    /* What the application's own first fetch would do anyway; respects an
     * earlier OPENSSL_INIT_NO_LOAD_CONFIG. */
    if (!libctx)
        api.init_crypto(0x40 /* OPENSSL_INIT_LOAD_CONFIG */, NULL);
    char *props = api.get1_props ? api.get1_props(libctx) : NULL;
    if (!props && (api.get1_props || api.fips_enabled(libctx)))
        return;
    if (!props) {
        /* 3.0/3.1: not FIPS; the rest of the default cannot be read */
        static char empty[] = "";
        props = empty;
    }
    /* A pinned provider or any fips clause is the application's choice:
     * stay out of that context entirely. */
    int keep_out = strstr(props, "provider") != NULL || strstr(props, "fips") != NULL;
    size_t n = strlen(props);
    char *merged = keep_out ? NULL : malloc(n + sizeof(",?provider=" CS_PROVIDER_NAME));
    if (merged) {
        memcpy(merged, props, n);
        strcpy(merged + n, n ? ",?provider=" CS_PROVIDER_NAME : "?provider=" CS_PROVIDER_NAME);
    }
    if (api.get1_props)
        api.crypto_free(props, __FILE__, __LINE__);
    if (!merged)
        return;
    /* Our algorithms replace the default provider's: if it is
     * not available here (e.g. only fips or legacy loaded), change nothing. */
    OSSL_PROVIDER **slot = prov_slot(libctx), *prov = NULL;
    if (slot && api.available(libctx, "default") &&
        api.add_builtin(libctx, CS_PROVIDER_NAME, cs_provider_init) &&
        (prov = api.try_load(libctx, CS_PROVIDER_NAME, 1)) != NULL) {
        *slot = prov; /* the reference stays reachable */
        api.set_props(libctx, merged);
    }
    free(merged);
}

/* Called before each interposed constructor runs: cheap once libctx is
 * handled. `real` is the libcrypto function about to be called. */
static void maybe_install(OSSL_LIB_CTX *libctx, void *real)
{
    if (installing || handled(libctx) || cs_disabled())
        return;
    installing = 1;
    pthread_mutex_lock(&lock);
    if (!handled(libctx)) {
        if (resolve_api(real))
            install(libctx);
        mark_handled(libctx);
    }
    pthread_mutex_unlock(&lock);
    installing = 0;
}

/* libcrypto's definition of name@node, cached in *slot; NULL if none. */
static void *real_cached(void **slot, const char *name, const char *node)
{
    void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!fn) {
        fn = real_sym(name, node);
        __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

/* libcrypto's definition of the constructor name@node (cached in *slot),
 * after recording the route and installing what is due into libctx (NULL:
 * the default context); NULL, with nothing done, if libcrypto lacks it. */
static void *real_constructor(void **slot, const char *name, const char *node,
                              OSSL_LIB_CTX *libctx)
{
    void *fn = real_cached(slot, name, node);
    if (fn) {
        cs_route_trigger(node, name);
        maybe_install(libctx, fn);
    }
    return fn;
}

typedef EVP_PKEY_CTX *(*new_fn)(EVP_PKEY *, ENGINE *);
typedef EVP_PKEY_CTX *(*new_id_fn)(int, ENGINE *);
typedef EVP_PKEY_CTX *(*new_from_name_fn)(OSSL_LIB_CTX *, const char *, const char *);
typedef EVP_PKEY_CTX *(*new_from_pkey_fn)(OSSL_LIB_CTX *, EVP_PKEY *, const char *);
typedef void (*libctx_free_fn)(OSSL_LIB_CTX *);

/* libcrypto's EVP_PKEY_CTX_new, after installing what is due. */
static EVP_PKEY_CTX *pkey_ctx_new(const char *node, void **slot, EVP_PKEY *pkey, ENGINE *e)
{
    new_fn fn;
    *(void **)&fn = real_constructor(slot, "EVP_PKEY_CTX_new", node, NULL);
    return fn ? fn(pkey, e) : NULL;
}

/* libcrypto's EVP_PKEY_CTX_new_id, after installing what is due. */
static EVP_PKEY_CTX *pkey_ctx_new_id(const char *node, void **slot, int id, ENGINE *e)
{
    new_id_fn fn;
    *(void **)&fn = real_constructor(slot, "EVP_PKEY_CTX_new_id", node, NULL);
    return fn ? fn(id, e) : NULL;
}

/* libcrypto's EVP_PKEY_CTX_new_from_name, after installing what is due into
 * libctx. */
static EVP_PKEY_CTX *pkey_ctx_new_from_name(const char *node, void **slot, OSSL_LIB_CTX *libctx,
                                            const char *name, const char *propquery)
{
    new_from_name_fn fn;
    *(void **)&fn = real_constructor(slot, "EVP_PKEY_CTX_new_from_name", node, libctx);
    return fn ? fn(libctx, name, propquery) : NULL;
}

/* libcrypto's EVP_PKEY_CTX_new_from_pkey, after installing what is due into
 * libctx. */
static EVP_PKEY_CTX *pkey_ctx_new_from_pkey(const char *node, void **slot, OSSL_LIB_CTX *libctx,
                                            EVP_PKEY *pkey, const char *propquery)
{
    new_from_pkey_fn fn;
    *(void **)&fn = real_constructor(slot, "EVP_PKEY_CTX_new_from_pkey", node, libctx);
    return fn ? fn(libctx, pkey, propquery) : NULL;
}

/* libcrypto's OSSL_LIB_CTX_free, after forgetting the context: a new one
 * allocated at the same address must be handled afresh. */
static void libctx_free(const char *node, void **slot, OSSL_LIB_CTX *libctx)
{
    libctx_free_fn fn;
    *(void **)&fn = real_cached(slot, "OSSL_LIB_CTX_free", node);
    if (libctx && !installing) {
        pthread_mutex_lock(&lock);
        OSSL_PROVIDER *prov = forget_handled(libctx);
        pthread_mutex_unlock(&lock);
        /* Our reference would keep the provider (and its teardown) alive
         * past the context: release it first, as the application would
         * release its own. */
        if (prov && api.unload) {
            installing = 1;
            api.unload(prov);
            installing = 0;
        }
    }
    if (fn)
        fn(libctx);
}

/* The definitions each interposed name reaches, per node. */
static void *new30, *new40;
static void *new_id30, *new_id40;
static void *from_name30, *from_name40;
static void *from_pkey30, *from_pkey40;
static void *free30, *free40;

EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new(EVP_PKEY *pkey, ENGINE *e);
EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_id(int id, ENGINE *e);
EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *libctx, const char *name,
                                              const char *propquery);
EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey,
                                              const char *propquery);
void cs40_OSSL_LIB_CTX_free(OSSL_LIB_CTX *libctx);
__asm__(".symver cs40_EVP_PKEY_CTX_new, EVP_PKEY_CTX_new@" NODE40);
__asm__(".symver cs40_EVP_PKEY_CTX_new_id, EVP_PKEY_CTX_new_id@" NODE40);
__asm__(".symver cs40_EVP_PKEY_CTX_new_from_name, EVP_PKEY_CTX_new_from_name@" NODE40);
__asm__(".symver cs40_EVP_PKEY_CTX_new_from_pkey, EVP_PKEY_CTX_new_from_pkey@" NODE40);
__asm__(".symver cs40_OSSL_LIB_CTX_free, OSSL_LIB_CTX_free@" NODE40);

EVP_PKEY_CTX *EVP_PKEY_CTX_new(EVP_PKEY *pkey, ENGINE *e)
{
    return pkey_ctx_new(NODE30, &new30, pkey, e);
}

EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new(EVP_PKEY *pkey, ENGINE *e)
{
    return pkey_ctx_new(NODE40, &new40, pkey, e);
}

EVP_PKEY_CTX *EVP_PKEY_CTX_new_id(int id, ENGINE *e)
{
    return pkey_ctx_new_id(NODE30, &new_id30, id, e);
}

EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_id(int id, ENGINE *e)
{
    return pkey_ctx_new_id(NODE40, &new_id40, id, e);
}

EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *libctx, const char *name,
                                         const char *propquery)
{
    return pkey_ctx_new_from_name(NODE30, &from_name30, libctx, name, propquery);
}

EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *libctx, const char *name,
                                              const char *propquery)
{
    return pkey_ctx_new_from_name(NODE40, &from_name40, libctx, name, propquery);
}

EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey,
                                         const char *propquery)
{
    return pkey_ctx_new_from_pkey(NODE30, &from_pkey30, libctx, pkey, propquery);
}

EVP_PKEY_CTX *cs40_EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey,
                                              const char *propquery)
{
    return pkey_ctx_new_from_pkey(NODE40, &from_pkey40, libctx, pkey, propquery);
}

void OSSL_LIB_CTX_free(OSSL_LIB_CTX *libctx) { libctx_free(NODE30, &free30, libctx); }

void cs40_OSSL_LIB_CTX_free(OSSL_LIB_CTX *libctx) { libctx_free(NODE40, &free40, libctx); }

/* More first calls that lead to a provider operation without an
 * application-level EVP_PKEY_CTX_new* (3.6 and 4.0 are linked
 * DT_SYMBOLIC: their internal calls never reach the entries above): raw
 * key constructors (OpenSSH's Ed25519 keys, TLS libraries' X25519 shares),
 * the one-shot signature initialisers and certificate verification (the
 * default library context: a store's own is not visible). Each installs what is due into
 * its library context, then forwards. */
#define CTOR(ret, name, params, args, libctx)                                   \
    static void *name##_30, *name##_40;                                        \
    ret cs40_##name params;                                                    \
    __asm__(".symver cs40_" #name ", " #name "@" NODE40);                      \
    ret name params                                                            \
    {                                                                          \
        ret(*fn) params;                                                       \
        *(void **)&fn = real_constructor(&name##_30, #name, NODE30, libctx);   \
        return fn ? fn args : (ret)0;                                          \
    }                                                                          \
    ret cs40_##name params                                                     \
    {                                                                          \
        ret(*fn) params;                                                       \
        *(void **)&fn = real_constructor(&name##_40, #name, NODE40, libctx);   \
        return fn ? fn args : (ret)0;                                          \
    }

CTOR(EVP_PKEY *, EVP_PKEY_new_raw_private_key,
     (int type, ENGINE *e, const unsigned char *k, size_t len), (type, e, k, len), NULL)
CTOR(EVP_PKEY *, EVP_PKEY_new_raw_public_key,
     (int type, ENGINE *e, const unsigned char *k, size_t len), (type, e, k, len), NULL)
CTOR(EVP_PKEY *, EVP_PKEY_new_raw_private_key_ex,
     (OSSL_LIB_CTX * libctx, const char *keytype, const char *propq, const unsigned char *k,
      size_t len),
     (libctx, keytype, propq, k, len), libctx)
CTOR(EVP_PKEY *, EVP_PKEY_new_raw_public_key_ex,
     (OSSL_LIB_CTX * libctx, const char *keytype, const char *propq, const unsigned char *k,
      size_t len),
     (libctx, keytype, propq, k, len), libctx)
CTOR(int, EVP_DigestSignInit,
     (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),
     (ctx, pctx, type, e, pkey), NULL)
CTOR(int, EVP_DigestVerifyInit,
     (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),
     (ctx, pctx, type, e, pkey), NULL)
CTOR(int, EVP_DigestSignInit_ex,
     (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const char *mdname, OSSL_LIB_CTX *libctx,
      const char *props, EVP_PKEY *pkey, const OSSL_PARAM params[]),
     (ctx, pctx, mdname, libctx, props, pkey, params), libctx)
CTOR(int, EVP_DigestVerifyInit_ex,
     (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const char *mdname, OSSL_LIB_CTX *libctx,
      const char *props, EVP_PKEY *pkey, const OSSL_PARAM params[]),
     (ctx, pctx, mdname, libctx, props, pkey, params), libctx)
CTOR(int, X509_verify_cert, (X509_STORE_CTX * ctx), (ctx), NULL)
CTOR(int, X509_verify, (X509 * a, EVP_PKEY *r), (a, r), NULL)
