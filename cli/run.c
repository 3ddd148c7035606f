/* `cryptoshim run -- CMD ARGS`: run CMD with the shim appended to LD_PRELOAD,
 * wait for it, and warn once on stderr when the shim could hook nothing in
 * it (read from the route notes the library writes to its stats file; a
 * private one in a temporary directory when CRYPTOSHIM_STATS is unset). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t child_pid;

/* Passes a signal sent to this process (kill, not the terminal, which
 * signals the child's process group itself) on to the child; the parent
 * then exits the way the child does. */
static void forward(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    if (child_pid > 0 && (info->si_code == SI_USER || info->si_code == SI_QUEUE))
        kill((pid_t)child_pid, sig);
}

/* Whether one "# route ...: ..." note line says something was hooked: a
 * symbol route, an installed method, or the ML-DSA provider route. */
static int line_hooked(const char *l)
{
    const char *m = strstr(l, "modexp method (");
    return strstr(l, "modexp symbols") || strstr(l, "ml-dsa provider") ||
           (m && (strstr(m, " rsa ") || strstr(m, " dh ") || strstr(m, " dsa ")));
}

/* Reads the route notes of the stats file through `cryptoshim stats` and
 * warns when none shows a hook. */
static void warn_if_dormant(const char *stats, const char *cmd)
{
    char self[4096], line[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return;
    self[n] = 0;
    char *argv[] = {self, "stats", (char *)stats, NULL};
    int fd[2];
    if (pipe(fd))
        return;
    pid_t p = fork();
    if (p == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        unsetenv("LD_PRELOAD");
        execv(self, argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = p > 0 ? fdopen(fd[0], "r") : NULL;
    if (!f) {
        close(fd[0]);
        return;
    }
    int hooked = 0, routes = 0;
    char notes[2048] = "";
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# route", 7))
            continue;
        routes++;
        hooked |= line_hooked(line) != 0;
        if (strlen(notes) + strlen(line) + 4 < sizeof notes) {
            strcat(notes, "  ");
            strcat(notes, line + 2);
        }
    }
    fclose(f);
    waitpid(p, NULL, 0);
    if (!hooked)
        fprintf(stderr,
                "cryptoshim run: nothing was hooked in %s: %s\n%s"
                "(cryptoshim info shows each libcrypto's route and why)\n",
                cmd, routes ? "the shim stayed dormant" : "no libcrypto route was recorded",
                notes);
}

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
    /* The route notes need a stats file: a private one unless the user
     * named theirs. */
    char dir[] = "/tmp/cryptoshim-run.XXXXXX", own[sizeof dir + 8];
    const char *stats = getenv("CRYPTOSHIM_STATS");
    int private_stats = !stats || !*stats;
    if (private_stats) {
        if (!mkdtemp(dir))
            private_stats = 0, stats = NULL;
        else {
            snprintf(own, sizeof own, "%s/stats", dir);
            stats = own;
        }
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "cryptoshim run: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        setenv("LD_PRELOAD", val, 1);
        if (private_stats)
            setenv("CRYPTOSHIM_STATS", stats, 1);
        execvp(argv[i], argv + i);
        fprintf(stderr, "cryptoshim run: %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    struct sigaction sa = {.sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    static const int forwarded[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t k = 0; k < sizeof forwarded / sizeof forwarded[0]; k++) {
        struct sigaction prev;
        /* A signal this process was started ignoring stays ignored. */
        if (!sigaction(forwarded[k], NULL, &prev) && prev.sa_handler != SIG_IGN)
            sigaction(forwarded[k], &sa, NULL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 127) && stats)
        warn_if_dormant(stats, argv[i]);
    if (private_stats) {
        unlink(stats);
        rmdir(dir);
    }
    free(val);
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
