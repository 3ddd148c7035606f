/* Policy files and the dispatcher: parsing (kernels, ranges, "!feature"
 * conditions, comments, errors) and what a policy then selects under
 * CRYPTOSHIM_CPU and CRYPTOSHIM_KERNELS. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/cpu_features.h"
#include "runtime/policy.h"
#include "runtime/controls.h"
#include "runtime/cpu.h"
#include "kernels/keccak/keccak.h"
#include "kernels/mlkem/mlkem.h"
#include "runtime/dispatch.h"
#include "runtime/dispatch_mlkem.h"
#include "support/tap.h"

/* The system policy path tests use instead of /etc/cryptoshim/policy. */
static char sys_dir[64], sys_path[96];

/* Reloads controls and policy from the given environment (the system policy
 * at sys_path). */
static void reload(const char *policy_path, const char *cpu, const char *kernels)
{
    policy_path ? setenv("CRYPTOSHIM_POLICY", policy_path, 1) : unsetenv("CRYPTOSHIM_POLICY");
    cpu ? setenv("CRYPTOSHIM_CPU", cpu, 1) : unsetenv("CRYPTOSHIM_CPU");
    kernels ? setenv("CRYPTOSHIM_KERNELS", kernels, 1) : unsetenv("CRYPTOSHIM_KERNELS");
    cs_controls_load();
    cs_dispatch_init_with(sys_path);
}

static const char *served(int ct, unsigned bits)
{
    const cs_bn_kernel *k = cs_dispatch_bn(CS_FAMILY_30, ct, bits);
    return k ? k->name : "libcrypto";
}

/* Writes text to path with mode; 0 on success. */
static int put(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    return chmod(path, mode);
}

/* Parse error text for policy text ("" when accepted). */
static const char *parse_error(const char *text, size_t len)
{
    static cs_policy_rule r[8];
    static char err[128];
    err[0] = 0;
    cs_policy_parse_text(text, len, r, 8, NULL, err, sizeof err);
    return err;
}

/* Checks parse errors, each reported once with its line. */
static void bad_input(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"mod_exp 0 16384 nosuch\n", "line 1: unknown kernel"},
        {"mod_exp 0 4096 portable\nmod_exp -1 2 portable\n", "line 2: bits must be"},
        {"mod_exp 0 99999999999999999999999 portable\n", "line 1: bits must be"},
        {"mod_exp 0 4294967297 portable\n", "line 1: bits must be"},
        {"mod_exp 0 +5 portable\n", "line 1: bits must be"},
        {"mod_exp 0x10 20 portable\n", "line 1: bits must be"},
        {"rsa_sign 0 4096 portable\n", "line 1: unknown operation"},
        {"mod_exp 0 4096 portable !nosuchfeature\n", "line 1: unknown feature"},
        {"mod_exp 0 4096 portable !\n", "line 1: a condition"},
        {"cpu X\nmod_exp 0 4096 portable\n", "no `end` line"},
        {"cpu X\nmod_exp 0 4096 portable\nend\nmod_exp 0 1 portable\n", "line 4: text after"},
        {"cpu X\ncpu Y\nend\n", "line 2: a second `cpu`"},
        {"measured now!\n", "line 1: `measured`"},
        {"mod_exp 0 4096 portable\r\n", "line 1: not text"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *err = parse_error(cases[i].text, strlen(cases[i].text));
        tap_ok(strstr(err, cases[i].want) != NULL, "bad input %zu refused: '%s'", i, err);
    }
    static const char nul[] = "mod_exp 0 4096 portable\n\0garbage\n";
    tap_ok(strstr(parse_error(nul, sizeof nul - 1), "line 2: not text") != NULL,
           "a NUL byte is refused, not taken as the end");
    char line[400];
    memset(line, 'a', sizeof line - 2);
    line[sizeof line - 2] = '\n';
    line[sizeof line - 1] = 0;
    tap_ok(strstr(parse_error(line, strlen(line)), "longer than 255") != NULL,
           "an overlong line is refused");
    /* Binary garbage from a fixed seed, many times: always an error, never a crash. */
    int all_refused = 1;
    tap_rng_seed(14);
    for (int i = 0; i < 2000; i++) {
        uint8_t buf[300];
        tap_rng_bytes(buf, sizeof buf);
        buf[0] = 0x80 | buf[0]; /* at least one byte outside ASCII */
        all_refused &= parse_error((const char *)buf, sizeof buf)[0] != 0;
    }
    tap_ok(all_refused, "2000 random binary files: each refused");
    char many[64 * 30 + 1] = "";
    for (int i = 0; i < 64; i++)
        strcat(many, "mod_exp 0 1 portable\n");
    tap_ok(strstr(parse_error(many, strlen(many)), "line 9: too many rules") != NULL,
           "more rules than the table holds: refused, not cut");
}

/* The system file (here sys_path) and what makes the shim ignore it. */
static void system_file(void)
{
    char sig[128], good[512], text[700];
    cs_cpu_signature(sig, sizeof sig);
    snprintf(good, sizeof good,
             "cpu %s\nmeasured 2026-12-01T05:40Z\nmod_exp 256 8192 portable\nend\n", sig);
    const cs_policy_status *st = cs_dispatch_policy_status();
    if (geteuid() != 0) {
        tap_skip("system policy checks need root (only a root-owned file is trusted)");
        return;
    }

    reload(NULL, NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file() && !st->note[0],
           "no system file: built-in table, no note");
    put(sys_path, good, 0644);
    reload(NULL, NULL, NULL);
    tap_ok(cs_dispatch_policy_from_file() && !strcmp(served(0, 2048), "portable") &&
               !strcmp(st->measured, "2026-12-01T05:40Z") && !strcmp(st->source, sys_path),
           "a valid system file is used when CRYPTOSHIM_POLICY is unset (%s)", st->note);
    reload("builtin", NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file(), "CRYPTOSHIM_POLICY=builtin ignores the system file");

    chmod(sys_path, 0666);
    reload(NULL, NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file() && strstr(st->note, "writable by group or others"),
           "a world-writable system file is ignored with a note: %s", st->note);
    chmod(sys_path, 0644);
    chmod(sys_dir, 0777);
    reload(NULL, NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file() && strstr(st->note, "directory"),
           "a system file in a directory others can write is ignored: %s", st->note);
    chmod(sys_dir, 0755);

    snprintf(text, sizeof text,
             "cpu GenuineIntel-00050650:bmi2+adx+avx2+fma+avx512ifma\nmod_exp 256 8192 portable\n"
             "end\n");
    if (strcmp(sig, "GenuineIntel-00050650:bmi2+adx+avx2+fma+avx512ifma")) {
        put(sys_path, text, 0644);
        reload(NULL, NULL, NULL);
        tap_ok(!cs_dispatch_policy_from_file() && strstr(st->note, "measured on another CPU"),
               "a file measured on another CPU is ignored with a note: %s", st->note);
    } else
        tap_skip("this CPU has the signature used as 'another CPU'");
    put(sys_path, "mod_exp 256 8192 portable\n", 0644);
    reload(NULL, NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file() && strstr(st->note, "no `cpu` line"),
           "a system file without a CPU signature is ignored: %s", st->note);

    /* Truncated at every length: never used, never partly applied. */
    int never = 1;
    for (size_t cut = 1; cut < strlen(good) - 1; cut++) {
        char part[512];
        memcpy(part, good, cut);
        part[cut] = 0;
        put(sys_path, part, 0644);
        reload(NULL, NULL, NULL);
        never &= !cs_dispatch_policy_from_file() && st->note[0] != 0;
    }
    /* (Cut only before the last newline: "end" without it is complete.) */
    tap_ok(never, "the system file cut at each of %zu lengths: always ignored, with a note",
           strlen(good) - 1);
    unlink(sys_path);
}

/* CRYPTOSHIM_CPU closes over dependents; CRYPTOSHIM_KERNELS of any length. */
static void environment(void)
{
    uint32_t h = cs_cpu_hide_closure(CS_CPU_AVX2);
    tap_ok((h & CS_CPU_AVX512IFMA) && (h & CS_CPU_AVX512F) && (h & CS_CPU_FMA) &&
               !(h & CS_CPU_ADX),
           "hiding avx2 hides fma, avx512f and avx512ifma (kernels using AVX2), not adx");
    tap_ok((h & CS_CPU_AVX512_ALL) == CS_CPU_AVX512_ALL, "hiding avx2 hides every AVX-512 bit");
    h = cs_cpu_hide_closure(CS_CPU_AVX512IFMA);
    tap_ok(h == CS_CPU_AVX512IFMA,
           "hiding avx512ifma keeps avx512f, vl and bw (the avx512f mode: Skylake-SP class)");
    h = cs_cpu_hide_closure(CS_CPU_AVX512F);
    tap_ok((h & CS_CPU_AVX512_ALL) == CS_CPU_AVX512_ALL && !(h & (CS_CPU_AVX2 | CS_CPU_FMA)),
           "hiding avx512f hides avx512ifma, vl and bw, not avx2 or fma");
    h = cs_cpu_hide_closure(CS_CPU_AVX512VL);
    tap_ok(h == CS_CPU_AVX512VL, "hiding avx512vl hides only it (tables needing it drop)");
    tap_ok(cs_cpu_feature_by_name("avx512vl", 8) == CS_CPU_AVX512VL &&
               cs_cpu_feature_by_name("avx512bw", 8) == CS_CPU_AVX512BW &&
               !strcmp(cs_cpu_feature_name(CS_CPU_AVX512BW), "avx512bw"),
           "CRYPTOSHIM_CPU names avx512vl and avx512bw");
#if defined(__x86_64__)
    /* The SIMD tables use no IFMA instruction: they need F, VL (and BW). */
    int noifma = 1;
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i; i++)
        noifma &= !(cs_mldsa_impl_cpu_features(*i) & CS_CPU_AVX512IFMA);
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++)
        noifma &= !((*i)->cpu_features & CS_CPU_AVX512IFMA);
    for (const cs_keccak_impl *const *i = cs_keccak_impls; *i; i++)
        noifma &= !((*i)->cpu_features & CS_CPU_AVX512IFMA);
    tap_ok(noifma, "no ML-DSA, ML-KEM or Keccak table requires the IFMA bit");
#else
    tap_skip("AVX-512 tables: x86-64 only");
#endif
    if ((cs_cpu_detected() & CS_CPU_AVX512F)) {
        reload(NULL, "-avx512ifma", NULL);
        const cs_bn_kernel *f5 = cs_bn_kernel_by_name("x86_64-fma512");
        tap_ok((cs_cpu_features() & CS_CPU_AVX512F) && f5 && cs_bn_kernel_usable(f5),
               "CRYPTOSHIM_CPU=-avx512ifma: avx512f and the fma512 kernel stay");
        reload(NULL, "-avx512f", NULL);
        tap_ok(!(cs_cpu_features() & (CS_CPU_AVX512F | CS_CPU_AVX512IFMA)) && f5 &&
                   !cs_bn_kernel_usable(f5),
               "CRYPTOSHIM_CPU=-avx512f: neither AVX-512 bit, fma512 not usable");
    } else {
        tap_skip("CRYPTOSHIM_CPU=-avx512ifma/-avx512f: CPU lacks AVX-512F");
        tap_skip("CRYPTOSHIM_CPU=-avx512f: CPU lacks AVX-512F");
    }
    reload(NULL, "-avx2", NULL);
    const cs_bn_kernel *ifma = cs_bn_kernel_by_name("x86_64-ifma");
    const cs_bn_kernel *fma = cs_bn_kernel_by_name("x86_64-fma");
    tap_ok(!(cs_cpu_features() & (CS_CPU_AVX2 | CS_CPU_FMA | CS_CPU_AVX512IFMA)) &&
               (!ifma || !cs_bn_kernel_usable(ifma)) && (!fma || !cs_bn_kernel_usable(fma)),
           "CRYPTOSHIM_CPU=-avx2: the IFMA and FMA kernels are not usable");

    char longv[2048] = "";
    for (int i = 0; i < 40; i++)
        strcat(longv, "no_such_kernel_here,");
    strcat(longv, "portable");
    reload(NULL, NULL, longv);
    tap_ok(strlen(longv) > 253 && cs_kernels_forced() && !strcmp(served(1, 2048), "portable"),
           "CRYPTOSHIM_KERNELS of %zu characters: honoured", strlen(longv));
    longv[0] = 0;
    for (int i = 0; i < 40; i++) {
        char name[32];
        snprintf(name, sizeof name, "k%02d,", i);
        strcat(longv, name);
    }
    strcat(longv, "portable");
    reload(NULL, NULL, longv);
    tap_ok(cs_kernels_forced() && strcmp(served(1, 2048), "portable") &&
               strstr(cs_controls_note(), "beyond the first 32"),
           "41 distinct names: the extra ones are reported, not silently used (%s)",
           cs_controls_note());

    /* Family-qualified names force one family; the others keep the policy. */
    reload(NULL, NULL, NULL);
    const cs_mldsa_impl *mldsa = cs_dispatch_mldsa(65);
    const cs_mlkem_impl *mlkem = cs_dispatch_mlkem(768);
    const cs_keccak_impl *keccak = cs_dispatch_keccak();
    int mlkem_served = cs_dispatch_mlkem_serves();
    reload(NULL, NULL, "bn:portable");
    tap_ok(!strcmp(served(1, 2048), "portable") && cs_dispatch_mldsa(65) == mldsa &&
               cs_dispatch_mlkem(768) == mlkem && cs_dispatch_keccak() == keccak,
           "bn:portable forces the big numbers only: ML-DSA %s, ML-KEM %s, Keccak %s as the "
           "policy chose", cs_mldsa_impl_name(mldsa), mlkem->name, keccak->name);
    reload(NULL, NULL, "x86_64-adx");
    tap_ok(cs_dispatch_mldsa(65) == mldsa,
           "a bare big-number kernel name leaves ML-DSA on %s (not portable)",
           cs_mldsa_impl_name(mldsa));
    reload(NULL, NULL, "mldsa:portable");
    tap_ok(cs_dispatch_mldsa(65) == &cs_mldsa_portable && cs_dispatch_mlkem(768) == mlkem &&
               strcmp(served(1, 4096), "portable"),
           "mldsa:portable forces ML-DSA only");
    reload(NULL, NULL, "portable");
    tap_ok(cs_dispatch_mldsa(65) == &cs_mldsa_portable && cs_dispatch_mlkem(768) ==
               &cs_mlkem_portable && cs_dispatch_mlkem_serves() &&
               cs_dispatch_keccak() == &cs_keccak_portable && !strcmp(served(1, 2048), "portable"),
           "a bare portable forces every family (ML-KEM then served by portable)");
    reload(NULL, NULL, "mlkem:nosuch");
    tap_ok(cs_dispatch_mlkem_serves() == mlkem_served && cs_dispatch_mlkem(768) == mlkem &&
               cs_dispatch_mldsa(65) == mldsa,
           "mlkem:nosuch: names no implementation, ML-KEM keeps the policy (%s)",
           cs_dispatch_mlkem_serves() ? "served" : "libcrypto");
    reload(NULL, NULL, NULL);
}


int main(void)
{
    cs_policy_rule r[8];
    strcpy(sys_dir, "/tmp/cs-etc-XXXXXX");
    if (!mkdtemp(sys_dir) || chmod(sys_dir, 0755))
        return tap_ok(0, "mkdtemp"), tap_done();
    snprintf(sys_path, sizeof sys_path, "%s/policy", sys_dir);
    tap_ok(cs_policy_parse("# comment\n\nmod_exp 512 4096 portable  # tail\n"
                           "mod_exp_consttime 1025 3072 portable !adx,!avx2\n",
                           r, 8) == 2 &&
               !strcmp(r[0].kernel, "portable") && r[0].min_bits == 512 && !r[0].without[0] &&
               !strcmp(r[1].without, "adx,avx2"),
           "parse: rules, comments, !feature conditions");
    tap_ok(cs_policy_parse("mod_exp 4096 512 portable\n", r, 8) < 0, "parse: empty range refused");
    tap_ok(cs_policy_parse("mod_exp 1 2\n", r, 8) < 0, "parse: missing kernel refused");
    tap_ok(cs_policy_parse("mod_exp 1 2 portable adx\n", r, 8) < 0,
           "parse: condition without ! refused");
    tap_ok(cs_policy_parse("mod_exp 1 2 portable !adx extra\n", r, 8) < 0,
           "parse: trailing words refused");

    char path[] = "/tmp/cs-policy-XXXXXX";
    int fd = mkstemp(path);
    static const char text[] = "mod_exp_consttime 256 2048 portable !adx\n"
                               "mod_exp 256 8192 portable\n"
                               "mod_exp_consttime 0 16384 libcrypto\n";
    if (fd < 0 || write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1))
        return tap_ok(0, "write policy file"), tap_done();
    close(fd);

    reload(path, "-adx", NULL);
    int adx_hidden = !strcmp(served(1, 2048), "portable") && !strcmp(served(1, 4096), "libcrypto") &&
                     !strcmp(served(0, 4096), "portable");
    tap_ok(adx_hidden && cs_dispatch_policy_from_file(),
           "file policy: a !adx rule applies when ADX is absent (or hidden)");
    reload(path, NULL, NULL);
    if (cs_cpu_detected() & CS_CPU_ADX)
        tap_ok(!strcmp(served(1, 2048), "libcrypto") && !strcmp(served(0, 2048), "portable"),
               "file policy: a !adx rule does not apply on a CPU with ADX");
    else
        tap_skip("this CPU has no ADX");
    reload(path, NULL, "portable");
    tap_ok(!strcmp(served(1, 4096), "portable"), "CRYPTOSHIM_KERNELS overrides the policy");
    setenv("CRYPTOSHIM_DISABLE", "1", 1);
    reload(path, NULL, "portable");
    tap_ok(!strcmp(served(1, 4096), "libcrypto"), "CRYPTOSHIM_DISABLE passes everything");
    unsetenv("CRYPTOSHIM_DISABLE");
    reload("/nonexistent/policy", NULL, NULL);
    tap_ok(!cs_dispatch_policy_from_file(), "an unreadable policy file leaves the built-in table");
    reload(NULL, NULL, NULL);
    tap_ok(!strcmp(served(0, 100), "libcrypto") && !strcmp(served(0, 9000), "libcrypto"),
           "sizes outside 256..8192 bits always go to libcrypto");
    unlink(path);
    bad_input();
    system_file();
    environment();
    rmdir(sys_dir);
    return tap_done();
}
