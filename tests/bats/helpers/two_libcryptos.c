/* Two libcryptos in one process: the system one this program links (3.x)
 * and another opened later with dlopen(RTLD_LOCAL) from the path given
 * (Debian 11's 1.1.1). Computes the same a^e mod m (1024-bit modulus) with
 * each and prints two lines "3: HEX" and "other: HEX". */
#include <dlfcn.h>
#include <openssl/bn.h>
#include <stdio.h>

#define M "D2A7F3C9E1B5A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7" \
          "C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7" \
          "E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7" \
          "A3F9C2D6E1B8A4F7C3D9E2B6A1F8C4D7E3B9A2F6C1D8E4B7A3F9C2D6E1B8A4F5"
#define A "1234567890ABCDEF1234567890ABCDEF"
#define E "10001"

typedef void *(*new_fn)(void);
typedef int (*hex2bn_fn)(void **, const char *);
typedef int (*exp_fn)(void *, const void *, const void *, const void *, void *);
typedef char *(*bn2hex_fn)(const void *);

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    BIGNUM *r = BN_new(), *a = NULL, *e = NULL, *m = NULL;
    BN_CTX *ctx = BN_CTX_new();
    BN_hex2bn(&m, M);
    BN_hex2bn(&a, A);
    BN_hex2bn(&e, E);
    if (!BN_mod_exp(r, a, e, m, ctx))
        return 1;
    printf("3: %s\n", BN_bn2hex(r));
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    new_fn bn_new = (new_fn)dlsym(h, "BN_new"), ctx_new = (new_fn)dlsym(h, "BN_CTX_new");
    hex2bn_fn hex2bn = (hex2bn_fn)dlsym(h, "BN_hex2bn");
    exp_fn mod_exp = (exp_fn)dlsym(h, "BN_mod_exp");
    bn2hex_fn bn2hex = (bn2hex_fn)dlsym(h, "BN_bn2hex");
    void *r2 = bn_new(), *a2 = NULL, *e2 = NULL, *m2 = NULL, *ctx2 = ctx_new();
    hex2bn(&m2, M);
    hex2bn(&a2, A);
    hex2bn(&e2, E);
    if (!mod_exp(r2, a2, e2, m2, ctx2))
        return 1;
    printf("other: %s\n", bn2hex(r2));
    return 0;
}
