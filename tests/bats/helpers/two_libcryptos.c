/* Two libcryptos in one process: the system one this program links (3.x)
 * and another opened later with dlopen(RTLD_LOCAL) from the path given
 * (Debian 11's 1.1.1). Computes the same a^e mod m (1024-bit modulus) with
 * each and prints two lines "3: HEX" and "other: HEX". */
#include <openssl/bn.h>
#include <stdio.h>

#include "dl_modexp.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    BIGNUM *r = BN_new(), *a = NULL, *e = NULL, *m = NULL;
    BN_CTX *ctx = BN_CTX_new();
    BN_hex2bn(&m, DL_M);
    BN_hex2bn(&a, DL_A);
    BN_hex2bn(&e, DL_E);
    if (!BN_mod_exp(r, a, e, m, ctx))
        return 1;
    printf("3: %s\n", BN_bn2hex(r));
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    return dl_print_mod_exp(h, "other: ");
}
