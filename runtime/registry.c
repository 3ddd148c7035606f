/* The implementation registry (registry.h): each family's list read
 * through the one shape of kernels/impl.h. */
#include <stddef.h>
#include <string.h>

#include "controls.h"
#include "kernels/bn/bn_kernel.h"
#include "kernels/c25519/c25519.h"
#include "kernels/keccak/keccak.h"
#include "kernels/mldsa/mldsa_backend.h"
#include "kernels/mlkem/mlkem.h"
#include "registry.h"

/* Every family's table begins with CS_IMPL_HEAD: checked here, so a table
 * that does not cannot be listed. */
typedef struct {
    CS_IMPL_HEAD;
} impl_head;
#define SAME_HEAD(T)                                                                             \
    _Static_assert(offsetof(T, name) == offsetof(impl_head, name) &&                           \
                       offsetof(T, cpu_features) == offsetof(impl_head, cpu_features),         \
                   #T " does not begin with CS_IMPL_HEAD")
SAME_HEAD(cs_bn_kernel);
SAME_HEAD(cs_mldsa_impl);
SAME_HEAD(cs_mlkem_impl);
SAME_HEAD(cs_keccak_impl);
SAME_HEAD(cs_c25519_impl);


static const struct {
    const char *name, *title;
} families[CS_IMPL_FAMILIES] = {
    [CS_IMPL_BN] = {"bn", "big-number kernels"},
    [CS_IMPL_MLDSA] = {"mldsa", "ML-DSA implementations"},
    [CS_IMPL_MLKEM] = {"mlkem", "ML-KEM implementations"},
    [CS_IMPL_KECCAK] = {"keccak", "Keccak implementations"},
    [CS_IMPL_C25519] = {"c25519", "X25519/Ed25519 implementations"},
};

const char *cs_impl_family_name(int family)
{
    return family >= 0 && family < CS_IMPL_FAMILIES ? families[family].name : NULL;
}

const char *cs_impl_family_title(int family)
{
    return family >= 0 && family < CS_IMPL_FAMILIES ? families[family].title : NULL;
}

int cs_impl_family_by_name(const char *s, size_t len)
{
    for (int f = 0; f < CS_IMPL_FAMILIES; f++)
        if (strlen(families[f].name) == len && !memcmp(families[f].name, s, len))
            return f;
    return -1;
}

const void *cs_impl_at(int family, unsigned i)
{
    switch (family) {
    case CS_IMPL_BN: return cs_bn_kernels[i];
    case CS_IMPL_MLDSA: return cs_mldsa_impls[i];
    case CS_IMPL_MLKEM: return cs_mlkem_impls[i];
    case CS_IMPL_KECCAK: return cs_keccak_impls[i];
    case CS_IMPL_C25519: return cs_c25519_impls[i];
    default: return NULL;
    }
}

/* A pointer to a table is a pointer to its first member, the name. */
const char *cs_impl_name(const void *impl)
{
    return *(const char *const *)impl;
}

uint32_t cs_impl_cpu_features(const void *impl)
{
    return *(const uint32_t *)((const char *)impl + offsetof(impl_head, cpu_features));
}

const void *cs_impl_by_name(int family, const char *name)
{
    const void *impl;
    for (unsigned i = 0; (impl = cs_impl_at(family, i)); i++)
        if (!strcmp(cs_impl_name(impl), name))
            return impl;
    return NULL;
}

/* Whether a CRYPTOSHIM_KERNELS entry names implementation `name` of the
 * family: "family:name", or a bare "name". */
static int entry_names(const char *entry, int family, const char *name)
{
    const char *colon = strchr(entry, ':');
    if (!colon)
        return !strcmp(entry, name);
    return cs_impl_family_by_name(entry, (size_t)(colon - entry)) == family &&
           !strcmp(colon + 1, name);
}

int cs_impl_rank(int family, const void *impl)
{
    const char *e;
    if (!cs_kernels_forced())
        return -1;
    for (unsigned i = 0; (e = cs_kernel_listed(i)); i++)
        if (entry_names(e, family, cs_impl_name(impl)))
            return (int)i;
    return -1;
}

int cs_impl_family_forced(int family)
{
    const void *impl;
    for (unsigned i = 0; (impl = cs_impl_at(family, i)); i++)
        if (cs_impl_rank(family, impl) >= 0)
            return 1;
    return 0;
}

int cs_impl_usable(int family, const void *impl)
{
    if (cs_impl_cpu_features(impl) & ~cs_cpu_features())
        return 0;
    return cs_impl_rank(family, impl) >= 0 || !cs_impl_family_forced(family);
}

const void *cs_impl_forced_choice(int family)
{
    const void *impl, *best = NULL;
    int best_rank = 0;
    for (unsigned i = 0; (impl = cs_impl_at(family, i)); i++) {
        int rank = cs_impl_rank(family, impl);
        if (rank >= 0 && !(cs_impl_cpu_features(impl) & ~cs_cpu_features()) &&
            (!best || rank < best_rank))
            best = impl, best_rank = rank;
    }
    return best;
}

int cs_impl_entry_known(const char *entry)
{
    const void *impl;
    for (int f = 0; f < CS_IMPL_FAMILIES; f++)
        for (unsigned i = 0; (impl = cs_impl_at(f, i)); i++)
            if (entry_names(entry, f, cs_impl_name(impl)))
                return 1;
    return 0;
}
