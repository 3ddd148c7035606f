/* Provider entry: OSSL_provider_init (so libcryptoshim.so also loads as an
 * ordinary provider module), the algorithm tables, and provider params. The
 * preloaded shim registers the same init function as a built-in provider
 * (interpose/provider.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "prov.h"
#include "runtime/dispatch_mlkem.h"

/* Every algorithm carries provider=cryptoshim and no fips property, so a
 * fips=yes query never selects it. */
#define PROPS "provider=cryptoshim"
#define MLKEM512_NAMES "ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1"
#define MLKEM768_NAMES "ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2"
#define MLKEM1024_NAMES "ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3"

/* ML-KEM first: the table from entry MLKEM_KEYMGMT_ENTRIES on is offered
 * when libcrypto's own ML-KEM is the faster here (cs_dispatch_mlkem_serves). */
#define MLKEM_KEYMGMT_ENTRIES 3
static const OSSL_ALGORITHM keymgmt_algs[] = {
    {MLKEM512_NAMES, PROPS, cs_mlkem512_keymgmt, "cryptoshim ML-KEM-512"},
    {MLKEM768_NAMES, PROPS, cs_mlkem768_keymgmt, "cryptoshim ML-KEM-768"},
    {MLKEM1024_NAMES, PROPS, cs_mlkem1024_keymgmt, "cryptoshim ML-KEM-1024"},
    {"ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44", PROPS, cs_mldsa44_keymgmt,
     "cryptoshim ML-DSA-44"},
    {"ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", PROPS, cs_mldsa65_keymgmt,
     "cryptoshim ML-DSA-65"},
    {"ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87", PROPS, cs_mldsa87_keymgmt,
     "cryptoshim ML-DSA-87"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM signature_algs[] = {
    {"ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44", PROPS, cs_mldsa44_signature,
     "cryptoshim ML-DSA-44"},
    {"ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", PROPS, cs_mldsa65_signature,
     "cryptoshim ML-DSA-65"},
    {"ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87", PROPS, cs_mldsa87_signature,
     "cryptoshim ML-DSA-87"},
    {NULL, NULL, NULL, NULL},
};

/* The same without message streaming (update/final), for a 3.5 core. */
static const OSSL_ALGORITHM signature_algs_35[] = {
    {"ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44", PROPS,
     cs_mldsa44_signature + CS_SIG_STREAMING_ENTRIES, "cryptoshim ML-DSA-44"},
    {"ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", PROPS,
     cs_mldsa65_signature + CS_SIG_STREAMING_ENTRIES, "cryptoshim ML-DSA-65"},
    {"ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87", PROPS,
     cs_mldsa87_signature + CS_SIG_STREAMING_ENTRIES, "cryptoshim ML-DSA-87"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM kem_algs[] = {
    {MLKEM512_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-512"},
    {MLKEM768_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-768"},
    {MLKEM1024_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-1024"},
    {NULL, NULL, NULL, NULL},
};

/* The algorithms of one operation; nothing else is offered. */
static const OSSL_ALGORITHM *query(void *provctx, int operation_id, int *no_cache)
{
    const cs_prov *prov = provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return keymgmt_algs + (cs_dispatch_mlkem_serves() ? 0 : MLKEM_KEYMGMT_ENTRIES);
    case OSSL_OP_SIGNATURE: return prov->core_version >= 306 ? signature_algs : signature_algs_35;
    case OSSL_OP_KEM: return cs_dispatch_mlkem_serves() ? kem_algs : NULL;
    default: return NULL;
    }
}

/* Frees the provider context. */
static void teardown(void *provctx)
{
    free(provctx);
}

static const OSSL_PARAM prov_gettable[] = {
    OSSL_PARAM_utf8_ptr("name", NULL, 0),
    OSSL_PARAM_utf8_ptr("version", NULL, 0),
    OSSL_PARAM_utf8_ptr("buildinfo", NULL, 0),
    OSSL_PARAM_int("status", NULL),
    OSSL_PARAM_END,
};

/* The provider parameters get_params answers. */
static const OSSL_PARAM *gettable_params(void *provctx)
{
    return prov_gettable;
}

/* Sets a UTF8 pointer or string parameter. */
static int set_str(const cs_prov *prov, OSSL_PARAM *p, const char *s)
{
    if (p->data_type == OSSL_PARAM_UTF8_PTR) {
        p->return_size = strlen(s);
        if (p->data)
            *(const char **)p->data = s;
        return 1;
    }
    return cs_param_set_utf8(prov, p, s);
}

/* name, version, buildinfo and status (always running). */
static int get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    if ((p = cs_param_locate_mut(params, "name")) && !set_str(provctx, p, "cryptoshim provider (ML-DSA, ML-KEM)"))
        return 0;
    if ((p = cs_param_locate_mut(params, "version")) && !set_str(provctx, p, CS_PROVIDER_VERSION))
        return 0;
    if ((p = cs_param_locate_mut(params, "buildinfo")) && !set_str(provctx, p, "cryptoshim " CS_PROVIDER_VERSION))
        return 0;
    if ((p = cs_param_locate_mut(params, "status")) && !cs_param_set_int(provctx, p, 1))
        return 0;
    return 1;
}

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query},
    {0, NULL},
};

/* Version of the core from its "openssl-version" parameter ("3.5.9"), as
 * major * 100 + minor; 0 if unknown. */
static int core_version(const OSSL_CORE_HANDLE *handle, OSSL_FUNC_core_get_params_fn *get)
{
    const char *v = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_ptr("openssl-version", &v, 0), OSSL_PARAM_END};
    int major = 0, minor = 0;
    if (!get || !get(handle, p) || !v || sscanf(v, "%d.%d", &major, &minor) != 2)
        return 0;
    return major * 100 + minor;
}

int cs_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                     const OSSL_DISPATCH **out, void **provctx)
{
    OSSL_FUNC_core_get_params_fn *get_params_fn = NULL;
    OSSL_FUNC_core_get_libctx_fn *get_libctx = NULL;
    const OSSL_DISPATCH *in0 = in;
    for (; in && in->function_id != 0; in++) {
        if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS)
            get_params_fn = OSSL_FUNC_core_get_params(in);
        else if (in->function_id == OSSL_FUNC_CORE_GET_LIBCTX)
            get_libctx = OSSL_FUNC_core_get_libctx(in);
    }
    /* ML-DSA's names, OIDs and the message-signing API exist from 3.5 on. */
    int version = core_version(handle, get_params_fn);
    if (version < 305 || !get_libctx)
        return 0;
    cs_prov *prov = calloc(1, sizeof(*prov));
    if (!prov)
        return 0;
    prov->handle = handle;
    prov->libctx = get_libctx(handle);
    prov->core_version = version;
    cs_prov_take_core(prov, in0);
    *provctx = prov;
    *out = provider_functions;
    return 1;
}

/* The module entry point, exported (interpose/interpose.map) for -provider cryptoshim
 * and openssl.cnf. */
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    return cs_provider_init(handle, in, out, provctx);
}
