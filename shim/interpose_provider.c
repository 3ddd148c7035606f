/* Lazy installation of the cryptoshim ML-DSA provider into OpenSSL 3.5+.
 *
 * Never from the constructor: the trigger is the application's first
 * EVP_PKEY_CTX constructor call in a library context (every key generation,
 * signature and verification, TLS included, starts with one), by which time
 * the application has initialised OpenSSL and loaded its configuration. The
 * provider is registered as a built-in, loaded with fallbacks retained (so
 * the default provider still auto-loads), and made preferred with an
 * optional "?provider=cryptoshim" merged into the default property query.
 * Stays dormant under CRYPTOSHIM_DISABLE=1, with libcrypto older than 3.5,
 * when the default properties already pin a provider or ask for fips, and
 * when the default provider is not available in that library context. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "../provider/provider.h"
#include "controls.h"
#include "loaded.h"

#define OSSL_VER "OPENSSL_3.0.0"
#define MAX_LIBCTX 16

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
} api;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int default_done;                 /* atomic: NULL libctx handled */
static OSSL_LIB_CTX *done_ctx[MAX_LIBCTX]; /* atomic slots: handled libctxs */
static __thread int installing;          /* no re-entry from our own calls */

/* The next definition of name (libcrypto's), reached even when libcrypto was
 * opened RTLD_LOCAL; NULL if libcrypto 3 is not loaded. */
static void *real_sym(const char *name)
{
    void *f = dlvsym(RTLD_NEXT, name, OSSL_VER);
    return f ? f : cs_loaded_sym("libcrypto.so.3", name, OSSL_VER);
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
    void *set = dlsym(h, "EVP_set_default_properties");
    dlclose(h); /* the process keeps its own reference to libcrypto */
    if (!api.version_num || !api.init_crypto || !api.available || !api.add_builtin ||
        !api.try_load || !api.get1_props || !api.crypto_free || !set)
        return 0;
    *(void **)&api.set_props = set;
    return 1;
}

/* Whether libctx was already handled (installed or judged unsuitable). */
static int handled(OSSL_LIB_CTX *libctx)
{
    if (!libctx)
        return __atomic_load_n(&default_done, __ATOMIC_ACQUIRE);
    for (int i = 0; i < MAX_LIBCTX; i++) {
        OSSL_LIB_CTX *c = __atomic_load_n(&done_ctx[i], __ATOMIC_ACQUIRE);
        if (c == libctx)
            return 1;
        if (!c)
            return 0;
    }
    return 1; /* table full: leave further contexts alone */
}

/* Records libctx as handled. Lock held. */
static void mark_handled(OSSL_LIB_CTX *libctx)
{
    if (!libctx) {
        __atomic_store_n(&default_done, 1, __ATOMIC_RELEASE);
        return;
    }
    for (int i = 0; i < MAX_LIBCTX; i++)
        if (!done_ctx[i]) {
            __atomic_store_n(&done_ctx[i], libctx, __ATOMIC_RELEASE);
            return;
        }
}

/* Installs the provider into libctx if everything allows it. Lock held. */
static void install(OSSL_LIB_CTX *libctx)
{
    if (api.version_num() < 0x30500000UL)
        return;
    /* What the application's own first fetch would do anyway; respects an
     * earlier OPENSSL_INIT_NO_LOAD_CONFIG. */
    if (!libctx)
        api.init_crypto(0x40 /* OPENSSL_INIT_LOAD_CONFIG */, NULL);
    char *props = api.get1_props(libctx);
    if (!props)
        return;
    /* A pinned provider or any fips clause is the application's choice:
     * stay out of that context entirely. */
    int keep_out = strstr(props, "provider") != NULL || strstr(props, "fips") != NULL;
    size_t n = strlen(props);
    char *merged = keep_out ? NULL : malloc(n + sizeof(",?provider=" CS_PROVIDER_NAME));
    if (merged) {
        memcpy(merged, props, n);
        strcpy(merged + n, n ? ",?provider=" CS_PROVIDER_NAME : "?provider=" CS_PROVIDER_NAME);
    }
    api.crypto_free(props, __FILE__, __LINE__);
    if (!merged)
        return;
    /* ML-DSA must be what the default provider would have served: if it is
     * not available here (e.g. only fips or legacy loaded), change nothing. */
    if (api.available(libctx, "default") &&
        api.add_builtin(libctx, CS_PROVIDER_NAME, cs_provider_init) &&
        api.try_load(libctx, CS_PROVIDER_NAME, 1))
        api.set_props(libctx, merged);
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

/* Declares the cached pointer to libcrypto's definition of NAME. */
#define REAL(type, name)                                                      \
    static type real_##name;                                                  \
    type fn_##name = __atomic_load_n(&real_##name, __ATOMIC_ACQUIRE);         \
    if (!fn_##name) {                                                         \
        *(void **)&fn_##name = real_sym(#name);                               \
        __atomic_store_n(&real_##name, fn_##name, __ATOMIC_RELEASE);          \
    }

typedef EVP_PKEY_CTX *(*new_fn)(EVP_PKEY *, ENGINE *);
typedef EVP_PKEY_CTX *(*new_id_fn)(int, ENGINE *);
typedef EVP_PKEY_CTX *(*new_from_name_fn)(OSSL_LIB_CTX *, const char *, const char *);
typedef EVP_PKEY_CTX *(*new_from_pkey_fn)(OSSL_LIB_CTX *, EVP_PKEY *, const char *);

/* libcrypto's EVP_PKEY_CTX_new, after installing the provider if due. */
EVP_PKEY_CTX *EVP_PKEY_CTX_new(EVP_PKEY *pkey, ENGINE *e)
{
    REAL(new_fn, EVP_PKEY_CTX_new)
    if (!fn_EVP_PKEY_CTX_new)
        return NULL;
    maybe_install(NULL, (void *)fn_EVP_PKEY_CTX_new);
    return fn_EVP_PKEY_CTX_new(pkey, e);
}

/* libcrypto's EVP_PKEY_CTX_new_id, after installing the provider if due. */
EVP_PKEY_CTX *EVP_PKEY_CTX_new_id(int id, ENGINE *e)
{
    REAL(new_id_fn, EVP_PKEY_CTX_new_id)
    if (!fn_EVP_PKEY_CTX_new_id)
        return NULL;
    maybe_install(NULL, (void *)fn_EVP_PKEY_CTX_new_id);
    return fn_EVP_PKEY_CTX_new_id(id, e);
}

/* libcrypto's EVP_PKEY_CTX_new_from_name, after installing the provider
 * into libctx if due. */
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *libctx, const char *name,
                                         const char *propquery)
{
    REAL(new_from_name_fn, EVP_PKEY_CTX_new_from_name)
    if (!fn_EVP_PKEY_CTX_new_from_name)
        return NULL;
    maybe_install(libctx, (void *)fn_EVP_PKEY_CTX_new_from_name);
    return fn_EVP_PKEY_CTX_new_from_name(libctx, name, propquery);
}

/* libcrypto's EVP_PKEY_CTX_new_from_pkey, after installing the provider
 * into libctx if due. */
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey,
                                         const char *propquery)
{
    REAL(new_from_pkey_fn, EVP_PKEY_CTX_new_from_pkey)
    if (!fn_EVP_PKEY_CTX_new_from_pkey)
        return NULL;
    maybe_install(libctx, (void *)fn_EVP_PKEY_CTX_new_from_pkey);
    return fn_EVP_PKEY_CTX_new_from_pkey(libctx, pkey, propquery);
}
