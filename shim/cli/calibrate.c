/* `cryptoshim calibrate`: placeholder until measured dispatch lands. */
#include <stdio.h>

#include "cli.h"

int cli_calibrate(int argc, char **argv)
{
    fprintf(stderr, "cryptoshim calibrate: no kernels to calibrate in this build\n");
    return 1;
}
