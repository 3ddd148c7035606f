/* Curve kernel choice: one pointer, picked on first use from the CPU
 * features and CRYPTOSHIM_KERNELS, then read with one atomic load. A
 * stand-in with ML-KEM's shape until the family joins the common registry
 * and policy (issue 35). */
#include <stddef.h>
#include <string.h>

#include "controls.h"
#include "dispatch_c25519.h"

static const cs_c25519_impl *chosen; /* NULL: not decided yet */
static int decided;

/* Implementations measured faster than libcrypto's own X25519 and Ed25519
 * on this CPU class (docs/benchmarks.md): x86_64-adx (derive, keygen) on
 * the AVX2/ADX class (AMD EPYC Zen 3). */
static const char *const faster_than_libcrypto[] = {"x86_64-adx", NULL};

/* Under CRYPTOSHIM_KERNELS the usable one listed first, else the first
 * usable in cs_c25519_impls (fastest first); NULL when none runs here. */
static const cs_c25519_impl *pick(void)
{
    const cs_c25519_impl *best = NULL;
    int best_rank = 0;
    uint32_t have = cs_cpu_features();
    if (cs_disabled())
        return NULL;
    for (const cs_c25519_impl *const *i = cs_c25519_impls; *i; i++) {
        if (((*i)->cpu_features & ~have) || !cs_kernel_allowed((*i)->name))
            continue;
        int rank = cs_kernel_rank((*i)->name);
        if (!best || (cs_kernels_forced() && rank < best_rank)) {
            best = *i;
            best_rank = rank;
        }
    }
    return best;
}

const cs_c25519_impl *cs_dispatch_c25519(void)
{
    if (!__atomic_load_n(&decided, __ATOMIC_ACQUIRE)) {
        /* Racing threads pick the same one from the same controls. */
        __atomic_store_n(&chosen, pick(), __ATOMIC_RELEASE);
        __atomic_store_n(&decided, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
}

int cs_dispatch_c25519_serves(enum cs_c25519_alg alg)
{
    const cs_c25519_impl *impl = cs_dispatch_c25519();
    if (!impl || (alg == CS_C25519_ED25519 && !impl->ed25519_sign))
        return 0;
    if (cs_kernels_forced())
        return cs_kernel_allowed(impl->name);
    for (const char *const *n = faster_than_libcrypto; *n; n++)
        if (!strcmp(*n, impl->name))
            return 1;
    return 0;
}

void cs_dispatch_c25519_refresh(void)
{
    __atomic_store_n(&decided, 0, __ATOMIC_RELEASE);
}
