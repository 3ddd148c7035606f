/* `cryptoshim calibrate [-o FILE] [-t SECONDS] [-b BITS,...]`: times every usable kernel
 * and libcrypto's own function for each operation and modulus size class on
 * this machine, in interleaved rounds, and writes a policy file (the format
 * of cs_policy_parse) choosing, per class, the fastest kernel only where it
 * beats libcrypto in every exponent case measured; the times go in comments.
 * Point CRYPTOSHIM_POLICY at the file to use it. */
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../controls.h"
#include "../dispatch.h"
#include "../modexp.h"
#include "bn_util.h"
#include "cli.h"

#define MAX_CAND 8
#define ROUNDS 7
/* A kernel must be this much faster than libcrypto to be chosen: below it
 * the difference is within what a shared machine's noise can fake. */
#define MARGIN 1.03

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
 * "pair-x2" times kernels' paired entries and decides the x2 rule. */
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

/* Thread CPU seconds: what `openssl speed` counts, and unlike wall time not
 * stretched when other processes share the cores. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Second operand set for the paired cases (ct >= 2 below); for exp2 its
 * base is below the first set's modulus. */
static struct {
    BIGNUM *r, *a, *p, *m;
    BN_MONT_CTX *mont;
} x2;

/* CPU seconds per operation of one candidate over a batch of calls lasting
 * about `secs` (at least one call); 0 when the call failed. ct: 0 public,
 * 1 secret, 2 the paired secret call as two kernel calls, 3 through the
 * kernel's paired entry, 4 a simultaneous exponentiation (BN_mod_exp2_mont). */
static double batch(cs_ossl *api, const cs_bn_kernel *k, int ct, BIGNUM *r, BIGNUM *a,
                    BIGNUM *p, BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *mont, double secs)
{
    long n = 0;
    double t0 = cpu_now(), t;
    do {
        int ok;
        if (ct == 4)
            ok = k ? cs_modexp2_with(api, k, r, a, p, x2.a, x2.p, m, ctx) == 1
                   : BN_mod_exp2_mont(r, a, p, x2.a, x2.p, m, ctx, mont);
        else if (ct == 3 && k)
            ok = cs_modexp_x2_with(api, k, r, a, p, m, x2.r, x2.a, x2.p, x2.m, ctx) == 1;
        else if (ct >= 2)
            ok = k ? cs_modexp_with(api, k, 1, r, a, p, m, ctx) == 1 &&
                         cs_modexp_with(api, k, 1, x2.r, x2.a, x2.p, x2.m, ctx) == 1
                   : BN_mod_exp_mont_consttime_x2(r, a, p, m, mont, x2.r, x2.a, x2.p, x2.m,
                                                  x2.mont, ctx);
        else
            ok = k ? cs_modexp_with(api, k, ct, r, a, p, m, ctx) == 1
                   : (ct ? BN_mod_exp_mont_consttime(r, a, p, m, ctx, mont)
                         : BN_mod_exp_mont(r, a, p, m, ctx, mont));
        if (!ok)
            return 0;
        n++;
        t = cpu_now();
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
    for (int round = 0; ok && round < ROUNDS; round++)
        for (int j = 0; j < ncand; j++) {
            int i = (j + round) % ncand; /* rotate who goes first */
            if (med[i] < 0)
                continue;
            cands[i].t[round] = batch(api, cands[i].k, ct, r, a, p, m, ctx, mont, slice);
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
    fprintf(stderr, "usage: cryptoshim calibrate [-o FILE] [-t SECONDS_PER_CASE] [-b BITS,...]\n"
                    "  -b: measure only these size classes (of 1024 1536 2048 3072 4096 8192);\n"
                    "      the others are written as libcrypto\n");
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

/* Measures every class and writes the policy (stdout or -o FILE); returns
 * 0, 1 if a measurement or the output failed, 2 on a usage error. */
int cli_calibrate(int argc, char **argv)
{
    const char *out_path = NULL, *only = NULL;
    double budget = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "-t") && i + 1 < argc && atof(argv[i + 1]) > 0)
            budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            only = argv[++i];
        else {
            usage();
            return 2;
        }
    }
    cs_ossl *api = cli_ossl();
    if (!api) {
        fprintf(stderr, "cryptoshim calibrate: libcrypto functions not found\n");
        return 1;
    }
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        return 1;
    }
    char model[160], date[32];
    cpu_model(model, sizeof model);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(out, "# cryptoshim policy written by `cryptoshim calibrate -t %.2g` on %s\n", budget,
            date);
    fprintf(out, "# CPU: %s; features used:", model);
    for (uint32_t bit = 1; bit; bit <<= 1)
        if ((cs_cpu_features() & bit) && cs_cpu_feature_name(bit))
            fprintf(out, " %s", cs_cpu_feature_name(bit));
    fprintf(out, "; %s\n", OpenSSL_version(OPENSSL_VERSION));
    fprintf(out, "# Median of %d interleaved rounds, microseconds of thread CPU time per\n"
                 "# operation; a kernel is chosen only if %.0f%% faster than libcrypto in\n"
                 "# every case. pair: two full-length secret exps (RSA CRT), two kernel\n"
                 "# calls against libcrypto's BN_mod_exp_mont_consttime_x2; pair-x2: the\n"
                 "# kernel's paired entry against the same (decides %s).\n"
                 "# %s: a1^p1 * a2^p2 (DSA verify), exp2 entries against\n"
                 "# BN_mod_exp2_mont.\n",
            ROUNDS, (MARGIN - 1) * 100, CS_OP_MOD_EXP_CT_X2, CS_OP_MOD_EXP2);

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
                fprintf(out, "%s %u %u libcrypto  # not measured\n", op, lo + 1, bits);
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
            double worst[MAX_CAND], x2_ratio[MAX_CAND];
            for (int i = 0; i < ncand; i++)
                worst[i] = 1e9, x2_ratio[i] = 0;
            for (int e = 0; e < ncases; e++) {
                double med[MAX_CAND];
                for (int i = 0; i < ncand; i++)
                    cands[i].k = names[i];
                double b = budget * (bits >= 8192 ? 3 : 1);
                if (!measure(api, cands, ncand, ct, bits, &cases[e], b, med)) {
                    fprintf(stderr, "cryptoshim calibrate: %s %u bits failed\n", op, bits);
                    status = 1;
                    continue;
                }
                /* Short lines: the shim reads policy lines of under 160
                 * characters and files of under 8 KiB. */
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
                    else if (ratio < worst[i])
                        worst[i] = ratio;
                }
                fprintf(out, "\n");
            }
            int best = 0;
            for (int i = 1; i < ncand; i++)
                if (worst[i] >= MARGIN && (best == 0 || worst[i] > worst[best]))
                    best = i;
            if (best)
                fprintf(out, "%s %u %u %s  # %.2fx at worst\n", op, lo + 1, bits,
                        names[best]->name, worst[best]);
            fprintf(out, "%s %u %u libcrypto\n", op, lo + 1, bits);
            int best2 = 0;
            for (int i = 1; ct == 1 && i < ncand; i++)
                if (x2_ratio[i] >= MARGIN && (best2 == 0 || x2_ratio[i] > x2_ratio[best2]))
                    best2 = i;
            /* No x2 rule where no paired entry wins: pairs then go by the
             * mod_exp_consttime rules, two calls or libcrypto's pair. */
            if (best2)
                fprintf(out, "%s %u %u %s  # %.2fx\n", CS_OP_MOD_EXP_CT_X2, lo + 1, bits,
                        names[best2]->name, x2_ratio[best2]);
            fflush(out);
            lo = bits;
        }
        fprintf(out, "%s %u %u libcrypto\n", op, lo + 1, 16384);
    }
    if (out != stdout && fclose(out) != 0) {
        perror(out_path);
        return 1;
    }
    return status;
}
