/* The one shape every implementation of every kernel family declares
 * (big-number kernels, ML-DSA, ML-KEM, Keccak, the curve family c25519):
 * its table begins with CS_IMPL_HEAD, its name then the CPU features it
 * needs, and its family is the list it is a row of (cs_bn_kernels,
 * cs_mldsa_impls, cs_mlkem_impls, cs_keccak_impls, cs_c25519_impls).
 * Every list is in one order: portable first (the reference, runs
 * everywhere), then the ISA implementations, those needing fewer features
 * first. The order decides nothing: the policy (runtime/policy_builtin.c)
 * and CRYPTOSHIM_KERNELS choose. runtime/registry.c reads any family's
 * rows through this shape. No OpenSSL here. */
#ifndef CRYPTOSHIM_IMPL_H
#define CRYPTOSHIM_IMPL_H

#include <stdint.h>

#include "cpu_features.h"

/* The first members of every implementation table. name: stable, as in
 * CRYPTOSHIM_KERNELS, policy files, `cryptoshim info` and the stats;
 * cpu_features: the CS_CPU_* bits whose instructions it uses (all must be
 * present to run it; 0 for portable). */
#define CS_IMPL_HEAD                                                                             \
    const char *name;                                                                            \
    uint32_t cpu_features

/* The initializers of those members in a table's definition: its name (a
 * string) and its CS_CPU_* bits. */
#define CS_IMPL_ROW(NAME, FEATURES) .name = NAME, .cpu_features = FEATURES

#endif
