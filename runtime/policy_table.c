/* Turns policy rules and the controls into the decision table (decide once:
 * the dispatcher then only reads). Runs at start and when the policy or the
 * controls are re-read, never on a call's path. */
#include <stdio.h>
#include <string.h>

#include "controls.h"
#include "cpu.h"
#include "policy.h"

const cs_bn_kernel *cs_bn_kernel_by_name(const char *name)
{
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++)
        if (!strcmp((*k)->name, name))
            return *k;
    return NULL;
}

int cs_bn_kernel_usable(const cs_bn_kernel *k)
{
    return (k->cpu_features & ~cs_cpu_features()) == 0 && cs_kernel_allowed(k->name);
}

int cs_dispatch_op_index(const char *op)
{
    static const char *const names[CS_DOP_COUNT] = {
        [CS_DOP_MOD_EXP] = CS_OP_MOD_EXP,
        [CS_DOP_MOD_EXP_CT] = CS_OP_MOD_EXP_CT,
        [CS_DOP_MOD_EXP_CT_X2] = CS_OP_MOD_EXP_CT_X2,
        [CS_DOP_MOD_EXP2] = CS_OP_MOD_EXP2,
    };
    for (int i = 0; i < CS_DOP_COUNT; i++)
        if (!strcmp(names[i], op))
            return i;
    return -1;
}

/* How many features of a comma list of names the CPU (as CRYPTOSHIM_CPU
 * leaves it) has; *named gets how many the list names. Unknown names count
 * as absent. */
static unsigned cpu_count(const char *list, unsigned *named)
{
    char buf[48];
    unsigned have = 0;
    *named = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        ++*named;
        have += (cs_cpu_features() & cs_cpu_feature_by_name(tok, strlen(tok))) != 0;
    }
    return have;
}

/* Whether the CPU has any feature of the list / every one (empty: yes). */
static int cpu_has_any(const char *list)
{
    unsigned named;
    return cpu_count(list, &named) > 0;
}
static int cpu_has_all(const char *list)
{
    unsigned named;
    return cpu_count(list, &named) == named;
}

/* Table code of the kernel named `name` (cs_bn_kernels order), or -1. */
static int kernel_code(const char *name)
{
    for (int i = 0; cs_bn_kernels[i] && i < CS_DISPATCH_MAX_KERNELS; i++)
        if (!strcmp(cs_bn_kernels[i]->name, name))
            return CS_DCODE_KERNEL0 + i;
    return -1;
}

/* Sets op's entries for lo..hi bits (clipped to the table) to code, for
 * the families in the CS_FAMILY_BIT set fams. */
static void fill(cs_dispatch_table *t, unsigned fams, int op, unsigned lo, unsigned hi, int code)
{
    if (lo < CS_BN_MIN_BITS)
        lo = CS_BN_MIN_BITS;
    if (hi > CS_BN_MAX_BITS)
        hi = CS_BN_MAX_BITS;
    for (int f = 0; f < CS_FAMILY_COUNT && lo <= hi; f++)
        if (fams & CS_FAMILY_BIT(f))
            memset(&t->code[f][op][lo - CS_BN_MIN_BITS], code, hi - lo + 1);
}

/* Whether kernel k (NULL: libcrypto) has the entry operation op needs. */
static int has_entry(const cs_bn_kernel *k, int op)
{
    if (!k)
        return 1;
    if (op == CS_DOP_MOD_EXP_CT_X2)
        return k->exp_x2 != NULL;
    if (op == CS_DOP_MOD_EXP2)
        return k->exp2 != NULL;
    return 1;
}

/* Rules in reverse, each overwriting what later rules set: every size ends
 * with the first rule (in file order) that applies to it. A rule applies
 * where its kernel runs here and serves that size with the entry needed. */
static void build_from_rules(cs_dispatch_table *t, const cs_policy_rule *rules, unsigned n)
{
    for (unsigned i = n; i-- > 0;) {
        const cs_policy_rule *r = &rules[i];
        int op = cs_dispatch_op_index(r->op);
        if (op < 0 || cpu_has_any(r->without) || !cpu_has_all(r->with))
            continue; /* the CPU has (or lacks) what makes libcrypto faster here */
        unsigned fams = r->families ? r->families & CS_FAMILY_ALL : CS_FAMILY_ALL;
        if (!strcmp(r->kernel, "libcrypto")) {
            fill(t, fams, op, r->min_bits, r->max_bits, CS_DCODE_LIBCRYPTO);
            continue;
        }
        int code = kernel_code(r->kernel);
        if (code < 0)
            continue; /* a kernel this build lacks: ignore the rule */
        const cs_bn_kernel *k = t->kernel[code];
        if (!cs_bn_kernel_usable(k) || !has_entry(k, op))
            continue;
        unsigned lo = r->min_bits > k->min_bits ? r->min_bits : k->min_bits;
        unsigned hi = r->max_bits < k->max_bits ? r->max_bits : k->max_bits;
        fill(t, fams, op, lo, hi, code);
    }
}

/* Under CRYPTOSHIM_KERNELS the listed kernels serve every call they
 * support, the earliest listed first (written last); the policy is not
 * consulted. A pair or exp2 goes to the kernel a single call would get,
 * and to libcrypto's own path (undecided for x2) when it lacks the entry. */
static void build_forced(cs_dispatch_table *t)
{
    unsigned listed = 0;
    while (cs_kernel_listed(listed))
        listed++;
    for (unsigned i = listed; i-- > 0;) {
        int code = kernel_code(cs_kernel_listed(i));
        if (code < 0 || !cs_bn_kernel_usable(t->kernel[code]))
            continue;
        const cs_bn_kernel *k = t->kernel[code];
        unsigned all = CS_FAMILY_ALL;
        fill(t, all, CS_DOP_MOD_EXP, k->min_bits, k->max_bits, code);
        fill(t, all, CS_DOP_MOD_EXP_CT, k->min_bits, k->max_bits, code);
        fill(t, all, CS_DOP_MOD_EXP_CT_X2, k->min_bits, k->max_bits,
             k->exp_x2 ? code : CS_DCODE_NONE);
        fill(t, all, CS_DOP_MOD_EXP2, k->min_bits, k->max_bits, k->exp2 ? code : CS_DCODE_NONE);
    }
}

/* The ML-DSA implementation for every parameter set: backends follow
 * portable in the list and are faster where they run, so the last usable
 * one wins, or under CRYPTOSHIM_KERNELS the first listed; portable when
 * CRYPTOSHIM_KERNELS lists none (never NULL: the provider has no other
 * way out). */
static const cs_mldsa_impl *pick_mldsa(void)
{
    const cs_mldsa_impl *best = NULL;
    int best_rank = 0;
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i; i++) {
        const char *name = cs_mldsa_impl_name(*i);
        if ((cs_mldsa_impl_cpu_features(*i) & ~cs_cpu_features()) || !cs_kernel_allowed(name))
            continue;
        /* AVX-512 without IFMA (Skylake-SP class) is not measured: avx2. */
        if ((cs_mldsa_impl_cpu_features(*i) & CS_CPU_AVX512F) && !cs_kernels_forced() &&
            !(cs_cpu_features() & CS_CPU_AVX512IFMA))
            continue;
        int rank = cs_kernel_rank(name);
        if (!best || (cs_kernels_forced() ? rank < best_rank : 1)) {
            best = *i;
            best_rank = rank;
        }
    }
    return best ? best : &cs_mldsa_portable;
}

void cs_dispatch_table_build(cs_dispatch_table *t, const cs_policy_rule *rules, unsigned n)
{
    memset(t, 0, sizeof *t);
    for (unsigned i = 0; cs_bn_kernels[i] && i < CS_DISPATCH_MAX_KERNELS; i++)
        t->kernel[CS_DCODE_KERNEL0 + i] = cs_bn_kernels[i];
    const cs_mldsa_impl *impl = pick_mldsa();
    for (unsigned i = 0; i < 3; i++)
        t->mldsa[i] = impl;
    if (cs_disabled())
        return;
    if (cs_kernels_forced())
        build_forced(t);
    else
        build_from_rules(t, rules, n);
}
