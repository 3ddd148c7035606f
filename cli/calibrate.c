/* `cryptoshim calibrate [-o FILE | --install [--prefix DIR]] [-t SECONDS]
 * [-b BITS,...]`: times every usable kernel and libcrypto's own function for
 * each operation and modulus size class on this machine, in interleaved
 * rounds, and writes a policy file (runtime/policy.h) choosing, per class,
 * the fastest kernel only where it beats libcrypto in every exponent case
 * measured; the times go in comments. The file states the CPU it was measured
 * on (`cpu`), when (`measured`) and ends with `end`. --install puts it,
 * root-owned and 0644, at /etc/cryptoshim/policy (under DIR with --prefix),
 * which the shim reads when CRYPTOSHIM_POLICY is unset. Progress goes to
 * stderr; nothing is written unless the whole run succeeds. Every rule
 * names the libcrypto family it was measured against (runtime/family.h);
 * --openssl DIR adds the rules measured against another tree's libcrypto. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "runtime/policy.h"
#include "bn_util.h"
#include "cli.h"
#include "runtime/timer.h"

#define MAX_CAND 8
#define MAX_OTHER 4 /* --openssl trees */

/* " @FAMILY": every rule written names the family of the libcrypto it was
 * measured against (runtime/family.h), so a policy holds rules for several
 * libcryptos side by side. */
static char fam_tag[16];
#define ROUNDS 7
/* A kernel must be this much faster than libcrypto to be chosen: below it
 * the difference is within what a shared machine's noise can fake. */
#define MARGIN 1.03
#define SLOW_AFTER_ONE 1.6

/* Size classes: a class covers moduli above the previous class up to its own
 * size, and is measured at its own size. */
static const unsigned classes[] = {1024, 1536, 2048, 3072, 4096, 8192};

/* One exponent case of an operation: its length (0 = the modulus' length). */
struct ecase {
    const char *label;
    int ebits;
    int e65537;
    int pair; /* BN_mod_exp_mont_consttime_x2 against 1: two kernel calls, 2: a
               * kernel's paired exponentiation (kernels without one sit out);
               * 3: BN_mod_exp2_mont against a kernel's exp2 entry */
};

#define NCASES 4
static const struct ecase public_cases[NCASES] = {{"e=65537", 17, 1, 0}, {"full", 0, 0, 0}};
/* RSA signing reaches the shim through libcrypto's paired call for the two
 * CRT halves (its own AVX-512 IFMA code at 1024 bits in 3.0). Without a
 * mod_exp_consttime_x2 rule the shim serves it by two calls under the
 * mod_exp_consttime rules, so a kernel must win the "pair" case to get those;
 * "pair-x2" times kernels' paired entries and decides the x2 rule, which a
 * paired entry gets only if it also beats those two calls. */
static const struct ecase secret_cases[NCASES] = {
    {"full", 0, 0, 0}, {"256-bit", 256, 0, 0}, {"pair", 0, 0, 1}, {"pair-x2", 0, 0, 2}};
#define PAIR_X2_CASE 3
/* DSA verification: a1^p1 * a2^p2 mod m, both exponents public and of the
 * given length (DSA's q: 160 to 256 bits), decides the mod_exp2 rules. */
#define EXP2_CASES 3
static const struct ecase exp2_cases[EXP2_CASES] = {
    {"160-bit", 160, 0, 3}, {"256-bit", 256, 0, 3}, {"full", 0, 0, 3}};

struct cand {
    const cs_bn_kernel *k; /* NULL: libcrypto */
    double t[ROUNDS];      /* seconds per operation in each round */
};

/* Second operand set for the paired cases (ct >= 2 below); for exp2 its
 * base is below the first set's modulus. */
static struct {
    BIGNUM *r, *a, *p, *m;
    BN_MONT_CTX *mont;
} x2;

/* CPU seconds per operation of one candidate over a batch of calls lasting
 * about `secs` (at least one call); 0 when the call failed. Kernels are
 * given the caller's BN_MONT_CTX as the interposed functions are (its check
 * costs two reductions per call, which short exponents feel). ct: 0 public,
 * 1 secret, 2 the paired secret call as two kernel calls, 3 through the
 * kernel's paired entry, 4 a simultaneous exponentiation (BN_mod_exp2_mont). */
static double batch(cs_ossl *api, const cs_bn_kernel *k, int ct, BIGNUM *r, BIGNUM *a,
                    BIGNUM *p, BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *mont, double secs)
{
    long n = 0;
    double t0 = cs_timer_thread_cpu(), t;
    do {
        int ok;
        if (ct == 4)
            ok = k ? cs_modexp2_with_mont(api, k, r, a, p, x2.a, x2.p, m, ctx, mont) == 1
                   : BN_mod_exp2_mont(r, a, p, x2.a, x2.p, m, ctx, mont);
        else if (ct == 3 && k)
            ok = cs_modexp_x2_with(api, k, r, a, p, m, x2.r, x2.a, x2.p, x2.m, ctx) == 1;
        else if (ct >= 2)
            ok = k ? cs_modexp_with_mont(api, k, 1, r, a, p, m, ctx, mont) == 1 &&
                         cs_modexp_with_mont(api, k, 1, x2.r, x2.a, x2.p, x2.m, ctx, x2.mont) == 1
                   : BN_mod_exp_mont_consttime_x2(r, a, p, m, mont, x2.r, x2.a, x2.p, x2.m,
                                                  x2.mont, ctx);
        else
            ok = k ? cs_modexp_with_mont(api, k, ct, r, a, p, m, ctx, mont) == 1
                   : (ct ? BN_mod_exp_mont_consttime(r, a, p, m, ctx, mont)
                         : BN_mod_exp_mont(r, a, p, m, ctx, mont));
        if (!ok)
            return 0;
        n++;
        t = cs_timer_thread_cpu();
    } while (t - t0 < secs);
    return (t - t0) / (double)n;
}

/* qsort order for doubles. */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median of a candidate's rounds (robust against a neighbour's burst). */
static double median(const struct cand *c)
{
    double s[ROUNDS];
    memcpy(s, c->t, sizeof s);
    qsort(s, ROUNDS, sizeof s[0], cmp_double);
    return s[ROUNDS / 2];
}

/* Measures all candidates for one (operation, size, exponent case) with
 * interleaved rounds; fills med[] (seconds, 0 = failed). */
static int measure(cs_ossl *api, struct cand *cands, int ncand, int ct, unsigned bits,
                   const struct ecase *ec, double budget, double *med)
{
    if (ec->pair)
        ct = 1 + ec->pair;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *r = BN_new(), *check = BN_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    int ok = ctx && m && a && p && r && check && mont &&
             cli_random_operands(m, a, p, (int)bits, ec->ebits ? ec->ebits : (int)bits) &&
             (!ec->e65537 || BN_set_word(p, 65537)) && BN_MONT_CTX_set(mont, m, ctx);
    if (ct >= 2) {
        x2.r = BN_new(), x2.a = BN_new(), x2.p = BN_new(), x2.m = BN_new();
        x2.mont = BN_MONT_CTX_new();
        ok = ok && x2.r && x2.a && x2.p && x2.m && x2.mont &&
             cli_random_operands(x2.m, x2.a, x2.p, (int)bits, (int)bits) &&
             BN_MONT_CTX_set(x2.mont, x2.m, ctx);
    }
    if (ct == 4) /* a second public exponent and a base below m */
        ok = ok && BN_rand_range(x2.a, m) &&
             BN_rand(x2.p, ec->ebits ? ec->ebits : (int)bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY);
    if (ok && ct && ct < 4)
        BN_set_flags(p, BN_FLG_CONSTTIME);
    /* Every candidate must give libcrypto's answer before it is timed. */
    BIGNUM *check2 = BN_new();
    ok = ok && check2 &&
         (ct == 4 ? BN_mod_exp2_mont(check, a, p, x2.a, x2.p, m, ctx, mont)
                  : BN_mod_exp_mont(check, a, p, m, ctx, mont) &&
                        (ct < 3 || BN_mod_exp_mont(check2, x2.a, x2.p, x2.m, ctx, x2.mont)));
    for (int i = 0; ok && i < ncand; i++) {
        med[i] = 0;
        const cs_bn_kernel *k = cands[i].k;
        if (k && ct == 4 &&
            (cs_modexp2_with(api, k, r, a, p, x2.a, x2.p, m, ctx) != 1 || BN_cmp(r, check) != 0))
            cands[i].k = NULL, med[i] = -1; /* no exp2 entry, or wrong: sits out */
        else if (k && ct == 3 &&
            (cs_modexp_x2_with(api, k, r, a, p, m, x2.r, x2.a, x2.p, x2.m, ctx) != 1 ||
             BN_cmp(r, check) != 0 || BN_cmp(x2.r, check2) != 0))
            cands[i].k = NULL, med[i] = -1; /* no paired entry, or wrong: sits out */
        else if (k && ct < 3 &&
                 (cs_modexp_with(api, k, ct > 1, r, a, p, m, ctx) != 1 || BN_cmp(r, check) != 0))
            cands[i].k = NULL, med[i] = -1; /* disqualified below */
    }
    BN_free(check2);
    double slice = budget / ROUNDS / ncand;
    /* A kernel over SLOW_AFTER_ONE times libcrypto's time in the first round
     * cannot win the median: it sits out the other rounds (its first time
     * stands for them). This bounds the run: at 8192 bits one call lasts
     * longer than a slice. */
    int slow[MAX_CAND] = {0};
    for (int round = 0; ok && round < ROUNDS; round++) {
        for (int j = 0; j < ncand; j++) {
            int i = (j + round) % ncand; /* rotate who goes first */
            if (med[i] < 0)
                continue;
            cands[i].t[round] = slow[i] ? cands[i].t[0]
                                        : batch(api, cands[i].k, ct, r, a, p, m, ctx, mont, slice);
        }
        for (int i = 1; round == 0 && i < ncand; i++)
            slow[i] = cands[0].t[0] > 0 && cands[i].t[0] > SLOW_AFTER_ONE * cands[0].t[0];
    }
    for (int i = 0; ok && i < ncand; i++)
        med[i] = med[i] < 0 ? 0 : median(&cands[i]);
    BN_free(m), BN_free(a), BN_free(p), BN_free(r), BN_free(check);
    BN_MONT_CTX_free(mont);
    if (ct >= 2) {
        BN_free(x2.r), BN_free(x2.a), BN_free(x2.p), BN_free(x2.m);
        BN_MONT_CTX_free(x2.mont);
        memset(&x2, 0, sizeof x2);
    }
    BN_CTX_free(ctx);
    return ok;
}

/* The CPU's model name from /proc/cpuinfo, for the file's header. */
static void cpu_model(char *out, size_t cap)
{
    snprintf(out, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && !strncmp(line, "model name", 10)) {
            snprintf(out, cap, "%s", colon + 2);
            out[strcspn(out, "\n")] = 0;
            break;
        }
    }
    fclose(f);
}

/* Prints the command line summary to stderr. */
static void usage(void)
{
    fprintf(stderr,
            "usage: cryptoshim calibrate [-o FILE | --install [--prefix DIR]] [-t SECONDS_PER_CASE]\n"
            "                            [-b BITS,...]\n"
            "  -o FILE    write the policy there (default: standard output)\n"
            "  --install  write it, root-owned 0644, to /etc/cryptoshim/policy (as root), where\n"
            "             the shim reads it when CRYPTOSHIM_POLICY is unset\n"
            "  --prefix DIR  with --install: to DIR/etc/cryptoshim/policy instead (packaging, tests)\n"
            "  -t         seconds of measurement per case, 0.001 to 60 (default 1; --install 0.6)\n"
            "  -b         measure only these size classes (of 1024 1536 2048 3072 4096 8192);\n"
            "             the others are written as libcrypto\n"
            "  --openssl DIR  also measure against the libcrypto of an OpenSSL tree (DIR/bin/run,\n"
            "             as `make openssl-versions` unpacks them), rules for its family added\n");
}

/* Whether size class `bits` is in the comma-separated list (NULL: all). */
static int class_wanted(const char *list, unsigned bits)
{
    if (!list)
        return 1;
    for (const char *p = list; *p;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            return 0;
        if (v == bits)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* Checks a -b list: decimal size classes separated by commas; NULL or the
 * offending item. */
static const char *bad_class_list(const char *list)
{
    static char item[32];
    const char *p = list;
    do {
        size_t len = strcspn(p, ",");
        int ok = len > 0 && len < 6 && strspn(p, "0123456789") >= len;
        unsigned v = ok ? (unsigned)strtoul(p, NULL, 10) : 0;
        int known = 0;
        for (size_t i = 0; ok && i < sizeof classes / sizeof classes[0]; i++)
            known |= classes[i] == v;
        if (!known) {
            snprintf(item, sizeof item, "%.*s", (int)(len > 20 ? 20 : len), p);
            return item;
        }
        p += len;
    } while (*p++ == ',');
    return NULL;
}

/* Parses -t: a plain positive number of seconds up to 60; 0 if invalid. */
static double parse_budget(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0.001 || v > 60)
        return 0;
    return v;
}

/* Writes text to path atomically: a temporary file beside it (O_EXCL), owned
 * by root and mode 0644 when `as_root`, synced, then renamed over. Returns 0
 * or -1 with errno-based message printed. */
static int write_atomically(const char *path, const char *text, size_t len, int as_root)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.new.%ld", path, (long)getpid()) >= sizeof tmp) {
        fprintf(stderr, "cryptoshim calibrate: %s: path too long\n", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int ok = fd >= 0;
    for (size_t done = 0; ok && done < len;) {
        ssize_t n = write(fd, text + done, len - done);
        if (n <= 0)
            ok = 0;
        else
            done += (size_t)n;
    }
    if (ok && as_root)
        ok = fchown(fd, 0, 0) == 0 && fchmod(fd, 0644) == 0;
    if (ok)
        ok = fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "cryptoshim calibrate: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
        return -1;
    }
    return 0;
}

/* Creates dir (0755) unless it exists as a directory owned by root and not
 * writable by others: the shim refuses a policy in any other directory. */
static int root_dir(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cryptoshim calibrate: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
        fprintf(stderr, "cryptoshim calibrate: %s: not a root-owned directory closed to others\n",
                dir);
        return -1;
    }
    return 0;
}

/* Installs the policy text under prefix ("" for /): checks it parses as the
 * shim will read it, then writes it root-owned 0644. Returns 0 or 1. */
static int install(const char *prefix, const char *text, size_t len)
{
    static cs_policy_rule rules[64];
    cs_policy_meta meta;
    char err[128], sig[128], dir[4096], etc[4096], path[4200];
    if (cs_policy_parse_text(text, len, rules, 64, &meta, err, sizeof err) < 0) {
        fprintf(stderr, "cryptoshim calibrate: the policy measured does not parse (%s); "
                        "nothing installed\n", err);
        return 1;
    }
    cs_cpu_signature(sig, sizeof sig);
    if (strcmp(meta.cpu, sig)) {
        fprintf(stderr, "cryptoshim calibrate: CPU signature mismatch; nothing installed\n");
        return 1;
    }
    if ((size_t)snprintf(etc, sizeof etc, "%s/etc", prefix) >= sizeof etc ||
        (size_t)snprintf(dir, sizeof dir, "%s" CS_POLICY_SYSTEM_DIR, prefix) >= sizeof dir ||
        (size_t)snprintf(path, sizeof path, "%s/" CS_POLICY_SYSTEM_FILE, dir) >= sizeof path) {
        fprintf(stderr, "cryptoshim calibrate: --prefix too long\n");
        return 1;
    }
    if ((*prefix && root_dir(etc)) || root_dir(dir) || write_atomically(path, text, len, 1))
        return 1;
    fprintf(stderr, "cryptoshim calibrate: installed %s (root, 0644); the shim uses it in "
                    "processes started from now on\n", path);
    return 0;
}

/* Measures against the libcrypto of the OpenSSL tree dir: this CLI run
 * again through the tree's loader (dir/bin/run), its rules (tagged with that
 * library's family) appended to out without its own cpu, measured and end
 * lines. Returns 0, or 1 (said on stderr) when the run fails or did not
 * measure that tree's libcrypto (a libcrypto.so.4 tree: this CLI links
 * libcrypto.so.3, so measure a 3.x tree of the same family instead). */
static int append_other(FILE *out, const char *dir, double budget, const char *only)
{
    char run[4200], tmp[] = "/tmp/cryptoshim-calibrate-XXXXXX", t[32], self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    int fd = mkstemp(tmp);
    if (sl <= 0 || fd < 0) {
        perror("cryptoshim calibrate");
        return 1;
    }
    self[sl] = 0;
    close(fd);
    snprintf(run, sizeof run, "%s/bin/run", dir);
    snprintf(t, sizeof t, "%g", budget);
    const char *args[12] = {run, self, "calibrate", "-t", t, "-o", tmp};
    int n = 7;
    if (only)
        args[n++] = "-b", args[n++] = only;
    args[n] = NULL;
    fprintf(stderr, "calibrate: now against %s's libcrypto\n", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execv(run, (char *const *)args);
        _exit(127);
    }
    int st = 0, status = 1, ran = 0;
    if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        FILE *f = fopen(tmp, "r");
        char line[512], real[4096];
        int ours = 0;
        /* The child's header names the library it measured: it must be dir's. */
        while (f && fgets(line, sizeof line, f)) {
            char lib[4096];
            if (!strncmp(line, "# libcrypto ", 12) && realpath(dir, real)) {
                char path[512];
                snprintf(path, sizeof path, "%.*s", (int)strcspn(line + 12, "\n"), line + 12);
                ours = realpath(path, lib) && !strncmp(lib, real, strlen(real));
            }
            if (!strncmp(line, "cpu ", 4) || !strncmp(line, "measured ", 9) ||
                !strcmp(line, "end\n"))
                continue;
            fputs(line, out);
        }
        if (f)
            fclose(f);
        status = ours ? 0 : 1;
        ran = 1;
    }
    if (status)
        fprintf(stderr, "cryptoshim calibrate: --openssl %.200s: %s\n", dir,
                ran ? "the tree has no libcrypto.so.3 for this CLI (OpenSSL 4.0: its family, "
                      "3.2+, is measured through a 3.2-3.6 tree)"
                    : "the run through its loader failed");
    unlink(tmp);
    return status;
}

/* Measures every class and writes the policy (stdout or -o FILE); returns
 * 0, 1 if a measurement or the output failed, 2 on a usage error. */
int cli_calibrate(int argc, char **argv)
{
    const char *out_path = NULL, *only = NULL, *prefix = NULL, *other[MAX_OTHER];
    double budget = 0;
    int do_install = 0, nother = 0;
    for (int i = 1; i < argc; i++) {
        const char *bad;
        if (!strcmp(argv[i], "-o") && i + 1 < argc && argv[i + 1][0])
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--openssl") && i + 1 < argc && nother < MAX_OTHER) {
            char run[4200];
            snprintf(run, sizeof run, "%s/bin/run", argv[i + 1]);
            if (access(run, X_OK) != 0) {
                fprintf(stderr, "cryptoshim calibrate: --openssl %.200s: no bin/run there (an "
                                "OpenSSL tree as `make openssl-versions` unpacks)\n", argv[i + 1]);
                return 2;
            }
            other[nother++] = argv[++i];
        }
        else if (!strcmp(argv[i], "--install"))
            do_install = 1;
        else if (!strcmp(argv[i], "--prefix") && i + 1 < argc && argv[i + 1][0] == '/')
            prefix = argv[++i];
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            if (!(budget = parse_budget(argv[++i]))) {
                fprintf(stderr, "cryptoshim calibrate: -t %.40s: want seconds from 0.001 to 60\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
            if ((bad = bad_class_list(argv[i + 1]))) {
                fprintf(stderr, "cryptoshim calibrate: -b: '%s' is not a size class "
                                "(1024 1536 2048 3072 4096 8192)\n", bad);
                return 2;
            }
            only = argv[++i];
        } else {
            fprintf(stderr, "cryptoshim calibrate: '%.40s' not understood%s\n", argv[i],
                    !strcmp(argv[i], "--prefix") ? " (--prefix takes an absolute directory)" : "");
            usage();
            return 2;
        }
    }
    if ((do_install && out_path) || (prefix && !do_install)) {
        fprintf(stderr, "cryptoshim calibrate: %s\n",
                prefix ? "--prefix goes with --install" : "-o and --install exclude each other");
        return 2;
    }
    if (do_install && geteuid() != 0) {
        fprintf(stderr, "cryptoshim calibrate: --install must run as root (the shim trusts only "
                        "a root-owned policy); measure with -o FILE instead\n");
        return 1;
    }
    /* Checked before the minute of measuring, not after it. */
    struct stat pst;
    if (prefix && (stat(prefix, &pst) != 0 || !S_ISDIR(pst.st_mode))) {
        fprintf(stderr, "cryptoshim calibrate: --prefix %.200s: not an existing directory; "
                        "nothing measured\n", prefix);
        return 2;
    }
    if (!budget)
        budget = do_install ? 0.6 : 1.0;
    cs_ossl *api = cli_ossl();
    if (!api) {
        fprintf(stderr, "cryptoshim calibrate: libcrypto functions not found\n");
        return 1;
    }
    snprintf(fam_tag, sizeof fam_tag, " @%s", cs_family_name(api->family));
    /* The whole policy is built in memory and written only at the end. */
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = open_memstream(&text, &text_len);
    if (!out) {
        perror("cryptoshim calibrate");
        return 1;
    }
    char model[160], date[32], stamp[32], sig[128];
    cpu_model(model, sizeof model);
    cs_cpu_signature(sig, sizeof sig);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%MZ", gmtime(&now));
    double t_start = cs_timer_wall();
    int steps = 0, step = 0;
    for (int ct = 0; ct < 3; ct++)
        for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
            steps += class_wanted(only, classes[c]) ? (ct == 2 ? EXP2_CASES : ct ? 4 : 2) : 0;
    steps += 3; /* ML-DSA, ML-KEM, the curves: cli/calibrate_impls.c */
    fprintf(out, "# cryptoshim policy written by `cryptoshim calibrate -t %.2g` on %s\n", budget,
            date);
    fprintf(out, "# CPU: %s; features used:", model);
    for (uint32_t bit = 1; bit; bit <<= 1)
        if ((cs_cpu_features() & bit) && cs_cpu_feature_name(bit))
            fprintf(out, " %s", cs_cpu_feature_name(bit));
    fprintf(out, "; %s\n", OpenSSL_version(OPENSSL_VERSION));
    Dl_info di;
    fprintf(out, "# Rules below for libcrypto family %s (runtime/family.h): %s\n",
            cs_family_name(api->family), OpenSSL_version(OPENSSL_VERSION));
    if (dladdr((void *)api->mod_exp_mont, &di) && di.dli_fname && di.dli_fname[0])
        fprintf(out, "# libcrypto %s\n", di.dli_fname);
    fprintf(out, "# Median of %d interleaved rounds, microseconds of thread CPU time per\n"
                 "# operation; a kernel is chosen only if %.0f%% faster than libcrypto in\n"
                 "# every case. pair: two full-length secret exps (RSA CRT), two kernel\n"
                 "# calls against libcrypto's BN_mod_exp_mont_consttime_x2; pair-x2: the\n"
                 "# kernel's paired entry against the same (decides %s, where it\n"
                 "# also beats the pair case's two calls by the margin).\n"
                 "# %s: a1^p1 * a2^p2 (DSA verify), exp2 entries against\n"
                 "# BN_mod_exp2_mont.\n",
            ROUNDS, (MARGIN - 1) * 100, CS_OP_MOD_EXP_CT_X2, CS_OP_MOD_EXP2);
    /* Read by the shim: a policy measured on another CPU is not used. */
    fprintf(out, "cpu %s\nmeasured %s\n", sig, stamp);

    int status = 0;
    /* ct 2: mod_exp2, public exponents, kernels with an exp2 entry. */
    for (int ct = 0; ct < 3; ct++) {
        const char *op = ct == 2 ? CS_OP_MOD_EXP2 : ct ? CS_OP_MOD_EXP_CT : CS_OP_MOD_EXP;
        const struct ecase *cases = ct == 2 ? exp2_cases : ct ? secret_cases : public_cases;
        int ncases = ct == 2 ? EXP2_CASES : ct ? 4 : 2;
        unsigned lo = 0;
        for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++) {
            unsigned bits = classes[c];
            if (!class_wanted(only, bits)) {
                fprintf(out, "%s %u %u libcrypto%s  # not measured\n", op, lo + 1, bits, fam_tag);
                lo = bits;
                continue;
            }
            struct cand cands[MAX_CAND];
            int ncand = 0;
            memset(cands, 0, sizeof cands);
            cands[ncand++].k = NULL;
            for (const cs_bn_kernel *const *k = cs_bn_kernels; *k && ncand < MAX_CAND; k++)
                if (cs_bn_kernel_usable(*k) && bits >= (*k)->min_bits && bits <= (*k)->max_bits &&
                    (ct != 2 || (*k)->exp2))
                    cands[ncand++].k = *k;
            const cs_bn_kernel *names[MAX_CAND];
            for (int i = 0; i < ncand; i++)
                names[i] = cands[i].k;
            /* worst[i]: candidate's worst ratio over libcrypto across cases. */
            /* pair_ratio[i]: the "pair" case (two calls of candidate i). */
            double worst[MAX_CAND], x2_ratio[MAX_CAND], pair_ratio[MAX_CAND];
            for (int i = 0; i < ncand; i++)
                worst[i] = 1e9, x2_ratio[i] = 0, pair_ratio[i] = 1;
            for (int e = 0; e < ncases; e++) {
                double med[MAX_CAND];
                for (int i = 0; i < ncand; i++)
                    cands[i].k = names[i];
                double b = budget * (bits >= 8192 ? 3 : 1);
                fprintf(stderr, "calibrate: [%2d/%d] %3.0f s  %s %u bits, %s\n", ++step, steps,
                        cs_timer_wall() - t_start, op, bits, cases[e].label);
                if (!measure(api, cands, ncand, ct, bits, &cases[e], b, med)) {
                    fprintf(stderr, "cryptoshim calibrate: %s %u bits failed\n", op, bits);
                    status = 1;
                    continue;
                }
                /* Short lines: the shim reads policy lines of up to 255
                 * characters and files of up to 64 KiB. */
                fprintf(out, "# %s %u %s:", op, bits, cases[e].label);
                for (int i = 0; i < ncand; i++) {
                    if ((ct == 2 || e == PAIR_X2_CASE) && i && med[i] <= 0)
                        continue; /* no paired (or exp2) entry */
                    const char *name = names[i] ? names[i]->name : "libcrypto";
                    if (!strncmp(name, "x86_64-", 7))
                        name += 7;
                    fprintf(out, " %s %.*f", name, med[i] < 1e-4 ? 1 : 0, med[i] * 1e6);
                    double ratio = med[i] > 0 ? med[0] / med[i] : 0;
                    if (ct == 1 && e == PAIR_X2_CASE)
                        x2_ratio[i] = ratio; /* its own rule, below */
                    else if (!(ct == 1 && e == PAIR_X2_CASE - 1) && ratio < worst[i])
                        worst[i] = ratio; /* the pair case decides the x2 rule */
                    if (ct == 1 && e == PAIR_X2_CASE - 1)
                        pair_ratio[i] = ratio;
                }
                fprintf(out, "\n");
            }
            int best = 0;
            for (int i = 1; i < ncand; i++)
                if (worst[i] >= MARGIN && (best == 0 || worst[i] > worst[best]))
                    best = i;
            if (best)
                fprintf(out, "%s %u %u %s%s  # %.2fx at worst\n", op, lo + 1, bits,
                         names[best]->name, fam_tag, worst[best]);
            fprintf(out, "%s %u %u libcrypto%s\n", op, lo + 1, bits, fam_tag);
            /* Pairs (RSA CRT): a paired entry that beats, by the margin, both
             * libcrypto's own pair and two calls of the single rule's kernel;
             * else libcrypto's pair where two such calls do not beat it (its
             * own paired code: OpenSSL 3.2+ has it at 1536 and 2048 bits too);
             * else no x2 rule, and pairs take two calls. */
            int best2 = 0;
            double two = best ? pair_ratio[best] : 1;
            for (int i = 1; ct == 1 && i < ncand; i++)
                if (x2_ratio[i] >= MARGIN * (two > 1 ? two : 1) &&
                    (best2 == 0 || x2_ratio[i] > x2_ratio[best2]))
                    best2 = i;
            if (best2)
                fprintf(out, "%s %u %u %s%s  # %.2fx\n", CS_OP_MOD_EXP_CT_X2, lo + 1, bits,
                        names[best2]->name, fam_tag, x2_ratio[best2]);
            else if (ct == 1 && best && two < MARGIN) /* its paired code: this size only */
                fprintf(out, "%s %u %u libcrypto%s  # two %s calls %.2fx\n", CS_OP_MOD_EXP_CT_X2,
                        bits, bits, fam_tag, names[best]->name, two);
            fflush(out);
            lo = bits;
        }
        fprintf(out, "%s %u %u libcrypto%s\n", op, lo + 1, 16384, fam_tag);
    }
    if (!status)
        status = cli_calibrate_impls(out, budget, &step, steps, t_start);
    for (int i = 0; i < nother && !status; i++)
        status = append_other(out, other[i], budget, only);
    fprintf(out, "end\n");
    if (fclose(out) != 0) {
        perror("cryptoshim calibrate");
        free(text);
        return 1;
    }
    fprintf(stderr, "calibrate: measured in %.0f s\n", cs_timer_wall() - t_start);
    if (status) {
        fprintf(stderr, "cryptoshim calibrate: a measurement failed; nothing written\n");
        free(text);
        return status;
    }
    if (do_install)
        status = install(prefix ? prefix : "", text, text_len);
    else if (out_path)
        status = write_atomically(out_path, text, text_len, 0) ? 1 : 0;
    else
        status = fwrite(text, 1, text_len, stdout) == text_len && fflush(stdout) == 0 ? 0 : 1;
    free(text);
    return status;
}
