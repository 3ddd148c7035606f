/* Policy files and the dispatcher: parsing (kernels, ranges, "!feature"
 * conditions, comments, errors) and what a policy then selects under
 * CRYPTOSHIM_CPU and CRYPTOSHIM_KERNELS. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/controls.h"
#include "shim/dispatch.h"
#include "support/tap.h"

/* Reloads controls and policy from the given environment. */
static void reload(const char *policy_path, const char *cpu, const char *kernels)
{
    policy_path ? setenv("CRYPTOSHIM_POLICY", policy_path, 1) : unsetenv("CRYPTOSHIM_POLICY");
    cpu ? setenv("CRYPTOSHIM_CPU", cpu, 1) : unsetenv("CRYPTOSHIM_CPU");
    kernels ? setenv("CRYPTOSHIM_KERNELS", kernels, 1) : unsetenv("CRYPTOSHIM_KERNELS");
    cs_controls_load();
    cs_dispatch_init();
}

static const char *served(int ct, unsigned bits)
{
    const cs_bn_kernel *k = cs_dispatch_bn(ct, bits);
    return k ? k->name : "libcrypto";
}

int main(void)
{
    cs_policy_rule r[8];
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
    return tap_done();
}
