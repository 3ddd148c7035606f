/* The decision table against a straightforward rule scan (the dispatcher as
 * it was before the table: every rule read on every call): for every
 * libcrypto family, operation and modulus size 0..CS_BN_MAX_BITS+2, under the built-in
 * policy, CPU masks, forced kernel lists, CRYPTOSHIM_DISABLE and a sample
 * policy file with odd bounds; the built-in text parses whole; re-reading
 * the controls alone rebuilds the table. With `--calls ROUNDS BITS` it only
 * makes dispatch decisions (the loop measured under callgrind in
 * docs/benchmarks.md). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/controls.h"
#include "runtime/cpu.h"
#include "runtime/dispatch.h"
#include "runtime/policy.h"
#include "runtime/registry.h"
#include "support/tap.h"

static const char *const op_names[CS_DOP_COUNT] = {CS_OP_MOD_EXP, CS_OP_MOD_EXP_CT,
                                                   CS_OP_MOD_EXP_CT_X2, CS_OP_MOD_EXP2};

/* Whether the CPU in force has any feature of a comma list. */
static int ref_cpu_has_any(const char *list)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (cs_cpu_features() & cs_cpu_feature_by_name(t, strlen(t)))
            return 1;
    return 0;
}

/* Whether the CPU in force has every feature of a comma list (empty: yes). */
static int ref_cpu_has_all(const char *list)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!(cs_cpu_features() & cs_cpu_feature_by_name(t, strlen(t))))
            return 0;
    return 1;
}

/* Whether kernel k has the entry op needs (x2: exp_x2, exp2: exp2). */
static int ref_has_entry(const cs_bn_kernel *k, int op)
{
    return op == CS_DOP_MOD_EXP_CT_X2 ? k->exp_x2 != NULL
           : op == CS_DOP_MOD_EXP2    ? k->exp2 != NULL
                                      : 1;
}

/* Position of the first CRYPTOSHIM_KERNELS entry naming implementation
 * `name` of the family called `family` ("family:name" or bare "name"),
 * or -1 (written from runtime/registry.h's rule, not its code). */
static int ref_rank(const char *family, const char *name)
{
    const char *e;
    char qualified[64];
    snprintf(qualified, sizeof qualified, "%s:%s", family, name);
    for (unsigned i = 0; (e = cs_kernel_listed(i)); i++)
        if (!strcmp(e, name) || !strcmp(e, qualified))
            return (int)i;
    return -1;
}

/* Whether an entry names an implementation of that family. */
static int ref_family_forced(int family)
{
    const void *impl;
    for (unsigned i = 0; (impl = cs_impl_at(family, i)); i++)
        if (ref_rank(cs_impl_family_name(family), cs_impl_name(impl)) >= 0)
            return 1;
    return 0;
}

/* The forced kernel for bits: usable, serving bits, listed first. */
static const cs_bn_kernel *ref_forced(unsigned bits)
{
    const cs_bn_kernel *best = NULL;
    int best_rank = 0;
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        int rank = ref_rank("bn", (*k)->name);
        if (rank < 0 || !cs_bn_kernel_usable(*k) || bits < (*k)->min_bits || bits > (*k)->max_bits)
            continue;
        if (!best || rank < best_rank)
            best = *k, best_rank = rank;
    }
    return best;
}

/* The answer by scanning: 1 with *k (NULL: libcrypto) when a rule (or the
 * forced list) decides, else 0 with *k NULL. */
static int ref_decide(int fam, int op, unsigned bits, const cs_bn_kernel **k)
{
    *k = NULL;
    if (cs_disabled() || bits < CS_BN_MIN_BITS || bits > CS_BN_MAX_BITS)
        return 0;
    if (ref_family_forced(CS_IMPL_BN)) {
        const cs_bn_kernel *f = ref_forced(bits);
        if (!f || !ref_has_entry(f, op))
            return 0;
        *k = f;
        return 1;
    }
    unsigned n;
    const cs_policy_rule *r = cs_dispatch_rules(&n);
    for (unsigned i = 0; i < n; i++) {
        if (strcmp(r[i].op, op_names[op]) || ref_cpu_has_any(r[i].without) ||
            !ref_cpu_has_all(r[i].with) || (r[i].families && !(r[i].families >> fam & 1)) ||
            bits < r[i].min_bits || bits > r[i].max_bits)
            continue;
        if (!strcmp(r[i].kernel, "libcrypto"))
            return 1;
        const cs_bn_kernel *rk = cs_bn_kernel_by_name(r[i].kernel);
        if (!rk || !cs_bn_kernel_usable(rk) || bits < rk->min_bits || bits > rk->max_bits ||
            !ref_has_entry(rk, op))
            continue;
        *k = rk;
        return 1;
    }
    return 0;
}

/* Another family's implementation for parameter set `set` by scanning
 * the rules (NULL: libcrypto), or under CRYPTOSHIM_KERNELS naming the
 * family its first listed implementation that runs here. */
static const void *ref_impl(int family, unsigned set)
{
    const char *fname = cs_impl_family_name(family);
    const void *impl, *best = NULL;
    int best_rank = 0;
    if (cs_disabled())
        return NULL;
    if (ref_family_forced(family)) {
        for (unsigned i = 0; (impl = cs_impl_at(family, i)); i++) {
            int rank = ref_rank(fname, cs_impl_name(impl));
            if (rank >= 0 && !(cs_impl_cpu_features(impl) & ~cs_cpu_features()) &&
                (!best || rank < best_rank))
                best = impl, best_rank = rank;
        }
        return best;
    }
    unsigned n;
    const cs_policy_rule *r = cs_dispatch_rules(&n);
    for (unsigned i = 0; i < n; i++) {
        if (strcmp(r[i].op, fname) || ref_cpu_has_any(r[i].without) ||
            !ref_cpu_has_all(r[i].with) ||
            (r[i].families && !(r[i].families >> CS_FAMILY_NEWEST & 1)) ||
            set < r[i].min_bits || set > r[i].max_bits)
            continue;
        if (!strcmp(r[i].kernel, "libcrypto"))
            return NULL;
        impl = cs_impl_by_name(family, r[i].kernel);
        if (impl && !(cs_impl_cpu_features(impl) & ~cs_cpu_features()))
            return impl;
    }
    return NULL;
}

/* Number of (operation, size) entries where the table and the scan differ,
 * the first one described in first. */
static unsigned mismatches(char *first, size_t cap)
{
    unsigned bad = 0;
    for (int fam = 0; fam < CS_FAMILY_COUNT; fam++)
    for (unsigned bits = 0; bits <= CS_BN_MAX_BITS + 2; bits++)
        for (int op = 0; op < CS_DOP_COUNT; op++) {
            const cs_bn_kernel *want, *got = NULL;
            int decided = ref_decide(fam, op, bits, &want), got_decided = 1;
            if (op == CS_DOP_MOD_EXP || op == CS_DOP_MOD_EXP_CT)
                got = cs_dispatch_bn(fam, op == CS_DOP_MOD_EXP_CT, bits);
            else if (op == CS_DOP_MOD_EXP2)
                got = cs_dispatch_bn2(fam, bits);
            else
                got_decided = cs_dispatch_bn_x2(fam, bits, &got);
            if (op != CS_DOP_MOD_EXP_CT_X2)
                got_decided = decided; /* only x2 reports "decided" */
            if (got == want && got_decided == decided)
                continue;
            if (!bad++)
                snprintf(first, cap, "family %s: %s at %u bits: table %s%s, scan %s%s",
                         cs_family_name(fam), op_names[op], bits,
                         got ? got->name : "libcrypto", got_decided ? "" : " (undecided)",
                         want ? want->name : "libcrypto", decided ? "" : " (undecided)");
        }
    for (int family = CS_IMPL_BN + 1; family < CS_IMPL_FAMILIES; family++)
        for (unsigned s = 0; s < CS_IMPL_SETS && cs_impl_sets[family][s]; s++) {
            unsigned set = cs_impl_sets[family][s];
            const void *got = cs_dispatch_impl(family, (int)set), *want = ref_impl(family, set);
            if (got != want && !bad++)
                snprintf(first, cap, "%s %u: table %s, scan %s", cs_impl_family_name(family), set,
                         got ? cs_impl_name(got) : "libcrypto",
                         want ? cs_impl_name(want) : "libcrypto");
        }
    /* The accessors never leave the provider without an implementation. */
    for (int ps = 44; ps <= 87; ps++) {
        unsigned set = ps == 65 || ps == 87 ? (unsigned)ps : 44; /* others share 44's */
        const cs_mldsa_impl *want = ref_impl(CS_IMPL_MLDSA, set);
        if (cs_dispatch_mldsa(ps) != (want ? want : &cs_mldsa_portable) && !bad++)
            snprintf(first, cap, "ML-DSA %d: table %s", ps, cs_mldsa_impl_name(cs_dispatch_mldsa(ps)));
    }
    const cs_keccak_impl *kw = ref_impl(CS_IMPL_KECCAK, 1600);
    if (cs_dispatch_keccak() != (kw ? kw : &cs_keccak_portable) && !bad++)
        snprintf(first, cap, "Keccak: table %s", cs_dispatch_keccak()->name);
    return bad;
}

/* Sets or clears one environment variable (NULL: unset). */
static void env(const char *name, const char *value)
{
    value ? setenv(name, value, 1) : unsetenv(name);
}

/* Reloads controls and policy as the constructor does, then compares. */
static void check(const char *policy, const char *cpu, const char *kernels, const char *disable)
{
    char first[200] = "";
    env("CRYPTOSHIM_POLICY", policy);
    env("CRYPTOSHIM_CPU", cpu);
    env("CRYPTOSHIM_KERNELS", kernels);
    env("CRYPTOSHIM_DISABLE", disable);
    cs_controls_load();
    cs_dispatch_init_with("/nonexistent/cryptoshim/policy");
    unsigned bad = mismatches(first, sizeof first);
    tap_ok(bad == 0, "policy %s, CPU %s, kernels %s%s: table = scan for every op and size%s%s",
           policy ? (strcmp(policy, "builtin") ? "file" : "builtin") : "built-in",
           cpu ? cpu : "as detected", kernels ? kernels : "(not forced)",
           disable ? ", disabled" : "", bad ? "; first: " : "", first);
}

/* A policy file exercising odd bounds, overlaps, kernel bounds, missing
 * entries and conditions (this build's kernels only). */
static const char sample[] =
#if defined(__x86_64__)
    "mod_exp_consttime_x2 300 831 x86_64-avx2\n"
    "mod_exp_consttime_x2 700 1025 x86_64-ifma\n"
    "mod_exp_consttime_x2 1026 3000 libcrypto\n"
    "mod_exp_consttime_x2 2000 9000 x86_64-adx\n"
    "mod_exp 0 511 x86_64-mulx\n"
    "mod_exp 300 1000000 x86_64-ifma !avx512ifma\n"
    "mod_exp 831 1025 x86_64-ifma\n"
    "mod_exp 1000 5000 x86_64-fma !adx,!bmi2\n"
    "mod_exp 900 1500 x86_64-adx +adx,!avx512ifma @3.2+\n"
    "mod_exp 900 2000 libcrypto +avx2 @1.1,3.0\n"
    "mod_exp 1024 7000 x86_64-avx2\n"
    "mod_exp 4097 8192 x86_64-adx\n"
    "mod_exp_consttime 257 257 portable\n"
    "mod_exp_consttime 256 8191 x86_64-ifma\n"
    "mod_exp_consttime 8191 8192 x86_64-mulx\n"
    "mod_exp2 0 1000000 x86_64-mulx\n"
    "mod_exp2 831 4096 x86_64-ifma\n"
    "mod_exp2 100 200 portable\n"
    "mldsa 0 100 avx512\n"
    "mldsa 60 90 avx2 !fma\n"
    "mlkem 700 800 avx2\n"
    "keccak 1600 1600 avx2 +avx512vl\n"
#endif
    "mldsa 44 44 portable @1.1\n"
    "mldsa 87 87 libcrypto\n"
    "mldsa 0 100 portable\n"
    "mlkem 1024 1024 portable\n"
    "mlkem 0 2000 libcrypto\n"
    "keccak 1600 1600 portable @3.2+\n"
    "mod_exp_consttime 0 1023 libcrypto\n"
    "mod_exp_consttime 512 2048 portable @3.0\n"
    "mod_exp_consttime 1000 1025 portable\n"
    "mod_exp 257 8191 portable\n"
    "mod_exp2 1025 1025 portable\n";

static volatile unsigned long sink;

/* rounds x 5 calls of each dispatch function at `bits` (for callgrind). */
__attribute__((noinline)) static void calls_loop(unsigned rounds, unsigned bits)
{
    for (unsigned r = 0; r < rounds; r++)
        for (unsigned i = 0; i < 5; i++) {
            const cs_bn_kernel *k = NULL;
            sink += (unsigned long)cs_dispatch_bn(CS_FAMILY_30, 0, bits);
            sink += (unsigned long)cs_dispatch_bn(CS_FAMILY_30, 1, bits);
            sink += (unsigned long)cs_dispatch_bn_x2(CS_FAMILY_30, bits, &k) + (unsigned long)k;
            sink += (unsigned long)cs_dispatch_bn2(CS_FAMILY_30, bits);
            sink += (unsigned long)cs_dispatch_mldsa(65);
        }
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--calls")) {
        cs_controls_load();
        cs_dispatch_init();
        calls_loop((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
        return 0;
    }
    /* Before any init (no constructor in this program): all to libcrypto. */
    const cs_bn_kernel *k = &cs_bn_portable;
    tap_ok(!cs_dispatch_bn(CS_FAMILY_30, 1, 2048) && !cs_dispatch_bn2(CS_FAMILY_32, 2048) &&
               !cs_dispatch_bn_x2(CS_FAMILY_11, 2048, &k) &&
               !k && cs_dispatch_mldsa(65) == &cs_mldsa_portable,
           "before the first build: every call passes through, ML-DSA portable");

    unsigned nkernels = 0;
    while (cs_bn_kernels[nkernels])
        nkernels++;
    tap_ok(nkernels <= CS_DISPATCH_MAX_KERNELS, "the table has a code for each of the %u kernels",
           nkernels);
    cs_policy_rule rules[64];
    char err[128] = "";
    int n = cs_policy_parse_text(cs_policy_builtin_text, strlen(cs_policy_builtin_text), rules, 64,
                                 NULL, err, sizeof err);
    tap_ok(n > 0, "the built-in policy text parses with the file parser (%d rules%s%s)", n,
           err[0] ? ": " : "", err);
    check(NULL, NULL, NULL, NULL);
    unsigned count;
    cs_dispatch_rules(&count);
    tap_ok(n > 0 && count == (unsigned)n && !cs_dispatch_policy_from_file() &&
               !cs_dispatch_policy_status()->note[0],
           "the built-in policy is in force, whole, with no note");

    static const char *const cpus[] = {"-adx",   "-avx512ifma", "-adx,-avx512ifma", "-avx2",
                                       "-bmi2",  "-fma",        "-avx512f",         "-adx,-avx512f"};
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        check(NULL, cpus[i], NULL, NULL);
    static const char *const forced[] = {
        "portable", "x86_64-ifma,portable", "x86_64-fma,x86_64-avx2,portable",
        "x86_64-adx,x86_64-mulx", "avx2,x86_64-ifma", "nosuch", "x86_64-avx2,x86_64-ifma",
        "x86_64-fma512,portable", "mldsa:portable", "bn:x86_64-adx,mldsa:avx2",
        "mlkem:portable,avx2", "keccak:avx512,keccak:portable", "avx512", "mlkem:nosuch",
        "bn:portable,mlkem:avx512,mlkem:avx2", "c25519:portable,x86_64-mulx"};
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++)
        check(NULL, NULL, forced[i], NULL);
    check(NULL, "-avx512ifma", "x86_64-ifma,x86_64-fma,portable", NULL);
    check(NULL, NULL, NULL, "1");
    check(NULL, NULL, "portable", "1");

    char path[] = "/tmp/cs-policy-table-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, sample, sizeof sample - 1) != (ssize_t)(sizeof sample - 1))
        return tap_ok(0, "write the sample policy"), tap_done();
    close(fd);
    check(path, NULL, NULL, NULL);
    tap_ok(cs_dispatch_policy_from_file(), "the sample policy file is in force");
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        check(path, cpus[i], NULL, NULL);
    check(path, NULL, "x86_64-ifma,portable", NULL);
    check("builtin", NULL, NULL, NULL);

    /* Controls re-read without a policy reload: the table follows them. */
    check(path, NULL, NULL, NULL);
    env("CRYPTOSHIM_KERNELS", "portable");
    cs_controls_load();
    cs_dispatch_refresh();
    char first[200] = "";
    unsigned bad = mismatches(first, sizeof first);
    tap_ok(bad == 0 && cs_dispatch_bn(CS_FAMILY_30, 1, 2048) == &cs_bn_portable &&
               cs_dispatch_policy_from_file(),
           "CRYPTOSHIM_KERNELS re-read alone: the table is rebuilt from the same rules%s%s",
           bad ? "; first: " : "", first);
    env("CRYPTOSHIM_KERNELS", NULL);
    cs_controls_load();
    cs_dispatch_refresh();
    bad = mismatches(first, sizeof first);
    tap_ok(bad == 0, "and back to the policy file's decisions%s%s", bad ? "; first: " : "", first);
    unlink(path);
    return tap_done();
}
