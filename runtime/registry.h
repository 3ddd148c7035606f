/* The implementation registry: every kernel family's list of
 * implementations (kernels/impl.h: one shape, name then CPU features, one
 * order, portable first), read the same way for every family, and which of
 * them may run here (CPU features as CRYPTOSHIM_CPU leaves them, and
 * CRYPTOSHIM_KERNELS). Which one serves is the policy's (runtime/policy.h).
 *
 * CRYPTOSHIM_KERNELS names implementations as `family:name` (`mldsa:avx2`,
 * `bn:x86_64-ifma`, `mlkem:avx512`, `keccak:avx2`, `c25519:...`), or by a
 * bare name, which names the implementation of that name in every family
 * that has one (`portable` is in each; `avx2` is ML-DSA's, ML-KEM's and
 * Keccak's; `x86_64-ifma` only a big-number kernel's). A family is forced
 * when at least one entry names one of its implementations: its first
 * listed usable implementation then serves whatever the policy says (none
 * usable: libcrypto's own, or portable where the family must have one).
 * A family no entry names keeps the policy's choice. */
#ifndef CRYPTOSHIM_REGISTRY_H
#define CRYPTOSHIM_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/impl.h"

/* The kernel families, in the order `cryptoshim info` lists them. */
enum cs_impl_family {
    CS_IMPL_BN,     /* big-number kernels (kernels/bn/kernels.c: cs_bn_kernels) */
    CS_IMPL_MLDSA,  /* ML-DSA (kernels/mldsa/portable.c: cs_mldsa_impls) */
    CS_IMPL_MLKEM,  /* ML-KEM (kernels/mlkem/portable.c: cs_mlkem_impls) */
    CS_IMPL_KECCAK, /* Keccak (kernels/keccak/impls.c: cs_keccak_impls) */
    CS_IMPL_C25519, /* X25519 and Ed25519 (kernels/c25519: cs_c25519_impls) */
    CS_IMPL_FAMILIES
};

/* The family's name, the qualifier of CRYPTOSHIM_KERNELS and the operation
 * of its policy rules ("bn" has its own operations): "bn", "mldsa",
 * "mlkem", "keccak", "c25519"; NULL out of range. */
const char *cs_impl_family_name(int family);
/* What `cryptoshim info` calls it ("big-number kernels", "ML-DSA", ...). */
const char *cs_impl_family_title(int family);
/* The family named by the len bytes at s, or -1. */
int cs_impl_family_by_name(const char *s, size_t len);

/* The i-th implementation of the family in its list (portable first), or
 * NULL past the end (and for a family this build has none of). */
const void *cs_impl_at(int family, unsigned i);
/* The implementation of the family with that name, or NULL. */
const void *cs_impl_by_name(int family, const char *name);
/* An implementation's name and required features (kernels/impl.h). */
const char *cs_impl_name(const void *impl);
uint32_t cs_impl_cpu_features(const void *impl);

/* Position in CRYPTOSHIM_KERNELS of the first entry naming this
 * implementation of the family (qualified or bare), or -1. */
int cs_impl_rank(int family, const void *impl);
/* Whether CRYPTOSHIM_KERNELS names any implementation of the family. */
int cs_impl_family_forced(int family);
/* Whether impl may run here: its features are all present and, when its
 * family is forced, CRYPTOSHIM_KERNELS names it. */
int cs_impl_usable(int family, const void *impl);
/* Under a forced family, its usable implementation listed first in
 * CRYPTOSHIM_KERNELS, or NULL (none usable, or the family not forced). */
const void *cs_impl_forced_choice(int family);
/* Whether the CRYPTOSHIM_KERNELS entry (as listed) names an
 * implementation of this build. */
int cs_impl_entry_known(const char *entry);

#endif
