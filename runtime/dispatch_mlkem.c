/* ML-KEM kernel choice: one pointer, picked on first use from the CPU
 * features and CRYPTOSHIM_KERNELS, then read with one atomic load. */
#include <stddef.h>
#include <string.h>

#include "controls.h"
#include "dispatch_mlkem.h"

static const cs_mlkem_impl *chosen; /* NULL: not decided yet */

/* Implementations measured faster than OpenSSL 3.5's ML-KEM (keygen,
 * encaps and decaps alike) with `openssl speed -mr ML-KEM-*` on the CPU
 * classes that run them. The portable C is not: on an AMD EPYC Zen 5
 * (family 26) against 3.5.9, ML-KEM-768 encaps 19.3k/s against 37.6k/s,
 * decaps 14.5k/s against 24.7k/s, keygen 18.7k/s against 23.8k/s. */
static const char *const faster_than_libcrypto[] = {NULL};

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

int cs_dispatch_mlkem_serves(void)
{
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(768);
    if (cs_kernels_forced())
        return cs_kernel_allowed(impl->name);
    for (const char *const *n = faster_than_libcrypto; *n; n++)
        if (!strcmp(*n, impl->name))
            return 1;
    return 0;
}

void cs_dispatch_mlkem_refresh(void)
{
    __atomic_store_n(&chosen, NULL, __ATOMIC_RELEASE);
}
