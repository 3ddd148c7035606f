/* RSA-2048/3072/4096 sign and verify, DH key agreement and DSA sign and
 * verify in a thread with a 32 KB stack, with the shim preloaded and every
 * kernel usable here forced in turn (CRYPTOSHIM_KERNELS), then the built-in
 * policy, and first without the shim (issue 14: one exponentiation needed
 * about 54 KB of stack). Each run is this program re-executed with the
 * settings in its environment; the stats file shows the forced kernel did
 * serve calls. Keys: Wycheproof's RSA keys and DSA group (tests/vectors).
 * Then, in this process, the stack depth of the shim's own entries (as the
 * interposed functions call them) is measured by painting: at most
 * SHIM_STACK with a kernel forced (docs/stack.md records the figures). */
#define _GNU_SOURCE
#include <dlfcn.h>
#define OPENSSL_SUPPRESS_DEPRECATED
#include <limits.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/dh.h>
#include <openssl/dsa.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/bn/bn_kernel.h"
#include "runtime/cpu.h"
#include "bn/modexp.h"
#include "runtime/stats.h"
#include "support/diff_common.h"
#include "support/stack_paint.h"
#include "support/stats_file.h"
#include "support/tap.h"
#include "support/vectors.h"

#define THREAD_STACK (32 * 1024)
#define SHIM_STACK (16 * 1024)

/* The first test group of wycheproof/NAME, in w (closed by the caller);
 * NULL when the file is missing or malformed. */
static const json *first_group(vec_wyc *w, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "wycheproof/%s", name);
    return vec_wyc_open(w, path) ? NULL : vec_wyc_group(w);
}

static RSA *rsa[3];
static BIGNUM *p, *q, *g;

/* Loads the keys and the group in the main thread; 0 when missing. */
static int load_keys(void)
{
    static const char *const files[] = {"rsa_pkcs1_2048_sig_gen_test.json",
                                        "rsa_pkcs1_3072_sig_gen_test.json",
                                        "rsa_pkcs1_4096_sig_gen_test.json"};
    for (int i = 0; i < 3; i++) {
        vec_wyc w;
        const json *grp = first_group(&w, files[i]);
        const char *pem = json_get_str(grp, "privateKeyPem");
        BIO *b = pem ? BIO_new_mem_buf(pem, -1) : NULL;
        rsa[i] = b ? PEM_read_bio_RSAPrivateKey(b, NULL, NULL, NULL) : NULL;
        BIO_free(b);
        vec_wyc_close(&w);
        if (!rsa[i])
            return 0;
    }
    vec_wyc w;
    const json *key = json_get(first_group(&w, "dsa_2048_256_sha256_test.json"), "publicKey");
    const char *hp = json_get_str(key, "p"), *hq = json_get_str(key, "q"),
               *hg = json_get_str(key, "g");
    int ok = hp && hq && hg && BN_hex2bn(&p, hp) && BN_hex2bn(&q, hq) && BN_hex2bn(&g, hg);
    vec_wyc_close(&w);
    return ok;
}

/* The work of one run; in the small thread. Returns "" or what failed. */
static void *work(void *arg)
{
    (void)arg;
    unsigned char dgst[32], sig[1024];
    unsigned int siglen;
    memset(dgst, 0x5c, sizeof dgst);
    for (int i = 0; i < 3; i++) {
        if (!RSA_sign(NID_sha256, dgst, sizeof dgst, sig, &siglen, rsa[i]))
            return "RSA sign";
        if (RSA_verify(NID_sha256, dgst, sizeof dgst, sig, siglen, rsa[i]) != 1)
            return "RSA verify";
    }
    DH *d1 = DH_new(), *d2 = DH_new();
    DH_set0_pqg(d1, BN_dup(p), BN_dup(q), BN_dup(g));
    DH_set0_pqg(d2, BN_dup(p), BN_dup(q), BN_dup(g));
    unsigned char s1[256], s2[256];
    int n1 = -1, n2 = -2;
    if (DH_generate_key(d1) && DH_generate_key(d2)) {
        const BIGNUM *pub1, *pub2;
        DH_get0_key(d1, &pub1, NULL);
        DH_get0_key(d2, &pub2, NULL);
        n1 = DH_compute_key(s1, pub2, d1);
        n2 = DH_compute_key(s2, pub1, d2);
    }
    DH_free(d1), DH_free(d2);
    if (n1 <= 0 || n1 != n2 || memcmp(s1, s2, (size_t)n1))
        return "DH key agreement";
    DSA *dsa = DSA_new();
    DSA_set0_pqg(dsa, BN_dup(p), BN_dup(q), BN_dup(g));
    int ok = DSA_generate_key(dsa) && DSA_sign(0, dgst, sizeof dgst, sig, &siglen, dsa) &&
             DSA_verify(0, dgst, sizeof dgst, sig, (int)siglen, dsa) == 1;
    DSA_free(dsa);
    return ok ? "" : "DSA sign and verify";
}

/* Child: the work in a THREAD_STACK thread, twice (cold and warm caches). */
static int child(void)
{
    if (!load_keys()) {
        fprintf(stderr, "keys or vectors missing\n");
        return 2;
    }
    for (int round = 0; round < 2; round++) {
        pthread_attr_t attr;
        pthread_t t;
        void *res = NULL;
        pthread_attr_init(&attr);
        if (pthread_attr_setstacksize(&attr, THREAD_STACK) ||
            pthread_create(&t, &attr, work, NULL) || pthread_join(t, &res))
            return 3;
        if (*(const char *)res) {
            fprintf(stderr, "%s failed\n", (const char *)res);
            ERR_print_errors_fp(stderr);
            return 1;
        }
    }
    return 0;
}

/* Calls the stats named by path count for kernel (all counters). */
static unsigned long long served_by(const char *path, const char *kernel)
{
    static cs_stats_segment seg;
    char err[128];
    unsigned long long n = 0;
    if (cs_stats_read(path, &seg, err, sizeof err) == 0) {
        for (unsigned i = 0; i < CS_STATS_SLOTS; i++)
            if (!strncmp(seg.slot[i].kernel, kernel, CS_STATS_NAME))
                n += seg.slot[i].calls;
        for (unsigned i = 0; i < CS_STATS_OVERFLOW; i++)
            if (!strncmp(seg.overflow[i].kernel, kernel, CS_STATS_NAME))
                n += seg.overflow[i].calls;
    }
    return n;
}


/* Runs the child with the shim preloaded (lib; NULL: not) and kernel forced
 * (NULL: the built-in policy); reports one TAP line. */
static void run(const char *self, const char *lib, const char *kernel, const char *dir)
{
    char stats[PATH_MAX];
    snprintf(stats, sizeof stats, "%s/stats-%s", dir, kernel ? kernel : "default");
    unlink(stats);
    pid_t pid = fork();
    if (pid == 0) {
        if (lib)
            setenv("LD_PRELOAD", lib, 1);
        if (kernel)
            setenv("CRYPTOSHIM_KERNELS", kernel, 1);
        setenv("CRYPTOSHIM_STATS", stats, 1);
        execl(self, self, "--child", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    unsigned long long n = kernel ? served_by(stats, kernel) : 0;
    if (!WIFEXITED(status))
        tap_diag("killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (!lib)
        tap_ok(ok, "without the shim: RSA, DH, DSA in a %d KB thread", THREAD_STACK / 1024);
    else if (kernel)
        tap_ok(ok && n > 0, "shim, %s forced: RSA, DH, DSA in a %d KB thread (%llu calls served)",
               kernel, THREAD_STACK / 1024, n);
    else
        tap_ok(ok, "shim, built-in policy: RSA, DH, DSA in a %d KB thread", THREAD_STACK / 1024);
    remove_stats(stats);
}


/* Reading what another frame left is the point here. */
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

/* Bytes below the caller's frame changed since paint (from the top). */
__attribute__((noinline)) static size_t changed_depth(void)
{
    volatile unsigned char area[STACK_AREA];
    size_t i = 0;
    while (i < STACK_AREA && area[i] == STACK_PAINT)
        i++;
    return STACK_AREA - i;
}

static cs_ossl api = {.version = "OPENSSL_3.0.0"};
static BN_CTX *bctx;
static BIGNUM *x[6], *res[2];
static BN_MONT_CTX *xmont;

/* One shim entry on x[] between paint and the depth reading: 0 consttime,
 * 1 public exponent, 2 x2 (with the caller's Montgomery contexts), 3 exp2. */
__attribute__((noinline)) static size_t entry_depth(int which)
{
    stack_paint();
    switch (which) {
    case 0: cs_modexp_entry(&api, 1, res[0], x[0], x[1], x[2], bctx, xmont); break;
    case 1: cs_modexp_entry(&api, 0, res[0], x[0], x[1], x[2], bctx, NULL); break;
    case 2:
        cs_modexp_x2_entry(&api, res[0], x[0], x[1], x[2], xmont, res[1], x[3], x[1], x[2], xmont,
                           bctx);
        break;
    default: cs_modexp2_entry(&api, res[0], x[0], x[4], x[3], x[5], x[2], bctx, NULL); break;
    }
    return changed_depth();
}

/* Deepest stack of the shim's entries under the current kernel setting, at
 * 1024..8192 bits. */
static size_t shim_depth(void)
{
    static const int sizes[] = {1024, 2048, 3072, 4096, 8192};
    size_t worst = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        rand_bits(x[2], sizes[i], 1);
        rand_below_bn(x[0], x[2], bctx);
        rand_below_bn(x[3], x[2], bctx);
        rand_bits(x[1], sizes[i], 0);
        BN_set_flags(x[1], BN_FLG_CONSTTIME);
        rand_bits(x[4], 256, 0);
        rand_bits(x[5], 256, 0);
        BN_MONT_CTX_free(xmont);
        xmont = BN_MONT_CTX_new();
        BN_MONT_CTX_set(xmont, x[2], bctx);
        for (int w = 0; w < 4; w++) {
            size_t d = entry_depth(w);
            worst = d > worst ? d : worst;
        }
    }
    return worst;
}

/* The shim's own stack depth, each usable kernel forced, then the policy. */
static void shim_depths(void)
{
    bctx = BN_CTX_new();
    for (int i = 0; i < 6; i++)
        x[i] = BN_new();
    res[0] = BN_new(), res[1] = BN_new();
    if (!cs_ossl_resolve_from(&api, RTLD_DEFAULT)) {
        tap_ok(0, "libcrypto functions resolved");
        return;
    }
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        if (!force_usable_kernel(*k))
            continue;
        size_t d = shim_depth();
        tap_ok(d <= SHIM_STACK, "%s forced: the shim's entries use %zu bytes of stack (at most %d)",
               (*k)->name, d, SHIM_STACK);
    }
    force_kernel(NULL);
    tap_diag("built-in policy (libcrypto's own stack included where it serves): %zu bytes",
             shim_depth());
    for (int i = 0; i < 6; i++)
        BN_free(x[i]);
    BN_free(res[0]), BN_free(res[1]);
    BN_MONT_CTX_free(xmont);
    BN_CTX_free(bctx);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--child"))
        return child();
    char self[PATH_MAX], lib[PATH_MAX + 32], dir[] = "/tmp/cs-stack32-XXXXXX";
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || !mkdtemp(dir)) {
        tap_ok(0, "own path and a temporary directory");
        return tap_done();
    }
    self[len] = 0;
    const char *build = getenv("CS_BUILD");
    if (build)
        snprintf(lib, sizeof lib, "%s/libcryptoshim.so", build);
    else
        snprintf(lib, sizeof lib, "%.*s/../libcryptoshim.so",
                 (int)(strrchr(self, '/') - self), self);
    if (access(lib, R_OK)) {
        tap_ok(0, "%s present", lib);
        return tap_done();
    }
    run(self, NULL, NULL, dir);
    uint32_t have = cs_cpu_probe();
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        if (((*k)->cpu_features & have) != (*k)->cpu_features) {
            tap_skip("%s: this CPU lacks its features", (*k)->name);
            continue;
        }
        run(self, lib, (*k)->name, dir);
    }
    run(self, lib, NULL, dir);
    rmdir(dir);
    shim_depths();
    return tap_done();
}
