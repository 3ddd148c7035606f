/* build/cryptoshim: introspection and tools around libcryptoshim.so. */
#include <stdio.h>
#include <string.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "cli.h"

struct cli_cmd {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
};

static const struct cli_cmd cmds[] = {
    {"info", cli_info, "CPU features, libcrypto, and the kernel serving each operation"},
    {"run", cli_run, "run -- CMD ARGS: run a program with the shim preloaded"},
    {"stats", cli_stats, "stats PATH: print the counters of a CRYPTOSHIM_STATS file"},
    {"selftest", cli_selftest, "known answers for every kernel this CPU can run"},
    {"bench", cli_bench, "bench [bn|mldsa|mlkem|x25519|ed25519]: in-process kernel timings against libcrypto"},
    {"calibrate", cli_calibrate, "calibrate [-o FILE]: measure kernels here, write a policy file"},
    {"ab", cli_ab, "ab tls|nginx|ssh [options]: A/B handshake latency, without and with the shim"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: cryptoshim COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    cs_controls_load();
    cs_dispatch_init();
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].run(argc - 1, argv + 1);
    fprintf(stderr, "cryptoshim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
