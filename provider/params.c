/* Minimal OSSL_PARAM readers and writers for the provider (the library
 * cannot call libcrypto's OSSL_PARAM_* functions: it never links it). */
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

int cs_param_get_int(const OSSL_PARAM *p, int *v)
{
    int64_t x;
    if (p->data == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_INTEGER) {
        switch (p->data_size) {
        case 1: x = *(const int8_t *)p->data; break;
        case 2: x = *(const int16_t *)p->data; break;
        case 4: x = *(const int32_t *)p->data; break;
        case 8: x = *(const int64_t *)p->data; break;
        default: return 0;
        }
    } else if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        uint64_t u;
        switch (p->data_size) {
        case 1: u = *(const uint8_t *)p->data; break;
        case 2: u = *(const uint16_t *)p->data; break;
        case 4: u = *(const uint32_t *)p->data; break;
        case 8: u = *(const uint64_t *)p->data; break;
        default: return 0;
        }
        if (u > INT32_MAX)
            return 0;
        x = (int64_t)u;
    } else {
        return 0;
    }
    if (x < INT32_MIN || x > INT32_MAX)
        return 0;
    *v = (int)x;
    return 1;
}

int cs_param_get_octets_ptr(const OSSL_PARAM *p, const void **data, size_t *len)
{
    if (p->data_type == OSSL_PARAM_OCTET_STRING) {
        *data = p->data;
        *len = p->data_size;
        return p->data != NULL || p->data_size == 0;
    }
    if (p->data_type == OSSL_PARAM_OCTET_PTR) {
        if (p->data == NULL)
            return 0;
        *data = *(const void *const *)p->data;
        *len = p->data_size;
        return 1;
    }
    return 0;
}

int cs_param_get_octets(const OSSL_PARAM *p, void *buf, size_t max, size_t *len)
{
    const void *d;
    size_t n;
    if (!cs_param_get_octets_ptr(p, &d, &n) || n > max)
        return 0;
    if (n != 0)
        memcpy(buf, d, n);
    *len = n;
    return 1;
}

int cs_param_set_int(OSSL_PARAM *p, int64_t v)
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
            return 0;
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
            return 0;
        return 1;
    }
    return 0;
}

int cs_param_set_octets(OSSL_PARAM *p, const void *v, size_t len)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return 0;
    if (len != 0)
        memcpy(p->data, v, len);
    return 1;
}

int cs_param_set_utf8(OSSL_PARAM *p, const char *s)
{
    size_t len = strlen(s);
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return 0;
    memcpy(p->data, s, len);
    if (p->data_size > len)
        ((char *)p->data)[len] = '\0';
    return 1;
}
