/* ML-KEM kernel choice: one pointer, picked on first use from the CPU
 * features and CRYPTOSHIM_KERNELS, then read with one atomic load. */
#include <stddef.h>
#include <string.h>

#include "controls.h"
#include "dispatch_mlkem.h"

static const cs_mlkem_impl *chosen; /* NULL: not decided yet */

/* Implementations measured faster than libcrypto's own ML-KEM (keygen,
 * encaps and decaps, every parameter set) with `openssl speed -mr
 * ML-KEM-512 ML-KEM-768 ML-KEM-1024`, stock and shimmed interleaved, on an
 * AMD EPYC Zen 5 (family 26): against 3.5.9, ML-KEM-768 with the final
 * kernels of issue 27, avx2 3.4-3.7x / 2.6x / 4.2-4.3x, avx512 4.3-4.5x /
 * 2.8-3.2x / 5.2-5.4x (first kernels: at least 2.1x; the same against 3.6.5
 * and 4.0.3, whose ML-KEM is the same C; docs/benchmarks.md). With prepared
 * keys, on an Intel Xeon family 6 model 167 against 3.5.9 (bench-versions.sh,
 * ML-KEM-512/768/1024, main at 0eaa2c4): avx2 3.1-3.4x / 5.1-7.6x / 5.0-6.1x,
 * avx512 3.9-4.6x / 7.2-10.3x / 7.1-7.9x. The portable C is not (encaps 19.3k/s against
 * 37.5k/s): it serves only when CRYPTOSHIM_KERNELS names it. */
static const char *const faster_than_libcrypto[] = {"avx2", "avx512", NULL};

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
        /* AVX-512 without IFMA (Skylake-SP class) is not measured: avx2. */
        if (((*i)->cpu_features & CS_CPU_AVX512F) && !cs_kernels_forced() &&
            !(have & CS_CPU_AVX512IFMA))
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
