/* `cryptoshim info`: what the shim sees here and what it would do. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_features.h"
#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "runtime/dispatch_c25519.h"
#include "runtime/dispatch_mlkem.h"
#include "runtime/registry.h"
#include "runtime/stats.h"
#include "runtime/route.h"
#include "bn_util.h"
#include "cli.h"


static void print_features(const char *label, uint32_t f)
{
    printf("%-18s", label);
    int any = 0;
    for (uint32_t bit = 1; bit; bit <<= 1) {
        const char *name = (f & bit) ? cs_cpu_feature_name(bit) : NULL;
        if (name) {
            printf(" %s", name);
            any = 1;
        }
    }
    printf("%s\n", any ? "" : " (none)");
}

/* Every family's implementations (runtime/registry.h), in list order, and
 * whether each may run here (CPU features, CRYPTOSHIM_KERNELS). */
static void print_kernels(void)
{
    for (int f = 0; f < CS_IMPL_FAMILIES; f++) {
        const void *impl = cs_impl_at(f, 0);
        printf("\n%s (%s:NAME in CRYPTOSHIM_KERNELS):\n", cs_impl_family_title(f),
               cs_impl_family_name(f));
        if (!impl)
            printf("  (none in this build)\n");
        for (unsigned i = 0; (impl = cs_impl_at(f, i)); i++) {
            const char *use = cs_impl_usable(f, impl) ? "usable" : "not usable here";
            if (f == CS_IMPL_BN) {
                const cs_bn_kernel *k = impl;
                printf("  %-14s %4u..%-5u bits  %s\n", k->name, k->min_bits, k->max_bits, use);
            } else {
                printf("  %-14s %s\n", cs_impl_name(impl), use);
            }
        }
    }
}

/* One dispatch line of a family other than the big numbers: its choice
 * for parameter set `set` (alg: the curve algorithm, whose table may lack
 * Ed25519), or libcrypto's own; nothing is served under
 * CRYPTOSHIM_DISABLE=1 (the provider is never installed). */
static void print_impl_choice(const char *label, int family, int set, const char *where)
{
    const void *impl = cs_dispatch_impl(family, set);
    if (family == CS_IMPL_C25519 && !strcmp(label, "Ed25519") &&
        !cs_dispatch_c25519_serves(CS_C25519_ED25519))
        impl = NULL;
    if (cs_disabled())
        printf("  %-20s libcrypto (CRYPTOSHIM_DISABLE=1: not served)\n", label);
    else if (family == CS_IMPL_KECCAK) /* no libcrypto path: portable when none chosen */
        printf("  %-20s %s (%s)\n", label, impl ? cs_impl_name(impl) : "portable", where);
    else
        printf("  %-20s %s (%s)%s\n", label, impl ? cs_impl_name(impl) : "libcrypto", where,
               impl                    ? ""
               : cs_impl_at(family, 0) ? ": not offered, libcrypto's own serves"
                                       : ": no implementation in this build");
}

/* One family's rows of the decision table, indented by `ind` spaces. */
static void print_family_dispatch(int fam, int ind)
{
    static const unsigned sizes[] = {512, 1024, 1536, 2048, 3072, 4096, 6144, 8192};
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX), here = 0;
    printf("%*slibcrypto family %s (", ind, "", cs_family_name(fam));
    for (int i = 0; i < n; i++)
        if (lc[i].family == fam)
            printf("%s%s", here++ ? ", " : "this process: ", lc[i].path);
    printf("%s):\n", here ? "" : "none in this process");
    printf("%*s%-20s", ind, "", "modulus bits");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        printf(" %10u", sizes[i]);
    printf("\n");
    for (int ct = 0; ct < 2; ct++) {
        printf("%*s%-20s", ind, "", ct ? CS_OP_MOD_EXP_CT : CS_OP_MOD_EXP);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            const cs_bn_kernel *k = cs_dispatch_bn(fam, ct, sizes[i]);
            printf(" %10s", k ? k->name : "libcrypto");
        }
        printf("\n");
    }
    /* Pairs (RSA CRT halves): a kernel's paired entry, libcrypto's pair, or
     * "2 calls" when no x2 rule decides and each half goes by the row above. */
    printf("%*s%-20s", ind, "", CS_OP_MOD_EXP_CT_X2);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cs_bn_kernel *k = NULL;
        int decided = cs_dispatch_bn_x2(fam, sizes[i], &k);
        if (!decided)
            k = cs_dispatch_bn(fam, 1, sizes[i]); /* NULL: libcrypto's pair */
        printf(" %10s", k ? (decided ? k->name : "2 calls") : "libcrypto");
    }
    printf("\n");
    /* a1^p1 * a2^p2 with public exponents (DSA verification). */
    printf("%*s%-20s", ind, "", CS_OP_MOD_EXP2);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cs_bn_kernel *k = cs_dispatch_bn2(fam, sizes[i]);
        printf(" %10s", k ? k->name : "libcrypto");
    }
    printf("\n");
}

/* The decision table, per libcrypto family (runtime/family.h): a preloaded
 * shim serves each libcrypto of a process by its family's rows. This
 * process's own family first, then the others (as a service on another
 * OpenSSL would be served). */
static void print_dispatch(void)
{
    cs_ossl *api = cli_ossl();
    int own = api ? api->family : CS_FAMILY_NEWEST;
    printf("\ndispatch (%s policy):\n", cs_dispatch_policy_from_file() ? "file" : "built-in");
    print_family_dispatch(own, 2);
    printf("dispatch for the other libcrypto families:\n");
    for (int f = CS_FAMILY_COUNT; f-- > 0;)
        if (f != own)
            print_family_dispatch(f, 4);
    /* The other families, by the same policy (runtime/policy.h): the
     * provider offers an algorithm only where an implementation was
     * chosen. */
    static const char *const opensslv = "with OpenSSL 3.5 or later";
    char label[24];
    for (unsigned s = 0; s < CS_IMPL_SETS && cs_impl_sets[CS_IMPL_MLDSA][s]; s++) {
        snprintf(label, sizeof label, "ML-DSA-%u", cs_impl_sets[CS_IMPL_MLDSA][s]);
        print_impl_choice(label, CS_IMPL_MLDSA, (int)cs_impl_sets[CS_IMPL_MLDSA][s], opensslv);
    }
    for (unsigned s = 0; s < CS_IMPL_SETS && cs_impl_sets[CS_IMPL_MLKEM][s]; s++) {
        snprintf(label, sizeof label, "ML-KEM-%u", cs_impl_sets[CS_IMPL_MLKEM][s]);
        print_impl_choice(label, CS_IMPL_MLKEM, (int)cs_impl_sets[CS_IMPL_MLKEM][s], opensslv);
    }
    /* X25519 and Ed25519 (OpenSSL 3.0 and 3.5+; 1.1.1 has no providers and
     * 3.1-3.4 are not served: their own curves serve). */
    static const char *const curvesv =
        "with OpenSSL 3.0 or 3.5 and later; 1.1.1, 3.1-3.4: libcrypto's own";
    print_impl_choice("X25519", CS_IMPL_C25519, 25519, curvesv);
    print_impl_choice("Ed25519", CS_IMPL_C25519, 25519, curvesv);
    print_impl_choice("Keccak", CS_IMPL_KECCAK, 1600, "streamed mu, H(pk), H(ek)");
}

/* OpenSSL_version(OPENSSL_VERSION) of the loaded object at path, or NULL. */
static const char *version_of(const char *path)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    const char *(*ver)(int) = NULL;
    if (h) {
        *(void **)&ver = dlsym(h, "OpenSSL_version");
        dlclose(h); /* still loaded: the process holds it */
    }
    return ver ? ver(0 /* OPENSSL_VERSION */) : NULL;
}

/* Each libcrypto in this process (the CLI's own, and any given with
 * --lib), the route the preloaded shim would take in a process holding it,
 * and what is not reachable and why. */
static void print_routes(void)
{
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX);
    printf("\nlibcryptos in this process (a preloaded shim decides the same per library):\n");
    for (int i = 0; i < n; i++) {
        const cs_libcrypto *c = &lc[i];
        const char *v = version_of(c->path);
        printf("  %s\n    version          %s (BN_mod_exp_mont at %s, newest node %s%s; "
               "family %s)\n",
               c->path, v ? v : "unknown", c->abi, c->newest,
               c->symbolic ? ", DT_SYMBOLIC" : "", cs_family_name(c->family));
        printf("    modexp route     %s: %s (%d relocation%s naming BN_mod_exp_mont*, %d "
               "reaching the shim)\n",
               cs_route_kind_name(c->modexp), c->why, c->modexp_relocs,
               c->modexp_relocs == 1 ? "" : "s", c->reachable_relocs);
        if (cs_disabled())
            printf("                     every call passed to libcrypto "
                   "(CRYPTOSHIM_DISABLE=1)\n");
        else if (c->modexp == CS_ROUTE_METHOD)
            printf("                     RSA/DH/DSA default methods installed at the "
                   "application's first\n                     init, config, SSL_CTX_new, "
                   "key reader or key constructor call;\n                     not where the "
                   "application set its own method, nor for keys made before\n");
        if (cs_disabled())
            printf("    ML-DSA route     none: CRYPTOSHIM_DISABLE=1 (the provider is not "
                   "installed)\n");
        else if (c->mldsa)
            printf("    ML-DSA route     provider, installed at the application's first "
                   "EVP_PKEY_CTX_new*\n                     (calls it makes through "
                   "dlsym on its own handle do not reach the shim)\n");
        else
            printf("    ML-DSA route     none: no OPENSSL_3.5.0 node (ML-DSA needs 3.5 or "
                   "later)\n");
    }
    if (!n)
        printf("  none (the shim stays dormant in such a process)\n");
}

/* The route notes preloaded processes wrote to the stats file at path
 * (what they saw, as opposed to this process). */
static void print_recorded_routes(const char *path)
{
    cs_stats_segment *seg = malloc(sizeof *seg);
    char err[200];
    if (!seg)
        return;
    printf("\nroutes recorded in %s by preloaded processes:\n", path);
    if (cs_stats_read(path, seg, err, sizeof err)) {
        printf("  none readable (%s)\n", err);
    } else {
        int any = 0;
        for (int i = 0; i < CS_STATS_NOTES; i++) {
            const cs_stats_note_slot *n = &seg->note[i];
            if (!n->ready || strncmp(n->name, "route", 5))
                continue;
            printf("  %.*s: %.*s\n", CS_STATS_NOTE_KEY, n->name, CS_STATS_NOTE_VALUE, n->value);
            any = 1;
        }
        if (!any)
            printf("  none yet\n");
    }
    free(seg);
}

int cli_info(int argc, char **argv)
{
    /* --lib PATH: load another libcrypto privately to show its route. */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--lib") && !dlopen(argv[++i], RTLD_NOW | RTLD_LOCAL)) {
            fprintf(stderr, "cryptoshim info: %s\n", dlerror());
            return 1;
        }
    cs_route_set_forced_method(cs_controls_route_method());
    const char *lib = cli_library_path();
    printf("library            %s\n", lib ? lib : "(not found)");
    printf("libcrypto          %s\n", OpenSSL_version(OPENSSL_VERSION));
    print_features("cpu detected", cs_cpu_detected());
    print_features("cpu used", cs_cpu_features());
    if (cs_disabled())
        printf("served             nothing: CRYPTOSHIM_DISABLE=1 passes every call to "
               "libcrypto\n");
    printf("controls           %s%s%s%s\n", cs_disabled() ? "CRYPTOSHIM_DISABLE " : "",
           cs_kernels_forced() ? "CRYPTOSHIM_KERNELS " : "",
           cs_policy_path() ? "CRYPTOSHIM_POLICY " : "",
           cs_route_forced_method() ? "CRYPTOSHIM_ROUTE=method" : "");
    cli_info_policy(); /* policy and ignored controls: cli/info_policy.c */
    print_routes();
    /* --stats FILE, or CRYPTOSHIM_STATS: what preloaded processes saw. */
    const char *recorded = getenv("CRYPTOSHIM_STATS");
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--stats"))
            recorded = argv[++i];
    if (recorded && *recorded)
        print_recorded_routes(recorded);
    print_kernels();
    print_dispatch();
    return 0;
}
