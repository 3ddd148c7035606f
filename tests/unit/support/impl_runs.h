/* Whether a test runs an implementation on this CPU: any table that
 * begins with CS_IMPL_HEAD (kernels/impl.h), big-number kernels, ML-DSA,
 * ML-KEM, Keccak and curve tables alike. Header-only. */
#ifndef CRYPTOSHIM_TEST_IMPL_RUNS_H
#define CRYPTOSHIM_TEST_IMPL_RUNS_H

#include <stdint.h>

#include "tap.h"

/* Whether the implementation `name`, needing the CPU features `features`,
 * runs on a CPU with `have`; otherwise one TAP skip line saying why not. */
static inline int impl_runs(const char *name, uint32_t features, uint32_t have)
{
    if ((features & have) == features)
        return 1;
    tap_skip("%s: CPU lacks its features", name);
    return 0;
}

#endif
