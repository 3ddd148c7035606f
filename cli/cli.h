/* Subcommands of build/cryptoshim, one file each. */
#ifndef CRYPTOSHIM_CLI_H
#define CRYPTOSHIM_CLI_H

/* Each returns the process exit status; argv[0] is the subcommand name. */
int cli_info(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_selftest(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_ab(int argc, char **argv);

#include <stdint.h>
#include <stdio.h>

#include "kernels/keccak/keccak.h" /* cs_shake256, for cli_kat_* */
/* calibrate's rules for ML-DSA, ML-KEM, Keccak and the curves, written to
 * out (cli/calibrate_impls.c): about `budget` seconds per implementation,
 * progress lines [step/steps] on stderr. Returns 0, or 1 if a measurement
 * failed. */
int cli_calibrate_impls(FILE *out, double budget, int *step, int steps, double t_start);

/* Parses s as a plain decimal number within lo..hi into *out; 0 if it is
 * not one (sign, exponent, trailing text, out of range). */
int cli_parse_number(const char *s, unsigned long lo, unsigned long hi, unsigned long *out);

/* `info`'s policy lines: source, when measured, what was ignored and why. */
void cli_info_policy(void);

/* The ML-DSA and ML-KEM known answers of `selftest` (cli/selftest_kat.c);
 * returns the number of failures. */
int cli_selftest_kats(void);
/* A family's known-answer computation: runs impl on parameter set ps from
 * fixed inputs, absorbing its outputs into st; nonzero when an operation
 * failed (cli/selftest_mldsa.c, cli/selftest_mlkem.c). */
int cli_kat_mldsa(const void *impl, int ps, cs_shake256 *st);
int cli_kat_mlkem(const void *impl, int ps, cs_shake256 *st);

/* Parts of `bench`, by area: each prints its own table, returns 0 on success. */
int cli_bench_bn(int argc, char **argv);
int cli_bench_mldsa(int argc, char **argv);
int cli_bench_mlkem(int argc, char **argv);
int cli_bench_c25519(int argc, char **argv);
int cli_bench_ed25519(int argc, char **argv);
/* Per-hook timings of each ML-DSA implementation (bench mldsa -k). */
int cli_bench_mldsa_hooks(void);

/* A bench's own option: a number within lo..hi following flag into
 * *value, or, with hi 0, the flag alone setting *value to 1. */
typedef struct cli_opt {
    const char *flag;
    unsigned long lo, hi;
    unsigned long *value;
} cli_opt;
/* Parses a bench's argv[1..]: the options every in-process bench takes,
 * -n N (calls per round, 1-1000000) into *n and -r ROUNDS (1-max_rounds)
 * into *rounds, and its own nopts opts. 0 on anything else or a bad value
 * (the caller prints its usage). */
int cli_bench_args(int argc, char **argv, unsigned *n, unsigned *rounds, unsigned max_rounds,
                   const cli_opt *opts, size_t nopts);
/* The family's (runtime/registry.h) implementations that may run here and
 * fit (fits NULL: all) into use, at most max; prints "NAME (not usable
 * here)", the name padded to width, for each other one. Returns how many. */
unsigned cli_bench_impls(int family, const void **use, unsigned max, int width,
                         int (*fits)(const void *impl));
/* Sorts the n tick counts of t and returns their median, t[n / 2]. */
uint64_t cli_median(uint64_t *t, unsigned n);
/* The same for the medians of a bench's rounds, writing their range
 * "lowest-highest" into range (size bytes). */
uint64_t cli_rounds_median(uint64_t *med, unsigned rounds, char *range, size_t size);

/* The interleaved rounds of a bench table: at most CLI_BENCH_MAX_IMPLS
 * implementations (libcrypto counting as one), CLI_BENCH_MAX_ROUNDS
 * rounds. */
#define CLI_BENCH_MAX_IMPLS 9
#define CLI_BENCH_MAX_ROUNDS 15
/* What one implementation measured: the median of its rounds' medians
 * (ticks), their range, its fastest single call (ticks), calls per second
 * of thread CPU time (0 when the bench does not time the CPU), whether a
 * call failed or answered wrong. */
typedef struct cli_bench_row {
    uint64_t median, best;
    char range[48];
    double per_sec;
    int failed;
} cli_bench_row;
/* One round of implementation k: n calls, ticks of call i into t[i], the
 * round's thread CPU seconds into *secs (may stay 0); nonzero on a failure. */
typedef int (*cli_bench_fn)(void *arg, unsigned k, unsigned n, uint64_t *t, double *secs);
/* Runs `rounds` rounds, each taking every one of nimpl implementations in
 * turn (interleaved, so a busy neighbour slows all alike), into
 * rows[0..nimpl-1]; t holds n ticks. Returns 1 when one failed. */
int cli_bench_rounds(cli_bench_fn fn, void *arg, unsigned nimpl, unsigned rounds, unsigned n,
                     uint64_t *t, cli_bench_row *rows);

/* Absolute path of build/libcryptoshim.so beside this executable (or the
 * installed lib dir); NULL if it cannot be found. */
const char *cli_library_path(void);
/* Absolute path of the A/B harness's directory, the one holding ab.py (ab/
 * in the source tree, share/cryptoshim/scripts/ab installed); NULL if none. */
const char *cli_ab_dir(void);

#endif
