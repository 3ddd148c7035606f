/* What every fuzz target of tests/fuzz shares: stopping the run on a
 * finding with one line the smoke run and the campaign report
 * (tests/fuzz/smoke.sh greps DIVERGENCE). Header-only. */
#ifndef CRYPTOSHIM_FUZZ_COMMON_H
#define CRYPTOSHIM_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Stops the run (a finding): "DIVERGENCE (<who>): <what>" on stderr, who
 * printed from fmt and its arguments, then abort. */
static void __attribute__((noreturn, format(printf, 2, 3), unused))
fuzz_diverged(const char *what, const char *fmt, ...)
{
    va_list ap;
    fputs("DIVERGENCE (", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "): %s\n", what);
    abort();
}

/* Stops the run as fuzz_diverged(what, fmt, ...) does if ok is false. */
#define FUZZ_EXPECT(ok, what, ...)                                                                 \
    do {                                                                                           \
        if (!(ok))                                                                                 \
            fuzz_diverged((what), __VA_ARGS__);                                                    \
    } while (0)

#endif
