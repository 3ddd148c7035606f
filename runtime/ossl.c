/* Run-time resolution of libcrypto functions. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "family.h"
#include "route.h"
#include "ossl.h"

/* helgrind does not model C11 acquire/release: tell it about the one
 * publication edge (a client request: a few no-op instructions natively). */
#if __has_include(<valgrind/helgrind.h>)
#include <valgrind/helgrind.h>
/* The flag itself is only ever accessed atomically: not helgrind's to check. */
#define PUBLISHED(api)                                                      \
    do {                                                                    \
        VALGRIND_HG_DISABLE_CHECKING(&(api)->ready, sizeof (api)->ready);   \
        ANNOTATE_HAPPENS_BEFORE(&(api)->ready);                             \
    } while (0)
#define SEEN(api) ANNOTATE_HAPPENS_AFTER(&(api)->ready)
#else
#define PUBLISHED(api) ((void)0)
#define SEEN(api) ((void)0)
#endif

/* Whether api is published (acquire), telling helgrind so. */
static int is_ready(cs_ossl *api)
{
    if (!__atomic_load_n(&api->ready, __ATOMIC_ACQUIRE))
        return 0;
    SEEN(api);
    return 1;
}

cs_ossl cs_ossl30 = {.version = "OPENSSL_3.0.0"};
cs_ossl cs_ossl11 = {.version = "OPENSSL_1_1_0"};
cs_ossl cs_ossl40 = {.version = "OPENSSL_4.0.0"};

/* Serialises writers: a table's fields are written by one thread, once,
 * before its ready flag is released; readers look at them only after an
 * acquire load of ready == 1, so no field is ever read while written. */
static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;

/* Stands for "search the link map" among handles (NULL is RTLD_DEFAULT). */
static char link_map_search;
#define LINK_MAP ((void *)&link_map_search)

_Static_assert(offsetof(cs_ossl, version) < offsetof(cs_ossl, mod_exp_mont) &&
                   offsetof(cs_ossl, ready) < offsetof(cs_ossl, mod_exp_mont),
               "cs_ossl: version and ready come before the function pointers");

/* Stands for "the program's own unversioned export" (not the shim's). */
static char program_search;
#define PROGRAM ((void *)&program_search)

static void *sym(void *handle, const cs_ossl *api, const char *name)
{
    if (handle == LINK_MAP)
        return cs_route_find_sym(name, api->version);
    if (handle == PROGRAM)
        return cs_route_default_sym(name);
    return dlvsym(handle, name, api->version);
}

/* Fills t from handle (LINK_MAP: any loaded object defining the names at the
 * table's node, found through the link map). Returns 1 when complete. */
static int fill(cs_ossl *t, void *h)
{
    t->mod_exp_mont = (cs_mod_exp_fn)sym(h, t, "BN_mod_exp_mont");
    t->mod_exp_mont_consttime = (cs_mod_exp_fn)sym(h, t, "BN_mod_exp_mont_consttime");
    t->mod_exp_mont_consttime_x2 = (cs_mod_exp_x2_fn)sym(h, t, "BN_mod_exp_mont_consttime_x2");
    t->mod_exp2_mont = (cs_mod_exp2_fn)sym(h, t, "BN_mod_exp2_mont");
    *(void **)&t->num_bits = sym(h, t, "BN_num_bits");
    *(void **)&t->is_odd = sym(h, t, "BN_is_odd");
    *(void **)&t->is_negative = sym(h, t, "BN_is_negative");
    *(void **)&t->is_zero = sym(h, t, "BN_is_zero");
    *(void **)&t->get_flags = sym(h, t, "BN_get_flags");
    *(void **)&t->ucmp = sym(h, t, "BN_ucmp");
    *(void **)&t->bn2lebinpad = sym(h, t, "BN_bn2lebinpad");
    *(void **)&t->lebin2bn = sym(h, t, "BN_lebin2bn");
    *(void **)&t->nnmod = sym(h, t, "BN_nnmod");
    *(void **)&t->ctx_start = sym(h, t, "BN_CTX_start");
    *(void **)&t->ctx_get = sym(h, t, "BN_CTX_get");
    *(void **)&t->ctx_end = sym(h, t, "BN_CTX_end");
    *(void **)&t->from_montgomery = sym(h, t, "BN_from_montgomery"); /* optional */
    *(void **)&t->mont_ctx_new = sym(h, t, "BN_MONT_CTX_new");        /* optional */
    *(void **)&t->mont_ctx_set = sym(h, t, "BN_MONT_CTX_set");        /* optional */
    *(void **)&t->mont_ctx_free = sym(h, t, "BN_MONT_CTX_free");      /* optional */
    return t->mod_exp_mont && t->mod_exp_mont_consttime && t->num_bits && t->is_odd &&
           t->is_negative && t->is_zero && t->get_flags && t->ucmp && t->bn2lebinpad &&
           t->lebin2bn && t->nnmod && t->ctx_start && t->ctx_get && t->ctx_end;
}

/* Resolves api under the lock from the first of handles[0..n) that has every
 * function; fields are written only while ready is 0 and only here. */
static int resolve_locked(cs_ossl *api, void *const *handles, int n)
{
    int ok = 1;
    pthread_mutex_lock(&resolve_lock);
    if (!__atomic_load_n(&api->ready, __ATOMIC_ACQUIRE)) {
        cs_ossl t = {.version = api->version};
        ok = 0;
        for (int i = 0; i < n && !ok; i++)
            ok = fill(&t, handles[i]);
        if (ok) {
            Dl_info di;
            t.family = dladdr((void *)t.mod_exp_mont, &di)
                           ? cs_route_family_at((uintptr_t)di.dli_fbase)
                           : CS_FAMILY_NEWEST;
            /* Every field after ready (the function pointers), whatever
             * the table grows: no plain store to ready (read concurrently,
             * atomically) or to version (constant). */
            size_t from = offsetof(cs_ossl, mod_exp_mont);
            memcpy((char *)api + from, (const char *)&t + from, sizeof t - from);
            PUBLISHED(api);
            __atomic_store_n(&api->ready, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&resolve_lock);
    return ok;
}

int cs_ossl_resolve_from(cs_ossl *api, void *h)
{
    if (is_ready(api))
        return 1;
    void *hs[1] = {h};
    return resolve_locked(api, hs, 1);
}

int cs_ossl_resolve(cs_ossl *api)
{
    if (is_ready(api))
        return 1;
    /* The next definitions after the shim; then any loaded libcrypto at this
     * node, whatever its file name (opened RTLD_LOCAL, outside the global
     * scope), found through the link map without loading or searching; then
     * a program exporting OpenSSL's names itself, unversioned. */
    void *hs[3] = {RTLD_NEXT, LINK_MAP, PROGRAM};
    return resolve_locked(api, hs, 3);
}

int cs_ossl_resolve_path(cs_ossl *api, const char *path)
{
    if (is_ready(api))
        return 1;
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return cs_ossl_resolve(api);
    void *hs[4] = {h, RTLD_NEXT, LINK_MAP, PROGRAM};
    int ok = resolve_locked(api, hs, 4);
    dlclose(h); /* the process keeps its own reference */
    return ok;
}

cs_ossl *cs_ossl_for_node(const char *node)
{
    cs_ossl *all[] = {&cs_ossl30, &cs_ossl40, &cs_ossl11};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (node && !__builtin_strcmp(node, all[i]->version))
            return all[i];
    return NULL;
}
