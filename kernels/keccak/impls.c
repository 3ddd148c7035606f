/* The portable Keccak table, the list of built-in tables, the choice by
 * CPU features and the default table of the one-call SHAKE256. */
#include "keccak_internal.h"

const cs_keccak_impl cs_keccak_portable = {
    .name = "portable",
    .cpu_features = 0,
    .f1600 = cs_keccakf1600_portable,
    .f1600_x2 = cs_keccakf1600_x2_vec,
    .f1600_x4 = cs_keccakf1600_x4_vec, /* two 2-way vector passes */
};

/* Per-ISA tables add themselves here under their architecture's #if,
 * slowest first. */
const cs_keccak_impl *const cs_keccak_impls[] = {
    &cs_keccak_portable,
#if defined(__x86_64__)
    &cs_keccak_avx2,
    &cs_keccak_avx512,
#endif
#if defined(__s390x__)
    &cs_keccak_s390x_vx,
    &cs_keccak_s390x_cpacf,
#endif
    NULL,
};

/* The last usable table of the list: the fastest one the CPU runs. */
const cs_keccak_impl *cs_keccak_pick(uint32_t cpu_features)
{
    const cs_keccak_impl *best = &cs_keccak_portable;
    for (const cs_keccak_impl *const *i = cs_keccak_impls; *i; i++)
        if (((*i)->cpu_features & ~cpu_features) == 0)
            best = *i;
    return best;
}

/* Set once by the dispatcher, read by every cs_shake256_init: relaxed
 * atomics, as any table computes the same function. */
static const cs_keccak_impl *default_impl = &cs_keccak_portable;

/* The table cs_shake256_init uses. */
const cs_keccak_impl *cs_keccak_default(void)
{
    return __atomic_load_n(&default_impl, __ATOMIC_RELAXED);
}

/* Sets it (NULL: portable). */
void cs_keccak_set_default(const cs_keccak_impl *k)
{
    __atomic_store_n(&default_impl, k ? k : &cs_keccak_portable, __ATOMIC_RELAXED);
}
