/* Randomness for key generation and hedged signing: the private DRBG of the
 * library context the provider runs in, reached through RAND_priv_bytes_ex
 * resolved at run time (the library never links libcrypto). */
#define _GNU_SOURCE
#include <string.h>
#include <dlfcn.h>

#include "kernels/ct.h"
#include "runtime/loaded.h"
#include "prov.h"

typedef int (*rand_priv_fn)(void *libctx, unsigned char *buf, size_t num,
                            unsigned int strength);

/* Finds RAND_priv_bytes_ex in the libcrypto already loaded in the process
 * (global scope, or by name if it was opened RTLD_LOCAL); loads nothing. */
static rand_priv_fn resolve_rand(void)
{
    static rand_priv_fn cached;
    rand_priv_fn f = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (f)
        return f;
    f = (rand_priv_fn)dlvsym(RTLD_DEFAULT, "RAND_priv_bytes_ex", "OPENSSL_3.0.0");
    if (!f)
        f = (rand_priv_fn)cs_loaded_sym("libcrypto.so.3", "RAND_priv_bytes_ex", "OPENSSL_3.0.0");
    if (!f) /* OpenSSL 4.x: every symbol at OPENSSL_4.0.0 */
        f = (rand_priv_fn)cs_loaded_sym("libcrypto.so.4", "RAND_priv_bytes_ex", "OPENSSL_4.0.0");
    if (f)
        __atomic_store_n(&cached, f, __ATOMIC_RELEASE);
    return f;
}

int cs_prov_random(const cs_prov *prov, uint8_t *buf, size_t n)
{
    rand_priv_fn f = resolve_rand();
    if (!f)
        return 0;
    /* Strength 0 (the DRBG's own), as OpenSSL's ML-DSA asks for. */
    return f(prov ? prov->libctx : NULL, buf, n, 0) > 0;
}

void cs_prov_cleanse(void *p, size_t n)
{
    /* memset at full speed (a byte-wise volatile loop cost ~3 us per key
     * free), kept by cs_wipe's barrier. */
    cs_wipe(p, n);
}

int cs_prov_ct_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= a[i] ^ b[i];
    return ((d - 1u) >> 8) & 1; /* 1 when d == 0, without a branch */
}
