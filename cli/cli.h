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

#include <stdio.h>
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

/* ML-DSA known answers for `selftest`; returns the number of failures. */
int cli_selftest_mldsa(void);
/* ML-KEM known answers for `selftest`; returns the number of failures. */
int cli_selftest_mlkem(void);

/* Parts of `bench`, by area: each prints its own table, returns 0 on success. */
int cli_bench_bn(int argc, char **argv);
int cli_bench_mldsa(int argc, char **argv);
int cli_bench_mlkem(int argc, char **argv);
int cli_bench_c25519(int argc, char **argv);
int cli_bench_ed25519(int argc, char **argv);
/* Per-hook timings of each ML-DSA implementation (bench mldsa -k). */
int cli_bench_mldsa_hooks(void);

/* Absolute path of build/libcryptoshim.so beside this executable (or the
 * installed lib dir); NULL if it cannot be found. */
const char *cli_library_path(void);
/* Absolute path of the A/B harness's directory, the one holding ab.py (ab/
 * in the source tree, share/cryptoshim/scripts/ab installed); NULL if none. */
const char *cli_ab_dir(void);

#endif
