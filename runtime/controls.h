/* Environment controls, read once in the constructor with secure_getenv (so
 * ignored in secure-execution processes), and the CPU features they mask. */
#ifndef CRYPTOSHIM_CONTROLS_H
#define CRYPTOSHIM_CONTROLS_H

#include <stdint.h>

/* Reads CRYPTOSHIM_* and detects the CPU; called by the constructor and by
 * the CLI. Safe to call more than once (later calls re-read; forced kernels,
 * CRYPTOSHIM_DISABLE and CPU masks reach the decision table when the caller
 * then rebuilds it, cs_dispatch_refresh: controls sit below dispatch). */
void cs_controls_load(void);

/* CRYPTOSHIM_DISABLE=1: pass everything through. */
int cs_disabled(void);
/* CRYPTOSHIM_KERNELS=a,b given: in each family it names, only these
 * implementations, and they serve every call they support whatever the
 * policy says (for tests and A/B runs; runtime/registry.h says how an entry,
 * `family:name` or a bare name, applies to the families). */
int cs_kernels_forced(void);

/* The i-th distinct entry of CRYPTOSHIM_KERNELS as written (any length of
 * value), or NULL past the end. */
const char *cs_kernel_listed(unsigned i);
/* What in CRYPTOSHIM_* was not understood or not applied, or "" (shown by
 * `cryptoshim info`; the shim itself never prints). */
const char *cs_controls_note(void);

/* Features the CPU has, as detected (cpuid/xgetbv, getauxval). */
uint32_t cs_cpu_detected(void);
/* Detected minus those hidden by CRYPTOSHIM_CPU=-adx,-bmi2,..., and minus
 * what needs a hidden feature (-avx2 also hides fma and every avx512 bit;
 * -avx512f also hides avx512vl, avx512bw and avx512ifma). */
uint32_t cs_cpu_features(void);
/* Name of a feature bit ("avx2"), or NULL. */
const char *cs_cpu_feature_name(uint32_t bit);

/* CRYPTOSHIM_ROUTE=method: take the method route in every libcrypto, for
 * tests (docs/routes.md). Read here only. */
int cs_controls_route_method(void);

/* CRYPTOSHIM_POLICY, or NULL when unset (then /etc/cryptoshim/policy if
 * installed, else the built-in table); "builtin" names the built-in table. */
const char *cs_policy_path(void);

#endif
