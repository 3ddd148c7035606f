/* ML-KEM kernel choice: one pointer, picked on first use from the CPU
 * features and CRYPTOSHIM_KERNELS, then read with one atomic load. */
#include <stddef.h>

#include "controls.h"
#include "dispatch_mlkem.h"

static const cs_mlkem_impl *chosen; /* NULL: not decided yet */

/* The implementation the controls allow: under CRYPTOSHIM_KERNELS the
 * usable one listed first, else the first usable in cs_mlkem_impls
 * (fastest first); portable when none qualifies. */
static const cs_mlkem_impl *pick(void)
{
    const cs_mlkem_impl *best = NULL;
    int best_rank = 0;
    uint32_t have = cs_cpu_features();
    if (cs_disabled())
        return &cs_mlkem_portable; /* never reached: the provider is not installed */
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++) {
        if (((*i)->cpu_features & ~have) || !cs_kernel_allowed((*i)->name))
            continue;
        int rank = cs_kernel_rank((*i)->name);
        if (!best || (cs_kernels_forced() && rank < best_rank)) {
            best = *i;
            best_rank = rank;
        }
    }
    return best ? best : &cs_mlkem_portable;
}

const cs_mlkem_impl *cs_dispatch_mlkem(int ps)
{
    (void)ps; /* one implementation serves every parameter set */
    const cs_mlkem_impl *impl = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!impl) {
        /* Racing threads pick the same one from the same controls. */
        impl = pick();
        __atomic_store_n(&chosen, impl, __ATOMIC_RELEASE);
    }
    return impl;
}

void cs_dispatch_mlkem_refresh(void)
{
    __atomic_store_n(&chosen, NULL, __ATOMIC_RELEASE);
}
