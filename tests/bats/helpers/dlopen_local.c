/* A program that loads libcrypto late and privately (dlopen RTLD_LOCAL), as
 * plugins do, then computes a^e mod m through BN_mod_exp, which reaches
 * BN_mod_exp_mont inside libcrypto. Prints the result in hex. */
#include <dlfcn.h>
#include <stdio.h>

typedef void *(*new_fn)(void);
typedef int (*hex2bn_fn)(void **, const char *);
typedef int (*exp_fn)(void *, const void *, const void *, const void *, void *);
typedef char *(*bn2hex_fn)(const void *);

int main(void)
{
    void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 2;
    new_fn bn_new = (new_fn)dlsym(h, "BN_new"), ctx_new = (new_fn)dlsym(h, "BN_CTX_new");
    hex2bn_fn hex2bn = (hex2bn_fn)dlsym(h, "BN_hex2bn");
    exp_fn mod_exp = (exp_fn)dlsym(h, "BN_mod_exp");
    bn2hex_fn bn2hex = (bn2hex_fn)dlsym(h, "BN_bn2hex");
    void *r = bn_new(), *a = NULL, *e = NULL, *m = NULL, *ctx = ctx_new();
    /* a 1024-bit odd modulus */
    hex2bn(&m, "D2A7F3C9E1B5A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7"
               "C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7"
               "E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7"
               "A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F5");
    hex2bn(&a, "1234567890ABCDEF1234567890ABCDEF"); /* two words: not the one-word path */
    hex2bn(&e, "10001");
    if (!mod_exp(r, a, e, m, ctx))
        return 1;
    printf("%s\n", bn2hex(r));
    return 0;
}
