/* Provider entry: OSSL_provider_init (so libcryptoshim.so also loads as an
 * ordinary provider module), the algorithm tables, and provider params. The
 * preloaded shim registers the same init function as a built-in provider
 * (interpose/provider.c). Cores served: 3.0 (X25519, Ed25519) and 3.5 on
 * (ML-DSA, ML-KEM too); 3.1-3.4, whose X25519/Ed25519 answers this
 * project has not compared with stock's, are refused. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/c25519/sha512.h"
#include "provider.h"
#include "prov.h"
#include "runtime/dispatch_c25519.h"
#include "runtime/dispatch_mlkem.h"
#include "runtime/stats.h"

/* Every algorithm carries provider=cryptoshim and no fips property, so a
 * fips=yes query never selects it. */
#define PROPS "provider=cryptoshim"
#define MLKEM512_NAMES "ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1"
#define MLKEM768_NAMES "ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2"
#define MLKEM1024_NAMES "ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3"

static const OSSL_ALGORITHM mlkem_keymgmt[] = {
    {MLKEM512_NAMES, PROPS, cs_mlkem512_keymgmt, "cryptoshim ML-KEM-512"},
    {MLKEM768_NAMES, PROPS, cs_mlkem768_keymgmt, "cryptoshim ML-KEM-768"},
    {MLKEM1024_NAMES, PROPS, cs_mlkem1024_keymgmt, "cryptoshim ML-KEM-1024"},
};

static const OSSL_ALGORITHM mldsa_keymgmt[] = {
    {"ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44", PROPS, cs_mldsa44_keymgmt,
     "cryptoshim ML-DSA-44"},
    {"ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", PROPS, cs_mldsa65_keymgmt,
     "cryptoshim ML-DSA-65"},
    {"ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87", PROPS, cs_mldsa87_keymgmt,
     "cryptoshim ML-DSA-87"},
};

static const OSSL_ALGORITHM mldsa_signature[] = {
    {"ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44", PROPS, cs_mldsa44_signature,
     "cryptoshim ML-DSA-44"},
    {"ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", PROPS, cs_mldsa65_signature,
     "cryptoshim ML-DSA-65"},
    {"ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87", PROPS, cs_mldsa87_signature,
     "cryptoshim ML-DSA-87"},
};

static const OSSL_ALGORITHM mlkem_kem[] = {
    {MLKEM512_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-512"},
    {MLKEM768_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-768"},
    {MLKEM1024_NAMES, PROPS, cs_mlkem_kem, "cryptoshim ML-KEM-1024"},
};

/* Stock's names and OIDs (prov/names.h), the same on 3.0 to 4.0. */
#define X25519_NAMES "X25519:1.3.101.110"
#define ED25519_NAMES "ED25519:1.3.101.112"

/* The provider context with the algorithm lists it offers, decided once
 * when the provider is loaded (the curve and ML-KEM kernels offer an
 * algorithm only where they are faster or forced; the core caches the
 * lists). */
typedef struct prov_full {
    cs_prov prov; /* first: the provctx every function receives */
    OSSL_ALGORITHM keymgmt[9], signature[5], keyexch[2], kem[4];
} prov_full;

/* Appends n algorithms to list (capacity checked by the callers' sizes). */
static void add(OSSL_ALGORITHM *list, const OSSL_ALGORITHM *algs, size_t n)
{
    while (list->algorithm_names)
        list++;
    memcpy(list, algs, n * sizeof *algs);
}

/* The stats note "curves": which implementation serves X25519 and Ed25519
 * in this process's provider, or that libcrypto's own do. */
static void note_curves(const prov_full *f)
{
    const cs_c25519_impl *impl = cs_dispatch_c25519();
    char val[CS_STATS_NOTE_VALUE];
    int x = f->keyexch[0].algorithm_names != NULL, e = 0;
    for (int i = 0; f->signature[i].algorithm_names; i++)
        e |= f->signature[i].implementation == cs_ed25519_signature ||
             f->signature[i].implementation == cs_ed25519_signature + cs_ed25519_sig_30;
    snprintf(val, sizeof val, "OpenSSL %d.%d provider: X25519 %s, Ed25519 %s",
             f->prov.core_version / 100, f->prov.core_version % 100,
             x && impl ? impl->name : "libcrypto", e && impl ? impl->name : "libcrypto");
    cs_stats_note("curves", val);
}

/* Fills the lists for the core's release: ML-DSA and ML-KEM from 3.5 on,
 * X25519 and ED25519 on 3.0 and 3.5+ when the curve kernel serves them,
 * each dispatch table cut to what that release's stock offers. */
static void build_lists(prov_full *f)
{
    int v = f->prov.core_version;
    if (v >= 305) {
        if (cs_dispatch_mlkem_serves()) {
            add(f->keymgmt, mlkem_keymgmt, 3);
            add(f->kem, mlkem_kem, 3);
        }
        if (cs_dispatch_mldsa_serves(65)) { /* a policy may leave ML-DSA to libcrypto */
            add(f->keymgmt, mldsa_keymgmt, 3);
            add(f->signature, mldsa_signature, 3);
        }
        if (v == 305) /* 3.5's ML-DSA has no message streaming */
            for (int i = 0; f->signature[i].algorithm_names; i++)
                f->signature[i].implementation += CS_SIG_STREAMING_ENTRIES;
    }
    if (cs_dispatch_c25519_serves(CS_C25519_X25519)) {
        OSSL_ALGORITHM km = {X25519_NAMES, PROPS, cs_x25519_keymgmt, "cryptoshim X25519"};
        OSSL_ALGORITHM ex = {X25519_NAMES, PROPS, cs_x25519_keyexch + (v >= 305 ? 0 : 2),
                             "cryptoshim X25519"};
        add(f->keymgmt, &km, 1);
        add(f->keyexch, &ex, 1);
    }
    if (cs_dispatch_c25519_serves(CS_C25519_ED25519)) {
        OSSL_ALGORITHM km = {ED25519_NAMES, PROPS, cs_ed25519_keymgmt, "cryptoshim ED25519"};
        OSSL_ALGORITHM sig = {ED25519_NAMES, PROPS,
                              cs_ed25519_signature + (v >= 305 ? 0 : cs_ed25519_sig_30),
                              "cryptoshim ED25519"};
        add(f->keymgmt, &km, 1);
        add(f->signature, &sig, 1);
    }
    note_curves(f);
}

/* The algorithms of one operation; nothing else is offered. */
static const OSSL_ALGORITHM *query(void *provctx, int operation_id, int *no_cache)
{
    prov_full *f = provctx;
    const OSSL_ALGORITHM *list = NULL;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT: list = f->keymgmt; break;
    case OSSL_OP_SIGNATURE: list = f->signature; break;
    case OSSL_OP_KEYEXCH: list = f->keyexch; break;
    case OSSL_OP_KEM: list = f->kem; break;
    default: return NULL;
    }
    return list->algorithm_names ? list : NULL;
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
    if ((p = cs_param_locate_mut(params, "name")) && !set_str(provctx, p, "cryptoshim provider (ML-DSA, ML-KEM, X25519, Ed25519)"))
        return 0;
    if ((p = cs_param_locate_mut(params, "version")) && !set_str(provctx, p, CS_PROVIDER_VERSION))
        return 0;
    if ((p = cs_param_locate_mut(params, "buildinfo")) && !set_str(provctx, p, "cryptoshim " CS_PROVIDER_VERSION))
        return 0;
    if ((p = cs_param_locate_mut(params, "status")) && !cs_param_set_int(provctx, p, 1))
        return 0;
    return 1;
}

/* 3.0's TLS-GROUP entry for x25519 (providers/common/capabilities.c):
 * 3.0's libssl keeps a provider's group only if the group's key management
 * fetched under the application's properties is that provider's, so with
 * ours preferred the group must be declared here too (3.5's libssl keeps
 * any fetchable group: nothing to declare there). */
static const unsigned int x25519_group_id = 29, x25519_secbits = 128;
static const int x25519_mintls = 0x0301 /* TLS1_VERSION */, x25519_maxtls = 0,
                 x25519_mindtls = 0xFEFF /* DTLS1_VERSION */, x25519_maxdtls = 0;
static const OSSL_PARAM x25519_group[] = {
    OSSL_PARAM_utf8_string("tls-group-name", "x25519", sizeof("x25519")),
    OSSL_PARAM_utf8_string("tls-group-name-internal", "X25519", sizeof("X25519")),
    OSSL_PARAM_utf8_string("tls-group-alg", "X25519", sizeof("X25519")),
    OSSL_PARAM_uint("tls-group-id", (unsigned int *)&x25519_group_id),
    OSSL_PARAM_uint("tls-group-sec-bits", (unsigned int *)&x25519_secbits),
    OSSL_PARAM_int("tls-min-tls", (int *)&x25519_mintls),
    OSSL_PARAM_int("tls-max-tls", (int *)&x25519_maxtls),
    OSSL_PARAM_int("tls-min-dtls", (int *)&x25519_mindtls),
    OSSL_PARAM_int("tls-max-dtls", (int *)&x25519_maxdtls),
    OSSL_PARAM_END,
};

/* Capabilities: x25519's TLS group on a 3.0 core when X25519 is offered;
 * every other request succeeds with nothing (a 0 would fail libssl's
 * SSL_CTX_new). */
static int get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg)
{
    const prov_full *f = provctx;
    if (f->prov.core_version < 305 && !strcmp(capability, "TLS-GROUP"))
        for (int i = 0; f->keyexch[i].algorithm_names; i++)
            if (f->keyexch[i].implementation == cs_x25519_keyexch + 2)
                return cb(x25519_group, arg);
    return 1;
}

static const OSSL_DISPATCH provider_functions[] = {
    CS_FN(OSSL_FUNC_PROVIDER_GET_CAPABILITIES, get_capabilities),
    CS_FN(OSSL_FUNC_PROVIDER_TEARDOWN, teardown),
    CS_FN(OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, gettable_params),
    CS_FN(OSSL_FUNC_PROVIDER_GET_PARAMS, get_params),
    CS_FN(OSSL_FUNC_PROVIDER_QUERY_OPERATION, query),
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

/* EVP_Q_digest and EVP_Q_mac from the libcrypto holding the core function
 * `from` (the one that loaded us, whatever its file name), and its
 * SHA512_Transform as the curve kernels' SHA-512 compression (twice the
 * portable C's speed: docs/benchmarks.md, issue 36); loads nothing. */
static void resolve_libcrypto(cs_prov *prov, void *from)
{
    Dl_info info;
    if (!dladdr(from, &info) || !info.dli_fname)
        return;
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return;
    *(void **)&prov->q_digest = dlsym(h, "EVP_Q_digest");
    *(void **)&prov->q_mac = dlsym(h, "EVP_Q_mac");
    void *transform = dlsym(h, "SHA512_Transform");
    if (transform)
        cs_sha512_set_transform((cs_sha512_transform_fn)transform);
    dlclose(h); /* the process keeps its own reference */
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
    int version = core_version(handle, get_params_fn);
    if ((version != 300 && version < 305) || !get_libctx)
        return 0;
    prov_full *f = calloc(1, sizeof(*f));
    if (!f)
        return 0;
    cs_prov *prov = &f->prov;
    prov->handle = handle;
    prov->libctx = get_libctx(handle);
    prov->core_version = version;
    prov->core_get_params = get_params_fn;
    cs_prov_take_core(prov, in0);
    resolve_libcrypto(prov, (void *)get_libctx);
    build_lists(f);
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
