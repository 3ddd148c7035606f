/* Run-time resolution of libcrypto functions. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "loaded.h"
#include "ossl.h"

cs_ossl cs_ossl30 = {.version = "OPENSSL_3.0.0"};
cs_ossl cs_ossl11 = {.version = "OPENSSL_1_1_0"};

static void *sym(void *handle, const cs_ossl *api, const char *name)
{
    return dlvsym(handle, name, api->version);
}

int cs_ossl_resolve_from(cs_ossl *api, void *h)
{
    cs_ossl t = *api;
    if (__atomic_load_n(&api->ready, __ATOMIC_ACQUIRE))
        return 1;
    t.mod_exp_mont = (cs_mod_exp_fn)sym(h, api, "BN_mod_exp_mont");
    t.mod_exp_mont_consttime = (cs_mod_exp_fn)sym(h, api, "BN_mod_exp_mont_consttime");
    t.mod_exp_mont_consttime_x2 = (cs_mod_exp_x2_fn)sym(h, api, "BN_mod_exp_mont_consttime_x2");
    t.mod_exp2_mont = (cs_mod_exp2_fn)sym(h, api, "BN_mod_exp2_mont");
    *(void **)&t.num_bits = sym(h, api, "BN_num_bits");
    *(void **)&t.is_odd = sym(h, api, "BN_is_odd");
    *(void **)&t.is_negative = sym(h, api, "BN_is_negative");
    *(void **)&t.is_zero = sym(h, api, "BN_is_zero");
    *(void **)&t.get_flags = sym(h, api, "BN_get_flags");
    *(void **)&t.ucmp = sym(h, api, "BN_ucmp");
    *(void **)&t.bn2lebinpad = sym(h, api, "BN_bn2lebinpad");
    *(void **)&t.lebin2bn = sym(h, api, "BN_lebin2bn");
    *(void **)&t.nnmod = sym(h, api, "BN_nnmod");
    *(void **)&t.ctx_start = sym(h, api, "BN_CTX_start");
    *(void **)&t.ctx_get = sym(h, api, "BN_CTX_get");
    *(void **)&t.ctx_end = sym(h, api, "BN_CTX_end");
    if (!t.mod_exp_mont || !t.mod_exp_mont_consttime || !t.num_bits || !t.is_odd ||
        !t.is_negative || !t.is_zero || !t.get_flags || !t.ucmp || !t.bn2lebinpad ||
        !t.lebin2bn || !t.nnmod || !t.ctx_start || !t.ctx_get || !t.ctx_end)
        return 0;
    /* Publish the pointers before the flag; racing resolvers write the same
     * values. */
    t.ready = 0;
    *api = t;
    __atomic_store_n(&api->ready, 1, __ATOMIC_RELEASE);
    return 1;
}

int cs_ossl_resolve(cs_ossl *api)
{
    if (__atomic_load_n(&api->ready, __ATOMIC_ACQUIRE))
        return 1;
    if (cs_ossl_resolve_from(api, RTLD_NEXT))
        return 1;
    /* libcrypto opened later with RTLD_LOCAL is not in the global scope:
     * reach it through the link map, without loading or searching. */
    void *h = cs_loaded_open(api == &cs_ossl11 ? "libcrypto.so.1.1" : "libcrypto.so.3");
    if (!h)
        return 0;
    int ok = cs_ossl_resolve_from(api, h);
    dlclose(h);
    return ok;
}
