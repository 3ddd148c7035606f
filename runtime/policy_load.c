/* Which policy file a process trusts, and reading it without blocking. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/policy.h"

/* Whole file, checked and NUL-terminated (static: the constructor may run on
 * a small thread stack when the library is dlopen()ed as a provider). */
/* Our own errno-like code for "exists but is no regular file". */
#define EFTYPE_NOT_REGULAR (-2)

static char text[CS_POLICY_MAX_BYTES + 1];

/* Why a stat result is not trusted as a policy (NULL when it is). */
static const char *untrusted(const struct stat *st, int allow_self, char *buf, size_t cap)
{
    if (!S_ISREG(st->st_mode))
        return "not a regular file";
    if (st->st_uid != 0 && !(allow_self && st->st_uid == geteuid())) {
        snprintf(buf, cap, "owned by uid %u, not root%s", (unsigned)st->st_uid,
                 allow_self ? " or this user" : "");
        return buf;
    }
    if (st->st_mode & 022)
        return "writable by group or others";
    return NULL;
}

/* Opens, checks and reads one file, parses it; -1 with the reason in why. */
static int load_file(const char *path, int is_system, cs_policy_rule *rules, unsigned max,
                     cs_policy_meta *meta, char *why, size_t cap)
{
    char buf[96];
    const char *bad = NULL;
    int dirfd = AT_FDCWD;
    const char *name = path;
    struct stat st;
    if (is_system) {
        /* The directory too: whoever can write it can replace the file. */
        const char *slash = strrchr(path, '/');
        char dir[256];
        if (!slash || (size_t)(slash - path) >= sizeof dir)
            return snprintf(why, cap, "bad path"), -1;
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = 0;
        dirfd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dirfd < 0)
            return snprintf(why, cap, "%s", errno == ENOENT ? "" : strerror(errno)), -1;
        if (fstat(dirfd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022)) {
            close(dirfd);
            return snprintf(why, cap, "its directory is not root's alone"), -1;
        }
        name = slash + 1;
    }
    /* Look before opening: opening a device can have effects of its own. */
    int fd = -1, err = ELOOP;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        err = errno;
    else if (S_ISLNK(st.st_mode))
        err = ELOOP;
    else if (!S_ISREG(st.st_mode))
        err = EFTYPE_NOT_REGULAR;
    else {
        fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
        err = errno;
    }
    if (dirfd != AT_FDCWD)
        close(dirfd);
    if (fd < 0) {
        if (err == ENOENT && is_system)
            return why[0] = 0, -1; /* none installed: not worth a note */
        return snprintf(why, cap, "%s",
                        err == ELOOP                 ? "a symbolic link"
                        : err == EFTYPE_NOT_REGULAR ? "not a regular file"
                                                    : strerror(err)),
               -1;
    }
    if (fstat(fd, &st) < 0)
        bad = strerror(errno);
    else if (!(bad = untrusted(&st, !is_system, buf, sizeof buf)) && st.st_size > CS_POLICY_MAX_BYTES)
        bad = "larger than 65536 bytes";
    size_t len = 0;
    while (!bad && len <= (size_t)st.st_size) {
        ssize_t n = pread(fd, text + len, sizeof text - 1 - len, (off_t)len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            bad = strerror(errno);
        if (n <= 0)
            break;
        len += (size_t)n;
        if (len == sizeof text - 1)
            break;
    }
    close(fd);
    if (!bad && len != (size_t)st.st_size)
        bad = "changed while being read";
    if (bad)
        return snprintf(why, cap, "%s", bad), -1;
    text[len] = 0;
    char perr[96];
    int n = cs_policy_parse_text(text, len, rules, max, meta, perr, sizeof perr);
    if (n < 0)
        return snprintf(why, cap, "%s", perr), -1;
    char sig[128];
    cs_cpu_signature(sig, sizeof sig);
    if (is_system && !meta->cpu[0])
        return snprintf(why, cap, "no `cpu` line (not written by calibrate --install)"), -1;
    if (meta->cpu[0] && strcmp(meta->cpu, sig))
        return snprintf(why, cap, "measured on another CPU (%.60s; this one is %.60s)", meta->cpu,
                        sig),
               -1;
    return n;
}

int cs_policy_load(const char *env_path, const char *system_path, cs_policy_rule *rules,
                   unsigned max, cs_policy_status *status)
{
    memset(status, 0, sizeof *status);
    snprintf(status->source, sizeof status->source, "built-in");
    const char *path = env_path ? env_path : system_path;
    if (!path || !*path || !strcmp(path, "builtin"))
        return -1;
    cs_policy_meta meta;
    char why[256] = "";
    int n = load_file(path, !env_path, rules, max, &meta, why, sizeof why);
    if (n < 0) {
        if (why[0])
            snprintf(status->note, sizeof status->note, "%.120s ignored (built-in table used): %s",
                     path, why);
        return -1;
    }
    snprintf(status->source, sizeof status->source, "%s", path);
    snprintf(status->measured, sizeof status->measured, "%s", meta.measured);
    return n;
}
