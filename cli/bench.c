/* `cryptoshim bench [bn|mldsa|mlkem|x25519|ed25519]`: in-process timings. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_bench(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int rc = 0;
    if (!strcmp(what, "mlkem"))
        return cli_bench_mlkem(argc - 1, argv + 1);
    if (!strcmp(what, "x25519"))
        return cli_bench_c25519(argc - 1, argv + 1);
    if (!strcmp(what, "ed25519"))
        return cli_bench_ed25519(argc - 1, argv + 1);
    if (!strcmp(what, "bn") || !strcmp(what, "all"))
        rc |= cli_bench_bn(argc - 1, argv + 1);
    if (!strcmp(what, "mldsa") || !strcmp(what, "all"))
        rc |= cli_bench_mldsa(argc - 1, argv + 1);
    if (strcmp(what, "bn") && strcmp(what, "mldsa") && strcmp(what, "all")) {
        fprintf(stderr, "usage: cryptoshim bench [bn|mldsa|mlkem|x25519|ed25519]\n");
        return 2;
    }
    return rc;
}
