/* Which Curve25519 implementations a test runs, and running it on each of
 * them, for the c25519 tests. */
#ifndef CRYPTOSHIM_TEST_C25519_RUNS_H
#define CRYPTOSHIM_TEST_C25519_RUNS_H

#include <stdint.h>

#include "kernels/c25519/c25519.h"
#include "impl_runs.h"
#include "tap.h"

/* Whether im runs on a CPU with the features have and, when ed is set, has
 * the Ed25519 entries; otherwise one TAP skip line saying why not. In a
 * build over the emulated AVX-512 objects (CT_AVX512_EMULATED, mk/ctemu.mk)
 * only the tables needing AVX-512 run, wherever AVX2 is (the others are
 * the native build's to check). */
static inline int c25519_runs(const cs_c25519_impl *im, uint32_t have, int ed)
{
#ifdef CT_AVX512_EMULATED
    if (!(im->cpu_features & CS_CPU_AVX512_ALL))
        return 0;
    if (have & CS_CPU_AVX2)
        have |= CS_CPU_AVX512_ALL;
#endif
    if (!impl_runs(im->name, im->cpu_features, have))
        return 0;
    if (ed && !im->ed25519_pubkey) {
        tap_skip("%s: no Ed25519 entries", im->name);
        return 0;
    }
    return 1;
}

/* Whether any Curve25519 implementation is built for this target;
 * otherwise one TAP skip line. */
static inline int c25519_built(void)
{
    if (cs_c25519_impls[0])
        return 1;
    tap_skip("c25519: no implementation built for this target");
    return 0;
}

/* fn(im, arg) for every implementation im that c25519_runs(im, have, ed)
 * lets run, in the list's order. */
static inline void c25519_each(uint32_t have, int ed, void (*fn)(const cs_c25519_impl *im, void *arg),
                               void *arg)
{
    for (const cs_c25519_impl *const *i = cs_c25519_impls; *i; i++)
        if (c25519_runs(*i, have, ed))
            fn(*i, arg);
}

#endif
