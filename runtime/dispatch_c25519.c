/* The curve family's choice: read from the decision table, like every
 * family's (runtime/policy_table.c, the c25519 rules of
 * runtime/policy_builtin.c). */
#include <stddef.h>

#include "dispatch.h"
#include "dispatch_c25519.h"

const cs_c25519_impl *cs_dispatch_c25519(void)
{
    return cs_dispatch_impl(CS_IMPL_C25519, 25519);
}

int cs_dispatch_c25519_serves(enum cs_c25519_alg alg)
{
    const cs_c25519_impl *impl = cs_dispatch_c25519();
    return impl && (alg != CS_C25519_ED25519 || impl->ed25519_sign);
}

void cs_dispatch_c25519_refresh(void)
{
    /* Nothing to forget: decided with every decision table. */
}
