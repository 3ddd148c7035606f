/* `cryptoshim ab tls|nginx|ssh [options]`, `ab tls|ssh --a HOST:PORT --b
 * HOST:PORT` and `ab pcap FILE... --a --b`: the A/B handshake-latency
 * harness (docs/ab.md). The work is done by ab/ab.py (python3,
 * standard library); this passes it the paths of this CLI, the shim library
 * and the client. */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Directory of the running executable (resolved once), or NULL. */
static const char *ab_exe_dir(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
        if (n <= 0)
            return NULL;
        dir[n] = 0;
        char *d = dirname(dir);
        memmove(dir, d, strlen(d) + 1);
    }
    return dir;
}

/* Replaces this process with python3 running ab.py; returns 2 on failure. */
int cli_ab(int argc, char **argv)
{
    const char *abdir = cli_ab_dir(), *lib = cli_library_path(), *dir = ab_exe_dir();
    static char script[PATH_MAX], exe[PATH_MAX];
    if (!abdir || snprintf(script, sizeof script, "%s/ab.py", abdir) >= (int)sizeof script) {
        fprintf(stderr, "cryptoshim ab: the harness scripts are missing (ab/ab.py beside "
                        "the build directory, or share/cryptoshim/scripts/ab when installed).\n");
        return 2;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char **av = calloc((size_t)argc + 10, sizeof *av);
    if (!av)
        return 2;
    int k = 0;
    av[k++] = "python3";
    av[k++] = script;
    av[k++] = "--cryptoshim";
    av[k++] = exe;
    if (dir) {
        av[k++] = "--bindir";
        av[k++] = (char *)dir;
    }
    if (lib) {
        av[k++] = "--lib";
        av[k++] = (char *)lib;
    }
    for (int i = 1; i < argc; i++)
        av[k++] = argv[i];
    av[k] = NULL;
    execv("/usr/bin/python3", av);
    execvp("python3", av);
    if (errno == ENOENT)
        fprintf(stderr, "cryptoshim ab: python3 is not installed (Debian package python3); "
                        "the A/B harness is a Python script.\n");
    else
        fprintf(stderr, "cryptoshim ab: python3 could not be started (%s).\n", strerror(errno));
    free(av);
    return 2;
}
