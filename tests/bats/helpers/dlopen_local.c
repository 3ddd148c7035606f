/* A program that loads libcrypto late and privately (dlopen RTLD_LOCAL), as
 * plugins do, then computes a^e mod m through BN_mod_exp, which reaches
 * BN_mod_exp_mont inside libcrypto. Prints the result in hex. */
#include "dl_modexp.h"

int main(void)
{
    void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 2;
    return dl_print_mod_exp(h, "");
}
