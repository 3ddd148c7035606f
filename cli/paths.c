/* Locating the library and scripts relative to the CLI executable. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Directory of /proc/self/exe into dir; 0 on success. */
static int exe_dir(char *dir, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
    if (n <= 0)
        return -1;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = 0;
    return 0;
}

/* First of dir/rel[i] that exists (as a file or directory), or NULL. */
static const char *first_existing(char *out, size_t cap, const char *const *rel, size_t count)
{
    char dir[PATH_MAX];
    if (exe_dir(dir, sizeof dir) < 0)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel[i]) >= sizeof path)
            continue;
        if (access(path, F_OK) == 0 && realpath(path, out))
            return out;
    }
    (void)cap;
    return NULL;
}

/* The library beside the CLI (build tree), in ../lib (make install), or in
 * ../lib/TRIPLET/cryptoshim, where the Debian package installs it (TRIPLET:
 * CS_MULTIARCH, set by mk/deb.mk from the compiler). */
const char *cli_library_path(void)
{
    static char path[PATH_MAX];
    static const char *const rel[] = {
        "libcryptoshim.so",
        "../lib/libcryptoshim.so",
#ifdef CS_MULTIARCH
        "../lib/" CS_MULTIARCH "/cryptoshim/libcryptoshim.so",
#endif
    };
    return first_existing(path, sizeof path, rel, sizeof rel / sizeof rel[0]);
}

/* The A/B harness's directory (holding ab.py): ab/ beside the build
 * directory (source tree) or share/cryptoshim/scripts/ab (installed). */
const char *cli_ab_dir(void)
{
    static char path[PATH_MAX];
    static const char *const rel[] = {"../ab/ab.py", "../share/cryptoshim/scripts/ab/ab.py"};
    const char *p = first_existing(path, sizeof path, rel, 2);
    if (p)
        *strrchr(path, '/') = 0; /* drop "/ab.py" */
    return p;
}
