/* Errors and secret memory through the core's upcalls: the library never
 * links libcrypto, so the provider raises errors and takes secure-heap
 * memory with the functions the core hands it in OSSL_provider_init. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

void cs_prov_take_core(cs_prov *prov, const OSSL_DISPATCH *in)
{
    for (; in && in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR: prov->new_error = OSSL_FUNC_core_new_error(in); break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            prov->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR: prov->vset_error = OSSL_FUNC_core_vset_error(in); break;
        case OSSL_FUNC_CRYPTO_SECURE_ZALLOC:
            prov->secure_zalloc = OSSL_FUNC_CRYPTO_secure_zalloc(in);
            break;
        case OSSL_FUNC_CRYPTO_SECURE_CLEAR_FREE:
            prov->secure_clear_free = OSSL_FUNC_CRYPTO_secure_clear_free(in);
            break;
        case OSSL_FUNC_CRYPTO_SECURE_FREE:
            prov->secure_free = OSSL_FUNC_CRYPTO_secure_free(in);
            break;
        default: break;
        }
    }
    /* one without the other is no use */
    if (!prov->secure_zalloc || !prov->secure_clear_free)
        prov->secure_zalloc = NULL, prov->secure_clear_free = NULL, prov->secure_free = NULL;
}

void cs_prov_raise(const cs_prov *prov, int lib, int reason, const char *file, int line,
                   const char *func, const char *fmt, ...)
{
    if (!prov || !prov->new_error || !prov->vset_error)
        return;
    prov->new_error(prov->handle);
    if (prov->set_error_debug)
        prov->set_error_debug(prov->handle, file, line, func);
    /* a library number in the top bits makes the core raise it as that
     * library's error (as OpenSSL's own provider does), not ours */
    uint32_t packed = ((uint32_t)lib & 0xff) << 23 | ((uint32_t)reason & 0x7fffff);
    va_list ap;
    va_start(ap, fmt);
    prov->vset_error(prov->handle, packed, fmt, ap);
    va_end(ap);
}

/* Secret blocks start 64 bytes into the allocation, the offset back to it
 * kept just before: the core's secure allocator promises no more than
 * malloc's alignment when the secure heap is off, the kernels want 32. */
#define SECRET_PAD 64

/* quiet: no error on the queue if the secure heap is full (the caller has
 * a way on without this memory). */
static void *secret_alloc(const cs_prov *prov, size_t n, int quiet)
{
    size_t total = n + SECRET_PAD;
    uint8_t *raw = prov && prov->secure_zalloc
                       ? prov->secure_zalloc(total, quiet ? NULL : __FILE__, quiet ? 0 : __LINE__)
                       : calloc(1, total);
    if (!raw)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + SECRET_PAD) & ~(uintptr_t)(SECRET_PAD - 1));
    p[-1] = (uint8_t)(p - raw);
    return p;
}

void *cs_prov_secret_alloc(const cs_prov *prov, size_t n)
{
    return secret_alloc(prov, n, 0);
}

void *cs_prov_secret_alloc_quiet(const cs_prov *prov, size_t n)
{
    return secret_alloc(prov, n, 1);
}

void cs_prov_secret_free(const cs_prov *prov, void *vp, size_t n)
{
    uint8_t *p = vp;
    if (!p)
        return;
    uint8_t *raw = p - p[-1];
    size_t total = n + SECRET_PAD;
    /* Wiped here at memset speed, then given back without a second wipe:
     * the core's secure_free hands ordinary memory to CRYPTO_free and clears
     * secure-heap memory itself, where secure_clear_free would first run
     * OPENSSL_cleanse's 8-byte loop over it (1.9% of an ML-DSA-44 keygen in
     * openssl speed). */
    cs_prov_cleanse(raw, total);
    if (prov && prov->secure_free)
        prov->secure_free(raw, __FILE__, __LINE__);
    else if (prov && prov->secure_clear_free)
        prov->secure_clear_free(raw, total, __FILE__, __LINE__);
    else
        free(raw);
}
