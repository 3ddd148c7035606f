/* Which Curve25519 implementations a test runs, for the c25519 tests. */
#ifndef CRYPTOSHIM_TEST_C25519_RUNS_H
#define CRYPTOSHIM_TEST_C25519_RUNS_H

#include <stdint.h>

#include "kernels/c25519/c25519.h"
#include "tap.h"

/* Whether im runs on a CPU with the features have and, when ed is set, has
 * the Ed25519 entries; otherwise one TAP skip line saying why not. */
static inline int c25519_runs(const cs_c25519_impl *im, uint32_t have, int ed)
{
    if ((im->cpu_features & have) != im->cpu_features) {
        tap_skip("%s: CPU lacks its features", im->name);
        return 0;
    }
    if (ed && !im->ed25519_pubkey) {
        tap_skip("%s: no Ed25519 entries", im->name);
        return 0;
    }
    return 1;
}

#endif
