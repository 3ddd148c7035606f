/* Kernel selection from the policy, CPU features and CRYPTOSHIM_KERNELS. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controls.h"
#include "cpu.h"
#include "dispatch.h"
#include "policy.h"

#define POLICY_MAX 64

/* A rule with its kernel looked up once (NULL kernel = libcrypto). */
struct resolved_rule {
    char op[24];
    unsigned min_bits, max_bits;
    const cs_bn_kernel *kernel;
    int usable; /* kernel (or libcrypto) may serve */
};

static struct resolved_rule rules[POLICY_MAX];
static unsigned nrules;
static int policy_from_file;
static cs_policy_status policy_status;

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

int cs_policy_parse(const char *text, cs_policy_rule *out, unsigned max_rules)
{
    return cs_policy_parse_text(text, strlen(text), out, max_rules, NULL, NULL, 0);
}

/* Whether the CPU (as CRYPTOSHIM_CPU leaves it) has any feature of a comma
 * list of names. Unknown names count as absent. */
static int cpu_has_any(const char *list)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (cs_cpu_features() & cs_cpu_feature_by_name(tok, strlen(tok)))
            return 1;
    return 0;
}

void cs_dispatch_init(void)
{
    cs_dispatch_init_with(CS_POLICY_SYSTEM_DIR "/" CS_POLICY_SYSTEM_FILE);
}

const cs_policy_status *cs_dispatch_policy_status(void) { return &policy_status; }

void cs_dispatch_init_with(const char *system_path)
{
    static cs_policy_rule file_rules[POLICY_MAX];
    const cs_policy_rule *src = cs_policy_builtin;
    int n = cs_policy_load(cs_policy_path(), system_path, file_rules, POLICY_MAX, &policy_status);
    policy_from_file = n >= 0;
    if (n >= 0)
        src = file_rules;
    else
        n = (int)cs_policy_builtin_count;
    nrules = 0;
    for (int i = 0; i < n && nrules < POLICY_MAX; i++) {
        struct resolved_rule *r = &rules[nrules];
        memcpy(r->op, src[i].op, sizeof r->op);
        r->op[sizeof r->op - 1] = 0;
        r->min_bits = src[i].min_bits;
        r->max_bits = src[i].max_bits;
        if (cpu_has_any(src[i].without))
            continue; /* the CPU has what makes libcrypto faster here */
        if (!strcmp(src[i].kernel, "libcrypto")) {
            r->kernel = NULL;
            r->usable = 1;
        } else {
            r->kernel = cs_bn_kernel_by_name(src[i].kernel);
            if (!r->kernel)
                continue; /* a kernel this build lacks: ignore the rule */
            r->usable = cs_bn_kernel_usable(r->kernel);
        }
        nrules++;
    }
}

int cs_dispatch_policy_from_file(void) { return policy_from_file; }

/* Under CRYPTOSHIM_KERNELS the listed kernels serve every call they
 * support, in the order listed; the policy is not consulted. */
static const cs_bn_kernel *forced_bn(unsigned bits)
{
    const cs_bn_kernel *best = NULL;
    int best_rank = 0;
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        int rank = cs_kernel_rank((*k)->name);
        if (rank < 0 || !cs_bn_kernel_usable(*k) || bits < (*k)->min_bits ||
            bits > (*k)->max_bits)
            continue;
        if (!best || rank < best_rank) {
            best = *k;
            best_rank = rank;
        }
    }
    return best;
}

const cs_bn_kernel *cs_dispatch_bn(int consttime, unsigned bits)
{
    const char *op = consttime ? CS_OP_MOD_EXP_CT : CS_OP_MOD_EXP;
    if (cs_disabled() || bits < CS_BN_MIN_BITS || bits > CS_BN_MAX_BITS)
        return NULL;
    if (cs_kernels_forced())
        return forced_bn(bits);
    for (unsigned i = 0; i < nrules; i++) {
        const struct resolved_rule *r = &rules[i];
        if (!r->usable || bits < r->min_bits || bits > r->max_bits || strcmp(r->op, op))
            continue;
        if (r->kernel && (bits < r->kernel->min_bits || bits > r->kernel->max_bits))
            continue;
        return r->kernel;
    }
    return NULL;
}

int cs_dispatch_bn_x2(unsigned bits, const cs_bn_kernel **k)
{
    *k = NULL;
    if (cs_disabled() || bits < CS_BN_MIN_BITS || bits > CS_BN_MAX_BITS)
        return 0;
    if (cs_kernels_forced()) {
        const cs_bn_kernel *f = forced_bn(bits);
        if (!f || !f->exp_x2)
            return 0;
        *k = f;
        return 1;
    }
    for (unsigned i = 0; i < nrules; i++) {
        const struct resolved_rule *r = &rules[i];
        if (!r->usable || bits < r->min_bits || bits > r->max_bits ||
            strcmp(r->op, CS_OP_MOD_EXP_CT_X2))
            continue;
        if (r->kernel && (bits < r->kernel->min_bits || bits > r->kernel->max_bits ||
                          !r->kernel->exp_x2))
            continue;
        *k = r->kernel;
        return 1;
    }
    return 0;
}

const cs_bn_kernel *cs_dispatch_bn2(unsigned bits)
{
    if (cs_disabled() || bits < CS_BN_MIN_BITS || bits > CS_BN_MAX_BITS)
        return NULL;
    if (cs_kernels_forced()) {
        const cs_bn_kernel *f = forced_bn(bits);
        return f && f->exp2 ? f : NULL;
    }
    for (unsigned i = 0; i < nrules; i++) {
        const struct resolved_rule *r = &rules[i];
        if (!r->usable || bits < r->min_bits || bits > r->max_bits || strcmp(r->op, CS_OP_MOD_EXP2))
            continue;
        if (r->kernel && (bits < r->kernel->min_bits || bits > r->kernel->max_bits ||
                          !r->kernel->exp2))
            continue;
        return r->kernel;
    }
    return NULL;
}

const cs_mldsa_impl *cs_dispatch_mldsa(int ps)
{
    const cs_mldsa_impl *best = NULL;
    int best_rank = 0;
    (void)ps;
    /* Backends follow portable in the list and are faster where they run:
     * the last usable one wins, or under CRYPTOSHIM_KERNELS the first listed. */
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i; i++) {
        const char *name = cs_mldsa_impl_name(*i);
        if ((cs_mldsa_impl_cpu_features(*i) & ~cs_cpu_features()) || !cs_kernel_allowed(name))
            continue;
        int rank = cs_kernel_rank(name);
        if (!best || (cs_kernels_forced() ? rank < best_rank : 1)) {
            best = *i;
            best_rank = rank;
        }
    }
    return best;
}
