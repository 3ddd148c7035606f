/* Shared by the helpers that reach a libcrypto only through dlsym on its
 * dlopen handle (dlopen_local.c, two_libcryptos.c): the test operands and
 * a^e mod m computed through that handle's own BN_* functions. */
#ifndef CRYPTOSHIM_TESTS_DL_MODEXP_H
#define CRYPTOSHIM_TESTS_DL_MODEXP_H

#include <dlfcn.h>
#include <stdio.h>

/* A 1024-bit odd modulus; a has two words (not the one-word path). */
#define DL_M "D2A7F3C9E1B5A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7" \
             "C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7" \
             "E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7" \
             "A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F5"
#define DL_A "1234567890ABCDEF1234567890ABCDEF"
#define DL_E "10001"

typedef void *(*dl_new_fn)(void);
typedef int (*dl_hex2bn_fn)(void **, const char *);
typedef int (*dl_exp_fn)(void *, const void *, const void *, const void *, void *);
typedef char *(*dl_bn2hex_fn)(const void *);

/* DL_A^DL_E mod DL_M through BN_mod_exp of the libcrypto behind handle h, in
 * hex (libcrypto's string, left to the process's end); NULL when it fails. */
static inline char *dl_mod_exp_hex(void *h)
{
    dl_new_fn bn_new = (dl_new_fn)dlsym(h, "BN_new"), ctx_new = (dl_new_fn)dlsym(h, "BN_CTX_new");
    dl_hex2bn_fn hex2bn = (dl_hex2bn_fn)dlsym(h, "BN_hex2bn");
    dl_exp_fn mod_exp = (dl_exp_fn)dlsym(h, "BN_mod_exp");
    dl_bn2hex_fn bn2hex = (dl_bn2hex_fn)dlsym(h, "BN_bn2hex");
    void *r = bn_new(), *a = NULL, *e = NULL, *m = NULL, *ctx = ctx_new();
    hex2bn(&m, DL_M);
    hex2bn(&a, DL_A);
    hex2bn(&e, DL_E);
    return mod_exp(r, a, e, m, ctx) ? bn2hex(r) : NULL;
}

/* Prints PREFIX and dl_mod_exp_hex(h) on one line; the program's exit
 * status: 0, or 1 when the computation failed (nothing printed). */
static inline int dl_print_mod_exp(void *h, const char *prefix)
{
    char *hex = dl_mod_exp_hex(h);
    if (!hex)
        return 1;
    printf("%s%s\n", prefix, hex);
    return 0;
}

#endif
