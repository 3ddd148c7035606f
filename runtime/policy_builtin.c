/* The built-in dispatch policy: which kernel serves which operation and
 * modulus size on this architecture, as policy-file text in the form
 * `cryptoshim calibrate` writes, parsed at start by the same parser
 * (runtime/policy_parse.c; no file, no output). A rule applies only where its
 * kernel can run (CPU features, CRYPTOSHIM_KERNELS) and, where it names
 * `!feature`s, only on CPUs lacking all of them; the first applicable rule
 * wins, and "libcrypto" passes the call through. The measurements behind
 * each rule: docs/benchmarks.md, "Built-in policy: the measurements behind
 * each rule". */
#include "dispatch.h"

const char cs_policy_builtin_text[] =
#if defined(__x86_64__)
    "# x86-64, measured on AMD EPYC (Zen 4: AVX2, BMI2, ADX, AVX-512 IFMA),\n"
    "# OpenSSL 3.0.22, 2026-11-30; Haswell and Skylake classes emulated with\n"
    "# CRYPTOSHIM_CPU and OPENSSL_ia32cap. Confirmed on an Intel Xeon with\n"
    "# AVX-512 IFMA, OpenSSL 3.0.19, 2026-12-01 (openssl speed shim/stock:\n"
    "# native 1.35-2.21x, Haswell class 1.00-1.37x; IFMA hidden with ADX\n"
    "# visible, libcrypto ahead except where the x86_64-adx lines say).\n"
    "# RSA CRT pairs at 987..1024 bits: the IFMA kernel's paired entry.\n"
    "mod_exp_consttime_x2 987 1024 x86_64-ifma\n"
    "# Public exponents: IFMA kernel; without ADX (Haswell class) the FMA\n"
    "# kernel above 1024 bits; else libcrypto.\n"
    "mod_exp 512 4096 x86_64-ifma\n"
    "mod_exp 1025 4096 x86_64-fma !adx\n"
    "# ADX without IFMA: measured only on an Intel Xeon (signature 000a0670)\n"
    "# with IFMA hidden, OpenSSL 3.0.19, 2026-12-01 (docs/benchmarks.md,\n"
    "# x86_64-adx at libcrypto's floor): rsa4096 verify 1.06-1.07x.\n"
    "mod_exp 4096 4096 x86_64-adx\n"
    "mod_exp 0 16384 libcrypto\n"
    "# Secret exponents: libcrypto up to 1024 bits (its paired AVX-512 code\n"
    "# wins there), then IFMA, or FMA without ADX.\n"
    "mod_exp_consttime 0 1024 libcrypto\n"
    "mod_exp_consttime 1025 4096 x86_64-ifma\n"
    "mod_exp_consttime 1025 4096 x86_64-fma !adx\n"
    "# ADX without IFMA (same Intel measurement): 2048 bits, ffdh2048 1.08-1.09x,\n"
    "# dsa2048 sign 1.08-1.12x, rsa4096 sign 0.97-1.00x (level).\n"
    "mod_exp_consttime 2048 2048 x86_64-adx\n"
    "mod_exp_consttime 0 16384 libcrypto\n"
    "# a1^p1 * a2^p2 (DSA verification): IFMA from 831 bits (its specialised\n"
    "# code), FMA from 768 bits without ADX.\n"
    "mod_exp2 831 4096 x86_64-ifma\n"
    "mod_exp2 768 4096 x86_64-fma !adx\n"
    "# ADX without IFMA (same Intel measurement): dsa2048 verify 1.06-1.11x.\n"
    "mod_exp2 2048 2048 x86_64-adx\n"
    "mod_exp2 0 16384 libcrypto\n"
#else
#if defined(__sparc__) && !defined(__arch64__)
    "# 32-bit SPARC: a v8 CPU (MULDIV) gets the umul kernel, replacing\n"
    "# libcrypto's software multiply in a v7 build (docs/oldhw.md). Without\n"
    "# MULDIV the rules do not apply and calls pass through.\n"
    "mod_exp 256 8192 sparc_v8\n"
    "mod_exp_consttime 256 8192 sparc_v8\n"
#endif
    "# Not measured against OpenSSL's own assembly on real hardware (s390x:\n"
    "# emulated timings do not count): calls pass through unless\n"
    "# CRYPTOSHIM_KERNELS or a calibrated CRYPTOSHIM_POLICY says otherwise.\n"
    "mod_exp 0 16384 libcrypto\n"
    "mod_exp_consttime 0 16384 libcrypto\n"
#endif
    "end\n";
