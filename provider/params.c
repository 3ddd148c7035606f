/* Minimal OSSL_PARAM readers and writers for the provider (the library
 * cannot call libcrypto's OSSL_PARAM_* functions: it never links it). They
 * follow OSSL_PARAM_get_int / get_octet_string(_ptr) / set_* of 3.5: the
 * same types accepted, the same failures, and the same error raised (by
 * the core, as libcrypto's own) when a value does not fit. */
#include <string.h>

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

int cs_param_get_int(const cs_prov *prov, const OSSL_PARAM *p, int *v)
{
    int64_t x;
    if (p->data == NULL)
        return wrong_type(prov);
    if (p->data_type == OSSL_PARAM_INTEGER) {
        switch (p->data_size) {
        case 1: x = *(const int8_t *)p->data; break;
        case 2: x = *(const int16_t *)p->data; break;
        case 4: x = *(const int32_t *)p->data; break;
        case 8: x = *(const int64_t *)p->data; break;
        default: return not_representable(prov);
        }
    } else if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        uint64_t u;
        switch (p->data_size) {
        case 1: u = *(const uint8_t *)p->data; break;
        case 2: u = *(const uint16_t *)p->data; break;
        case 4: u = *(const uint32_t *)p->data; break;
        case 8: u = *(const uint64_t *)p->data; break;
        default: return not_representable(prov);
        }
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
    if (p->data_size > max) {
        CS_RAISE(prov, CS_LIB_CRYPTO, CS_CRYPTO_R_TOO_SMALL_BUFFER, NULL);
        return 0;
    }
    if (p->data_size != 0)
        memcpy(buf, p->data, p->data_size);
    *len = p->data_size;
    return 1;
}

/* 0 with "too small buffer" raised. */
static int too_small(const cs_prov *prov)
{
    CS_RAISE(prov, CS_LIB_CRYPTO, CS_CRYPTO_R_TOO_SMALL_BUFFER, NULL);
    return 0;
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

int cs_param_set_octets(const cs_prov *prov, OSSL_PARAM *p, const void *v, size_t len)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return wrong_type(prov);
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return too_small(prov);
    if (len != 0)
        memcpy(p->data, v, len);
    return 1;
}

int cs_param_set_utf8(const cs_prov *prov, OSSL_PARAM *p, const char *s)
{
    size_t len = strlen(s);
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return wrong_type(prov);
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return too_small(prov);
    memcpy(p->data, s, len);
    if (p->data_size > len)
        ((char *)p->data)[len] = '\0';
    return 1;
}
