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
    return cs_impl_usable(CS_IMPL_BN, k);
}

const unsigned cs_impl_sets[CS_IMPL_FAMILIES][CS_IMPL_SETS] = {
    [CS_IMPL_MLDSA] = {44, 65, 87},
    [CS_IMPL_MLKEM] = {512, 768, 1024},
    [CS_IMPL_KECCAK] = {1600},
    [CS_IMPL_C25519] = {25519},
};

unsigned cs_impl_set_index(int family, int set)
{
    for (unsigned i = 0; family > 0 && family < CS_IMPL_FAMILIES && i < CS_IMPL_SETS; i++)
        if (cs_impl_sets[family][i] == (unsigned)set)
            return i;
    return 0;
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

int cs_policy_op_family(const char *op)
{
    if (cs_dispatch_op_index(op) >= 0)
        return CS_IMPL_BN;
    int f = cs_impl_family_by_name(op, strlen(op));
    return f > CS_IMPL_BN ? f : -1;
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
            continue; /* another family's rule, or the CPU has (or lacks) what makes libcrypto faster here */
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

/* Under CRYPTOSHIM_KERNELS naming big-number kernels, those serve every
 * call they support, the earliest listed first (written last); the policy
 * is not consulted. A pair or exp2 goes to the kernel a single call would
 * get, and to libcrypto's own path (undecided for x2) when it lacks the
 * entry. */
static void build_forced(cs_dispatch_table *t)
{
    /* Usable listed kernels' codes, sorted by rank, earliest first. */
    int codes[CS_DISPATCH_MAX_KERNELS], ranks[CS_DISPATCH_MAX_KERNELS], n = 0;
    for (int c = CS_DCODE_KERNEL0; c < CS_DCODE_KERNEL0 + CS_DISPATCH_MAX_KERNELS; c++) {
        const cs_bn_kernel *k = t->kernel[c];
        int rank = k ? cs_impl_rank(CS_IMPL_BN, k) : -1;
        if (rank < 0 || !cs_bn_kernel_usable(k))
            continue;
        int j = n++;
        for (; j > 0 && ranks[j - 1] > rank; j--)
            codes[j] = codes[j - 1], ranks[j] = ranks[j - 1];
        codes[j] = c, ranks[j] = rank;
    }
    for (int i = n; i-- > 0;) {
        int code = codes[i];
        const cs_bn_kernel *k = t->kernel[code];
        unsigned all = CS_FAMILY_ALL;
        fill(t, all, CS_DOP_MOD_EXP, k->min_bits, k->max_bits, code);
        fill(t, all, CS_DOP_MOD_EXP_CT, k->min_bits, k->max_bits, code);
        fill(t, all, CS_DOP_MOD_EXP_CT_X2, k->min_bits, k->max_bits,
             k->exp_x2 ? code : CS_DCODE_NONE);
        fill(t, all, CS_DOP_MOD_EXP2, k->min_bits, k->max_bits, k->exp2 ? code : CS_DCODE_NONE);
    }
}

/* Whether libcrypto family fam and the CPU match rule r (its `@family`
 * list, `!feature`s and `+feature`s). */
static int rule_applies(const cs_policy_rule *r, int fam)
{
    return (!r->families || (r->families & CS_FAMILY_BIT(fam))) && !cpu_has_any(r->without) &&
           cpu_has_all(r->with);
}

/* The implementation of registry family `family` for parameter set `set`
 * of calls from libcryptos of family fam: the first rule of that family's
 * operation covering the set whose implementation runs here ("libcrypto":
 * NULL), or NULL when none does. */
static const void *decide_impl(int family, int fam, unsigned set, const cs_policy_rule *rules,
                               unsigned n)
{
    const char *op = cs_impl_family_name(family);
    for (unsigned i = 0; i < n; i++) {
        const cs_policy_rule *r = &rules[i];
        if (strcmp(r->op, op) || set < r->min_bits || set > r->max_bits || !rule_applies(r, fam))
            continue;
        if (!strcmp(r->kernel, "libcrypto"))
            return NULL;
        const void *impl = cs_impl_by_name(family, r->kernel);
        if (impl && cs_impl_usable(family, impl))
            return impl;
    }
    return NULL;
}

/* Every family but the big numbers: by its rules, or under
 * CRYPTOSHIM_KERNELS naming it, its first listed usable implementation. */
static void build_impls(cs_dispatch_table *t, const cs_policy_rule *rules, unsigned n)
{
    for (int family = CS_IMPL_BN + 1; family < CS_IMPL_FAMILIES; family++) {
        int forced = cs_impl_family_forced(family);
        const void *choice = forced ? cs_impl_forced_choice(family) : NULL;
        for (int fam = 0; fam < CS_FAMILY_COUNT; fam++)
            for (unsigned s = 0; s < CS_IMPL_SETS && cs_impl_sets[family][s]; s++)
                t->impl[fam][family][s] =
                    forced ? choice
                           : decide_impl(family, fam, cs_impl_sets[family][s], rules, n);
    }
}

void cs_dispatch_table_build(cs_dispatch_table *t, const cs_policy_rule *rules, unsigned n)
{
    memset(t, 0, sizeof *t);
    for (unsigned i = 0; cs_bn_kernels[i] && i < CS_DISPATCH_MAX_KERNELS; i++)
        t->kernel[CS_DCODE_KERNEL0 + i] = cs_bn_kernels[i];
    if (cs_disabled())
        return;
    build_impls(t, rules, n);
    if (cs_impl_family_forced(CS_IMPL_BN))
        build_forced(t);
    else
        build_from_rules(t, rules, n);
}
