/* Minimal TAP output for C unit tests: one "ok N - name" or "not ok N - name"
 * line per check, run by scripts/run-tests.sh; and the tests' seeded RNG.
 * Vector files are read with vectors.h. */
#ifndef CRYPTOSHIM_TAP_H
#define CRYPTOSHIM_TAP_H

#include <stddef.h>
#include <stdint.h>

/* Reports one check; returns cond. */
int tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan and returns the exit status (0 if all passed). */
int tap_done(void);

/* The whole main() of a test built where its subject does not exist (an
 * ISA folder of another architecture): one skip line, exit status 0. */
#define TAP_SKIP_MAIN(why)                                                    \
    int main(void)                                                            \
    {                                                                         \
        tap_skip("%s", why);                                                  \
        return tap_done();                                                    \
    }

/* Deterministic test RNG (xoshiro256**), seeded explicitly. */
void tap_rng_seed(uint64_t seed);
uint64_t tap_rng_u64(void);
void tap_rng_bytes(uint8_t *out, size_t len);

#endif
