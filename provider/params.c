/* Minimal OSSL_PARAM readers and writers for the provider (the library
 * cannot call libcrypto's OSSL_PARAM_* functions: it never links it). They
 * follow OSSL_PARAM_get_int / get_octet_string(_ptr) / set_* of 3.5: the
 * same types accepted, the same failures, and the same error raised (by
 * the core, as libcrypto's own) when a value does not fit. Also the
 * provider configuration OpenSSL's ML-KEM and ML-DSA read (cs_prov_conf). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <strings.h>

#include "prov.h"

const OSSL_PARAM *cs_param_locate(const OSSL_PARAM *p, const char *key)
{
    for (; p != NULL && p->key != NULL; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

OSSL_PARAM *cs_param_locate_mut(OSSL_PARAM *p, const char *key)
{
    for (; p != NULL && p->key != NULL; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

/* 0 with "incompatible type" raised. */
static int wrong_type(const cs_prov *prov)
{
    CS_RAISE(prov, CS_LIB_CRYPTO, CS_CRYPTO_R_PARAM_OF_INCOMPATIBLE_TYPE, NULL);
    return 0;
}

/* 0 with "cannot be represented" raised (OpenSSL's reason for a value out
 * of an int's range or a real with a fraction). */
static int not_representable(const cs_prov *prov)
{
    CS_RAISE(prov, CS_LIB_CRYPTO, CS_CRYPTO_R_PARAM_VALUE_TOO_LARGE, NULL);
    return 0;
}

/* 0 with "too small buffer" raised. */
static int too_small(const cs_prov *prov)
{
    CS_RAISE(prov, CS_LIB_CRYPTO, CS_CRYPTO_R_TOO_SMALL_BUFFER, NULL);
    return 0;
}

/* Reads p's integer of 1, 2, 4 or 8 bytes as int<n>_t (S "") or
 * uint<n>_t (S "u") into out; other sizes cannot be represented. */
#define READ_SIZED(S, out)                                        \
    switch (p->data_size) {                                       \
    case 1: out = *(const S##int8_t *)p->data; break;             \
    case 2: out = *(const S##int16_t *)p->data; break;            \
    case 4: out = *(const S##int32_t *)p->data; break;            \
    case 8: out = *(const S##int64_t *)p->data; break;            \
    default: return not_representable(prov);                      \
    }

int cs_param_get_int(const cs_prov *prov, const OSSL_PARAM *p, int *v)
{
    int64_t x;
    if (p->data == NULL)
        return wrong_type(prov);
    if (p->data_type == OSSL_PARAM_INTEGER) {
        READ_SIZED(, x)
    } else if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        uint64_t u;
        READ_SIZED(u, u)
        if (u > INT32_MAX)
            return not_representable(prov);
        x = (int64_t)u;
    } else if (p->data_type == OSSL_PARAM_REAL && p->data_size == sizeof(double)) {
        /* an integral value in range converts exactly, as get_int does */
        double d = *(const double *)p->data;
        if (!(d >= INT32_MIN && d <= INT32_MAX) || d != (double)(int32_t)d)
            return not_representable(prov);
        x = (int32_t)d;
    } else {
        return wrong_type(prov);
    }
    if (x < INT32_MIN || x > INT32_MAX)
        return not_representable(prov);
    *v = (int)x;
    return 1;
}

int cs_param_get_octets_ptr(const cs_prov *prov, const OSSL_PARAM *p, const void **data,
                            size_t *len)
{
    if (p->data_type == OSSL_PARAM_OCTET_STRING) {
        *data = p->data;
        *len = p->data_size;
        return 1;
    }
    if (p->data_type == OSSL_PARAM_OCTET_PTR && p->data != NULL) {
        *data = *(const void *const *)p->data;
        *len = p->data_size;
        return 1;
    }
    return wrong_type(prov);
}

int cs_param_get_octets(const cs_prov *prov, const OSSL_PARAM *p, void *buf, size_t max,
                        size_t *len)
{
    /* an octet string proper: get_octet_string refuses an octet pointer */
    if (p->data_type != OSSL_PARAM_OCTET_STRING || (p->data == NULL && p->data_size != 0))
        return wrong_type(prov);
    if (p->data_size > max)
        return too_small(prov);
    if (p->data_size != 0)
        memcpy(buf, p->data, p->data_size);
    *len = p->data_size;
    return 1;
}

int cs_param_set_int(const cs_prov *prov, OSSL_PARAM *p, int64_t v)
{
    if (p->data_type == OSSL_PARAM_INTEGER) {
        p->return_size = p->data_size == 4 || p->data_size == 8 ? p->data_size : 8;
        if (p->data == NULL)
            return 1;
        if (p->data_size == 4 && v >= INT32_MIN && v <= INT32_MAX)
            *(int32_t *)p->data = (int32_t)v;
        else if (p->data_size == 8)
            *(int64_t *)p->data = v;
        else
            return not_representable(prov);
        return 1;
    }
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER && v >= 0) {
        p->return_size = p->data_size == 4 || p->data_size == 8 ? p->data_size : 8;
        if (p->data == NULL)
            return 1;
        if (p->data_size == 4 && v <= (int64_t)UINT32_MAX)
            *(uint32_t *)p->data = (uint32_t)v;
        else if (p->data_size == 8)
            *(uint64_t *)p->data = (uint64_t)v;
        else
            return not_representable(prov);
        return 1;
    }
    return wrong_type(prov);
}

/* set_octets and set_utf8: len bytes of v into a parameter of type
 * (return_size first, as libcrypto); a UTF-8 string is terminated when
 * the buffer has room. */
static int set_bytes(const cs_prov *prov, OSSL_PARAM *p, unsigned type, const void *v, size_t len)
{
    if (p->data_type != type)
        return wrong_type(prov);
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return too_small(prov);
    if (len != 0)
        memcpy(p->data, v, len);
    if (type == OSSL_PARAM_UTF8_STRING && p->data_size > len)
        ((char *)p->data)[len] = '\0';
    return 1;
}

int cs_param_set_octets(const cs_prov *prov, OSSL_PARAM *p, const void *v, size_t len)
{
    return set_bytes(prov, p, OSSL_PARAM_OCTET_STRING, v, len);
}

int cs_param_set_utf8(const cs_prov *prov, OSSL_PARAM *p, const char *s)
{
    return set_bytes(prov, p, OSSL_PARAM_UTF8_STRING, s, strlen(s));
}

/* ---- the provider configuration (ml-kem.*, ml-dsa.*) -------------------- */

typedef int (*conf_get_fn)(const void *prov, OSSL_PARAM params[]);
typedef const char *(*prov_name_fn)(const void *prov);
typedef int (*prov_do_all_fn)(void *libctx, int (*cb)(void *prov, void *arg), void *arg);

/* name from the libcrypto holding the core's get_params (the one that
 * loaded the provider, whatever its file name); loads nothing. */
static void *conf_sym(const cs_prov *prov, const char *name)
{
    Dl_info info;
    void *f = NULL;
    if (!prov->core_get_params || !dladdr((void *)prov->core_get_params, &info) ||
        !info.dli_fname)
        return NULL;
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
        f = dlsym(h, name);
        dlclose(h); /* the process keeps its own reference */
    }
    return f;
}

/* The configuration parameters asked for, each a UTF-8 pointer; a value
 * left NULL was not configured. */
enum { K_RETAIN, K_PREFER, K_PCT, D_RETAIN, D_PREFER, N_CONF };
static const char *const conf_names[N_CONF] = {
    "ml-kem.retain_seed", "ml-kem.prefer_seed", "ml-kem.import_pct_type",
    "ml-dsa.retain_seed", "ml-dsa.prefer_seed",
};

/* Fills the vals not yet set from a get_params-like call on a provider. */
static void conf_fill(conf_get_fn get, const void *p, const char *vals[N_CONF])
{
    const char *got[N_CONF] = {0};
    OSSL_PARAM ps[N_CONF + 1];
    for (int i = 0; i < N_CONF; i++) {
        ps[i] = (OSSL_PARAM)OSSL_PARAM_utf8_ptr(conf_names[i], &got[i], 0);
        ps[i].return_size = OSSL_PARAM_UNMODIFIED;
    }
    ps[N_CONF] = (OSSL_PARAM)OSSL_PARAM_END;
    if (!get(p, ps))
        return;
    for (int i = 0; i < N_CONF; i++)
        if (!vals[i] && ps[i].return_size != OSSL_PARAM_UNMODIFIED && got[i])
            vals[i] = got[i];
}

/* do_all callback: the default provider's configuration into arg. */
struct conf_walk {
    prov_name_fn name;
    conf_get_fn get;
    const char **vals;
};
static int conf_of_default(void *p, void *arg)
{
    struct conf_walk *w = arg;
    const char *n = w->name(p);
    if (n && !strcmp(n, "default")) {
        conf_fill(w->get, p, w->vals);
        return 0; /* found: stop */
    }
    return 1;
}

/* OSSL_PROVIDER_conf_get_bool's reading of a value (def when unset or
 * neither true nor false). */
static int conf_bool(const char *v, int def)
{
    if (!v)
        return def;
    if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
        return 1;
    if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off"))
        return 0;
    return def;
}

/* The core's get_params on our own handle, with conf_get_fn's shape. */
static int own_conf(const void *p, OSSL_PARAM params[])
{
    const cs_prov *prov = p;
    return prov->core_get_params && prov->core_get_params(prov->handle, params);
}

int cs_prov_conf(const cs_prov *prov)
{
    int conf = prov ? __atomic_load_n(&prov->conf, __ATOMIC_ACQUIRE) : 0;
    if (conf)
        return conf;
    const char *vals[N_CONF] = {0};
    if (prov) {
        conf_fill(own_conf, prov, vals);
        struct conf_walk w = {
            (prov_name_fn)conf_sym(prov, "OSSL_PROVIDER_get0_name"),
            (conf_get_fn)conf_sym(prov, "OSSL_PROVIDER_get_conf_parameters"),
            vals,
        };
        prov_do_all_fn all = (prov_do_all_fn)conf_sym(prov, "OSSL_PROVIDER_do_all");
        if (w.name && w.get && all)
            all(prov->libctx, conf_of_default, &w);
    }
    conf = CS_CONF_READ;
    conf |= conf_bool(vals[K_RETAIN], 1) ? CS_CONF_KEM_RETAIN_SEED : 0;
    conf |= conf_bool(vals[K_PREFER], 1) ? CS_CONF_KEM_PREFER_SEED : 0;
    const char *pct = vals[K_PCT] ? vals[K_PCT] : "random";
    conf |= !strcasecmp(pct, "random") ? CS_CONF_KEM_PCT_RANDOM
            : !strcasecmp(pct, "fixed") ? CS_CONF_KEM_PCT_FIXED : 0;
    conf |= conf_bool(vals[D_RETAIN], 1) ? CS_CONF_DSA_RETAIN_SEED : 0;
    conf |= conf_bool(vals[D_PREFER], 1) ? CS_CONF_DSA_PREFER_SEED : 0;
    if (prov) /* racing threads store the same value */
        __atomic_store_n((int *)&prov->conf, conf, __ATOMIC_RELEASE);
    return conf;
}
