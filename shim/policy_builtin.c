/* The built-in dispatch policy: which kernel serves which operation and
 * modulus size on this architecture, decided from measurements on this CPU
 * class. A rule applies only where its kernel can run (CPU features,
 * CRYPTOSHIM_KERNELS); the first applicable rule wins, and "libcrypto"
 * passes the call through. `cryptoshim calibrate` writes a file in the same
 * form for the machine it runs on (CRYPTOSHIM_POLICY). */
#include "dispatch.h"

const cs_policy_rule cs_policy_builtin[] = {
#if defined(__x86_64__)
    /* libcrypto's assembly (MULX/ADX, AVX2, AVX-512 IFMA) beats the portable C
     * kernel at every size on x86-64, so by default everything passes
     * through until a faster x86-64 kernel is measured here. */
    {"mod_exp", 0, 16384, "libcrypto"},
    {"mod_exp_consttime", 0, 16384, "libcrypto"},
#else
#if defined(__sparc__) && !defined(__arch64__)
    /* 32-bit SPARC: a v8 CPU (MULDIV) gets the umul kernel, which replaces
     * libcrypto's software multiply in a v7 build (docs/oldhw.md: guest
     * instruction counts under qemu). Without MULDIV the rule does not apply
     * and calls pass through. */
    {"mod_exp", 256, 8192, "sparc_v8"},
    {"mod_exp_consttime", 256, 8192, "sparc_v8"},
#endif
    /* s390x: OpenSSL's own mlgr assembly is the competitor and no s390x
     * hardware was available to measure s390x_mlgr against it (emulated
     * timings do not count), so calls pass through unless
     * CRYPTOSHIM_KERNELS or a calibrated CRYPTOSHIM_POLICY says otherwise. */
    {"mod_exp", 0, 16384, "libcrypto"},
    {"mod_exp_consttime", 0, 16384, "libcrypto"},
#endif
};

const unsigned cs_policy_builtin_count = sizeof cs_policy_builtin / sizeof cs_policy_builtin[0];
