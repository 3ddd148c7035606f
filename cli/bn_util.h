/* Shared by the CLI's big-number commands: the libcrypto table and random
 * operands (timing: runtime/timer.h). */
#ifndef CRYPTOSHIM_CLI_BN_UTIL_H
#define CRYPTOSHIM_CLI_BN_UTIL_H

#include <openssl/bn.h>

#include "runtime/ossl.h"

/* The libcrypto API table bound to the CLI's own libcrypto (not interposed). */
cs_ossl *cli_ossl(void);
/* Random odd modulus of exactly bits bits, base below it, exponent of ebits. */
int cli_random_operands(BIGNUM *m, BIGNUM *a, BIGNUM *p, int bits, int ebits);

#endif
