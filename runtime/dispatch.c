/* Kernel selection: the policy in force is turned into a decision table once
 * (runtime/policy_table.c), published with one atomic store; each call then
 * reads one entry. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "controls.h"
#include "cpu.h"
#include "dispatch.h"
#include "policy.h"

#define POLICY_MAX 128

/* The rules in force, as parsed (from a file or the built-in text). */
static cs_policy_rule rules[POLICY_MAX];
static unsigned nrules;
static int policy_loaded; /* cs_dispatch_init has run: refresh may build */
static int policy_from_file;
static cs_policy_status policy_status;

/* Two tables: a rebuild fills the one not published, then publishes it.
 * tables[0] starts published and empty (zero, in .bss): before the first
 * build every call passes through (a call can come before the constructor:
 * another library's) and ML-DSA runs portable (cs_dispatch_mldsa). */
static cs_dispatch_table tables[2];
static const cs_dispatch_table *published = &tables[0];

/* The table in force (acquire: its contents were written before the store). */
static inline const cs_dispatch_table *table(void)
{
    return __atomic_load_n(&published, __ATOMIC_ACQUIRE);
}

int cs_policy_parse(const char *text, cs_policy_rule *out, unsigned max_rules)
{
    return cs_policy_parse_text(text, strlen(text), out, max_rules, NULL, NULL, 0);
}

void cs_dispatch_init(void)
{
    cs_dispatch_init_with(CS_POLICY_SYSTEM_DIR "/" CS_POLICY_SYSTEM_FILE);
}

const cs_policy_status *cs_dispatch_policy_status(void) { return &policy_status; }

const cs_policy_rule *cs_dispatch_rules(unsigned *count)
{
    *count = nrules;
    return rules;
}

void cs_dispatch_refresh(void)
{
    if (!policy_loaded)
        return; /* the constructor reads the controls first, then the policy */
    const cs_dispatch_table *cur = __atomic_load_n(&published, __ATOMIC_RELAXED);
    cs_dispatch_table *next = cur == &tables[0] ? &tables[1] : &tables[0];
    cs_dispatch_table_build(next, rules, nrules);
    __atomic_store_n(&published, next, __ATOMIC_RELEASE);
}

/* Appends to rules[0..n) the built-in rules of every family the n rules
 * (a policy file's) have none for, so a file decides the families it
 * measured and the others keep the built-in decisions. Returns the new
 * count. */
static unsigned add_builtin_families(cs_policy_rule *r, unsigned n, unsigned max)
{
    static cs_policy_rule builtin[POLICY_MAX];
    int nb = cs_policy_parse_text(cs_policy_builtin_text, strlen(cs_policy_builtin_text), builtin,
                                  POLICY_MAX, NULL, NULL, 0);
    int has[CS_IMPL_FAMILIES] = {0};
    for (unsigned i = 0; i < n; i++)
        if (cs_policy_op_family(r[i].op) >= 0)
            has[cs_policy_op_family(r[i].op)] = 1;
    for (int i = 0; i < nb && n < max; i++)
        if (!has[cs_policy_op_family(builtin[i].op)])
            r[n++] = builtin[i];
    return n;
}

void cs_dispatch_init_with(const char *system_path)
{
    int n = cs_policy_load(cs_policy_path(), system_path, rules, POLICY_MAX, &policy_status);
    policy_from_file = n >= 0;
    if (n >= 0)
        n = (int)add_builtin_families(rules, (unsigned)n, POLICY_MAX);
    if (n < 0) {
        char err[96];
        n = cs_policy_parse_text(cs_policy_builtin_text, strlen(cs_policy_builtin_text), rules,
                                 POLICY_MAX, NULL, err, sizeof err);
        if (n < 0) {
            /* A build fault (tests/unit/policy_table.c checks): pass all through. */
            n = 0;
            if (!policy_status.note[0])
                snprintf(policy_status.note, sizeof policy_status.note,
                         "the built-in policy does not parse (%s): every call passes through",
                         err);
        }
    }
    nrules = (unsigned)n;
    policy_loaded = 1;
    cs_dispatch_refresh();
}

int cs_dispatch_policy_from_file(void) { return policy_from_file; }

/* A family index that is safe to read the table with. */
static inline unsigned fam(int family)
{
    return (unsigned)family < CS_FAMILY_COUNT ? (unsigned)family : CS_FAMILY_NEWEST;
}

const cs_bn_kernel *cs_dispatch_bn(int family, int consttime, unsigned bits)
{
    const cs_dispatch_table *t = table();
    unsigned i = bits - CS_BN_MIN_BITS; /* below the minimum wraps above the span */
    if (i >= CS_DISPATCH_SPAN)
        return NULL;
    return t->kernel[t->code[fam(family)][consttime ? CS_DOP_MOD_EXP_CT : CS_DOP_MOD_EXP][i]];
}

int cs_dispatch_bn_x2(int family, unsigned bits, const cs_bn_kernel **k)
{
    const cs_dispatch_table *t = table();
    unsigned i = bits - CS_BN_MIN_BITS;
    unsigned code =
        i < CS_DISPATCH_SPAN ? t->code[fam(family)][CS_DOP_MOD_EXP_CT_X2][i] : CS_DCODE_NONE;
    *k = t->kernel[code];
    return code != CS_DCODE_NONE;
}

const cs_bn_kernel *cs_dispatch_bn2(int family, unsigned bits)
{
    const cs_dispatch_table *t = table();
    unsigned i = bits - CS_BN_MIN_BITS;
    if (i >= CS_DISPATCH_SPAN)
        return NULL;
    return t->kernel[t->code[fam(family)][CS_DOP_MOD_EXP2][i]];
}

const void *cs_dispatch_impl(int family, int set)
{
    if (family <= CS_IMPL_BN || family >= CS_IMPL_FAMILIES)
        return NULL;
    /* The provider and the hashes serve OpenSSL 3.5 and later only: the
     * newest libcrypto family's decisions. */
    return table()->impl[CS_FAMILY_NEWEST][family][cs_impl_set_index(family, set)];
}

const cs_mldsa_impl *cs_dispatch_mldsa(int ps)
{
    const cs_mldsa_impl *impl = cs_dispatch_impl(CS_IMPL_MLDSA, ps);
    return impl ? impl : &cs_mldsa_portable;
}

int cs_dispatch_mldsa_serves(int ps)
{
    return cs_dispatch_impl(CS_IMPL_MLDSA, ps) != NULL;
}

const cs_keccak_impl *cs_dispatch_keccak(void)
{
    const cs_keccak_impl *k = cs_dispatch_impl(CS_IMPL_KECCAK, 1600);
    return k ? k : &cs_keccak_portable;
}
