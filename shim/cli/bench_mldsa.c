/* `cryptoshim bench mldsa`: placeholder until the ML-DSA kernel lands. */
#include <stdio.h>

#include "cli.h"

int cli_bench_mldsa(int argc, char **argv)
{
    printf("mldsa: no kernel in this build\n");
    return 0;
}
