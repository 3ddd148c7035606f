/* ML-KEM's choice: read from the decision table, like every family's
 * (runtime/policy_table.c). */
#include <stddef.h>

#include "dispatch_mlkem.h"

const cs_mlkem_impl *cs_dispatch_mlkem(int ps)
{
    const cs_mlkem_impl *impl = cs_dispatch_impl(CS_IMPL_MLKEM, ps);
    return impl ? impl : &cs_mlkem_portable;
}

int cs_dispatch_mlkem_serves(void)
{
    return cs_dispatch_impl(CS_IMPL_MLKEM, 768) != NULL;
}
