/* `cryptoshim ab`: placeholder until the A/B harness lands. */
#include <stdio.h>

#include "cli.h"

int cli_ab(int argc, char **argv)
{
    fprintf(stderr, "cryptoshim ab: not available in this build\n");
    return 1;
}
