/* The policy and controls lines of `cryptoshim info`: which policy is in
 * force and when it was measured, and anything the shim ignored (a policy
 * file refused, CRYPTOSHIM_* values not understood, a stats file it would
 * refuse), since the library itself never prints. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "runtime/stats.h"
#include "runtime/policy.h"
#include "runtime/registry.h"
#include "cli.h"

void cli_info_policy(void)
{
    const cs_policy_status *st = cs_dispatch_policy_status();
    if (cs_dispatch_policy_from_file())
        printf("policy             %s (measured %s)\n", st->source,
               st->measured[0] ? st->measured : "when: not stated");
    else
        printf("policy             built-in (%s; runtime/policy_builtin.c)\n",
               cs_policy_builtin_origin);
    char sig[128];
    cs_cpu_signature(sig, sizeof sig);
    printf("cpu signature      %s\n", sig);
    if (st->note[0])
        printf("policy note        %s\n", st->note);
    for (unsigned i = 0; cs_kernel_listed(i); i++)
        if (!cs_impl_entry_known(cs_kernel_listed(i)))
            printf("controls note      CRYPTOSHIM_KERNELS: '%s' is no kernel of this build\n",
                   cs_kernel_listed(i));
    if (cs_controls_note()[0])
        printf("controls note      %s\n", cs_controls_note());
    const char *stats = secure_getenv("CRYPTOSHIM_STATS");
    if (stats && *stats) {
        char why[160];
        int ok = cs_stats_check(stats, why, sizeof why);
        printf("%-19s%s: %s\n", ok ? "stats" : "stats note", stats, why);
    }
}
