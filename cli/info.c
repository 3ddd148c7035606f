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

static void print_kernels(void)
{
    printf("\nbig-number kernels:\n");
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++)
        printf("  %-14s %4u..%-5u bits  %s\n", (*k)->name, (*k)->min_bits, (*k)->max_bits,
               cs_bn_kernel_usable(*k) ? "usable" : "not usable here");
    printf("\nML-DSA implementations:\n");
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i; i++)
        printf("  %-14s %s\n", cs_mldsa_impl_name(*i),
               (cs_mldsa_impl_cpu_features(*i) & ~cs_cpu_features()) ? "not usable here"
                                                                      : "usable");
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

/* X25519 and Ed25519: the provider's curve implementation (OpenSSL 3.0 and
 * 3.5+; 1.1.1 has no providers and 3.1-3.4 are not served: their own
 * curves serve), or libcrypto's where none is offered. */
static void print_curves(void)
{
    static const char *const names[] = {"X25519", "Ed25519"};
    const cs_c25519_impl *impl = cs_dispatch_c25519();
    for (int alg = 0; alg < 2; alg++) {
        if (cs_disabled()) {
            printf("  %-20s libcrypto (CRYPTOSHIM_DISABLE=1: not served)\n", names[alg]);
            continue;
        }
        int serves = cs_dispatch_c25519_serves(alg ? CS_C25519_ED25519 : CS_C25519_X25519);
        printf("  %-20s %s (with OpenSSL 3.0 or 3.5 and later; 1.1.1, 3.1-3.4: libcrypto's own)%s\n",
               names[alg], impl && (alg == 0 || impl->ed25519_sign) ? impl->name : "none",
               serves ? "" : ": not offered, libcrypto's own serves");
    }
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
    /* Under CRYPTOSHIM_DISABLE=1 the provider is never installed: the
     * kernel the dispatcher would pick serves nothing. */
    static const int sets[] = {44, 65, 87};
    for (size_t i = 0; i < 3; i++) {
        const cs_mldsa_impl *impl = cs_disabled() ? NULL : cs_dispatch_mldsa(sets[i]);
        if (cs_disabled())
            printf("  ML-DSA-%d            libcrypto (CRYPTOSHIM_DISABLE=1: not served)\n",
                   sets[i]);
        else
            printf("  ML-DSA-%d            %s (with OpenSSL 3.5 or later)\n", sets[i],
                   impl ? cs_mldsa_impl_name(impl) : "none");
    }
    /* ML-KEM: offered by the provider only where measured faster than
     * libcrypto's own (runtime/dispatch_mlkem.h). */
    static const int kem_sets[] = {512, 768, 1024};
    for (size_t i = 0; i < 3; i++) {
        if (cs_disabled())
            printf("  ML-KEM-%-4d          libcrypto (CRYPTOSHIM_DISABLE=1: not served)\n",
                   kem_sets[i]);
        else
            printf("  ML-KEM-%-4d          %s (with OpenSSL 3.5 or later)%s\n", kem_sets[i],
                   cs_dispatch_mlkem(kem_sets[i])->name,
                   cs_dispatch_mlkem_serves() ? "" : ": not offered, libcrypto's own serves");
    }
    print_curves();
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
    const char *route = getenv("CRYPTOSHIM_ROUTE");
    cs_route_set_forced_method(route && !strcmp(route, "method"));
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
