#define _GNU_SOURCE
#include <dlfcn.h>

#include "bn_util.h"

cs_ossl *cli_ossl(void)
{
    static cs_ossl api = {.version = "OPENSSL_3.0.0"};
    return cs_ossl_resolve_from(&api, RTLD_DEFAULT) ? &api : NULL;
}

int cli_random_operands(BIGNUM *m, BIGNUM *a, BIGNUM *p, int bits, int ebits)
{
    return BN_rand(m, bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD) && BN_rand_range(a, m) &&
           BN_rand(p, ebits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY);
}
