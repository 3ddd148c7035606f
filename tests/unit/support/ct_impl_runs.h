/* Which implementations a table-driven constant-time test (ct_mldsa,
 * ct_mlkem) checks in this build and on this CPU. Header-only. */
#ifndef CRYPTOSHIM_TEST_CT_IMPL_RUNS_H
#define CRYPTOSHIM_TEST_CT_IMPL_RUNS_H

#include <stdint.h>

#include "kernels/cpu_features.h"
#include "tap.h"

/* Whether the test checks implementation `name` (needing `features`) on a
 * CPU with `have`. The emulated AVX-512 build (CT_AVX512_EMULATED,
 * mk/ctemu.mk) checks only the implementations needing AVX-512, which it
 * runs wherever AVX2 is; the native build those the CPU runs. A TAP skip
 * line for one the CPU lacks, with avx512_note after it where it needs
 * AVX-512. */
static inline int ct_impl_runs(const char *name, uint32_t features, uint32_t have,
                               const char *avx512_note)
{
#ifdef CT_AVX512_EMULATED
    if (!(features & CS_CPU_AVX512_ALL))
        return 0; /* checked natively */
    if (have & CS_CPU_AVX2)
        have |= CS_CPU_AVX512_ALL; /* emulated over AVX2 */
#endif
    if ((features & have) != features) {
        tap_skip("%s: CPU lacks its features%s", name,
                 features & CS_CPU_AVX512_ALL ? avx512_note : "");
        return 0;
    }
    return 1;
}

#endif
