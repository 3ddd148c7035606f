/* Entry points every OpenSSL program reaches before it has a key: library
 * initialisation, configuration loading, SSL_CTX_new, key readers and
 * decoders, key-object constructors. Each installs the method route if due
 * (interpose/route_method.c), then forwards to the real function. Exported at
 * OPENSSL_3.0.0 (interpose/interpose.map) and at OPENSSL_4.0.0 (.symver below), so
 * libcrypto.so.4 processes reach them too. The EVP_PKEY_CTX_new* entries
 * are in interpose/provider.c (they also install the ML-DSA provider). */
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED
#include <dlfcn.h>
#include <stdio.h>

#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/dh.h>
#include <openssl/dsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "../runtime/route.h"
#include "route_method.h"

#define NODE30 "OPENSSL_3.0.0"
#define NODE40 "OPENSSL_4.0.0"

/* The definition of name@node the caller would have reached without the
 * shim: the next one in the global scope, else any loaded object defining
 * it (a library opened RTLD_LOCAL), else the program's own unversioned
 * export. Cached in *slot. */
static void *real_fn(void **slot, const char *name, const char *node)
{
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!f) {
        f = dlvsym(RTLD_NEXT, name, node);
        if (!f)
            f = cs_route_find_sym(name, node);
        if (!f)
            f = cs_route_default_sym(name);
        __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    }
    return f;
}

/* One trigger at both nodes: NAME@@OPENSSL_3.0.0 and NAME@OPENSSL_4.0.0. */
#define TRIGGER(ret, name, params, args)                                       \
    ret name params;                                                           \
    ret cs40_##name params;                                                    \
    __asm__(".symver cs40_" #name ", " #name "@" NODE40);                      \
    ret name params                                                            \
    {                                                                          \
        static void *real;                                                     \
        ret(*f) params = (ret(*) params)real_fn(&real, #name, NODE30);         \
        if (!f)                                                                \
            return (ret)0; /* nothing to forward to: cannot happen */          \
        cs_route_trigger(NODE30, #name);                                       \
        return f args;                                                         \
    }                                                                          \
    ret cs40_##name params                                                     \
    {                                                                          \
        static void *real;                                                     \
        ret(*f) params = (ret(*) params)real_fn(&real, #name, NODE40);         \
        if (!f)                                                                \
            return (ret)0;                                                     \
        cs_route_trigger(NODE40, #name);                                       \
        return f args;                                                         \
    }

/* The key readers' two shapes: d2i_TYPE(T **a, const unsigned char **pp,
 * long len) and PEM_read[_bio]_TYPE(SRC *in, T **x, pem_password_cb *cb,
 * void *u) with SRC a BIO or a FILE (in: its parameter's name). */
#define TRIGGER_D2I(T, name) \
    TRIGGER(T *, name, (T * *a, const unsigned char **pp, long len), (a, pp, len))
#define TRIGGER_PEM(T, name, SRC, in) \
    TRIGGER(T *, name, (SRC * in, T **x, pem_password_cb *cb, void *u), (in, x, cb, u))

TRIGGER(int, OPENSSL_init_crypto, (uint64_t opts, const OPENSSL_INIT_SETTINGS *settings),
        (opts, settings))
TRIGGER(int, OPENSSL_init_ssl, (uint64_t opts, const OPENSSL_INIT_SETTINGS *settings),
        (opts, settings))
TRIGGER(int, CONF_modules_load_file, (const char *file, const char *app, unsigned long flags),
        (file, app, flags))
TRIGGER(int, CONF_modules_load_file_ex,
        (OSSL_LIB_CTX * libctx, const char *file, const char *app, unsigned long flags),
        (libctx, file, app, flags))
TRIGGER(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *meth), (meth))
TRIGGER(SSL_CTX *, SSL_CTX_new_ex,
        (OSSL_LIB_CTX * libctx, const char *propq, const SSL_METHOD *meth),
        (libctx, propq, meth))
TRIGGER(EVP_PKEY *, EVP_PKEY_new, (void), ())
TRIGGER(RSA *, RSA_new, (void), ())
TRIGGER(DH *, DH_new, (void), ())
TRIGGER(DSA *, DSA_new, (void), ())
TRIGGER_PEM(EVP_PKEY, PEM_read_bio_PrivateKey, BIO, bp)
TRIGGER(EVP_PKEY *, PEM_read_bio_PrivateKey_ex,
        (BIO * bp, EVP_PKEY **x, pem_password_cb *cb, void *u, OSSL_LIB_CTX *libctx,
         const char *propq),
        (bp, x, cb, u, libctx, propq))
TRIGGER_PEM(EVP_PKEY, PEM_read_PrivateKey, FILE, fp)
TRIGGER_PEM(EVP_PKEY, PEM_read_bio_PUBKEY, BIO, bp)
TRIGGER(EVP_PKEY *, d2i_PrivateKey, (int type, EVP_PKEY **a, const unsigned char **pp, long len),
        (type, a, pp, len))
TRIGGER_D2I(EVP_PKEY, d2i_AutoPrivateKey)
TRIGGER_D2I(EVP_PKEY, d2i_PUBKEY)
TRIGGER(OSSL_DECODER_CTX *, OSSL_DECODER_CTX_new_for_pkey,
        (EVP_PKEY * *pkey, const char *input_type, const char *input_struct, const char *keytype,
         int selection, OSSL_LIB_CTX *libctx, const char *propquery),
        (pkey, input_type, input_struct, keytype, selection, libctx, propquery))
/* Legacy per-algorithm readers: they create the key object inside libcrypto,
 * where a DT_SYMBOLIC build's own RSA_new never reaches the shim. */
TRIGGER_D2I(RSA, d2i_RSAPrivateKey)
TRIGGER_D2I(RSA, d2i_RSAPublicKey)
TRIGGER_D2I(RSA, d2i_RSA_PUBKEY)
TRIGGER_PEM(RSA, PEM_read_bio_RSAPrivateKey, BIO, bp)
TRIGGER_PEM(RSA, PEM_read_RSAPrivateKey, FILE, fp)
TRIGGER_PEM(RSA, PEM_read_bio_RSA_PUBKEY, BIO, bp)
TRIGGER_D2I(DH, d2i_DHparams)
TRIGGER_PEM(DH, PEM_read_bio_DHparams, BIO, bp)
TRIGGER_D2I(DSA, d2i_DSAPrivateKey)
TRIGGER_D2I(DSA, d2i_DSAparams)
TRIGGER_PEM(DSA, PEM_read_bio_DSAPrivateKey, BIO, bp)
TRIGGER_PEM(DSA, PEM_read_bio_DSAparams, BIO, bp)
TRIGGER(RSA *, RSA_new_method, (ENGINE * engine), (engine))
TRIGGER(DH *, DH_new_method, (ENGINE * engine), (engine))
TRIGGER(DSA *, DSA_new_method, (ENGINE * engine), (engine))
