/* `cryptoshim run -- CMD ARGS`: exec CMD with the shim appended to LD_PRELOAD. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_run(int argc, char **argv)
{
    int i = 1;
    if (i < argc && !strcmp(argv[i], "--"))
        i++;
    if (i >= argc) {
        fprintf(stderr, "usage: cryptoshim run -- CMD [ARGS]\n");
        return 2;
    }
    const char *lib = cli_library_path();
    if (!lib) {
        fprintf(stderr, "cryptoshim run: libcryptoshim.so not found beside the CLI\n");
        return 1;
    }
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 1;
    char *val = malloc(len);
    if (!val)
        return 1;
    if (old && *old)
        snprintf(val, len, "%s:%s", old, lib);
    else
        snprintf(val, len, "%s", lib);
    setenv("LD_PRELOAD", val, 1);
    execvp(argv[i], argv + i);
    fprintf(stderr, "cryptoshim run: %s: %s\n", argv[i], strerror(errno));
    return 127;
}
