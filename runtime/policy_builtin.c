/* The built-in dispatch policy: which kernel serves which operation and
 * modulus size on this architecture, as policy-file text in the form
 * `cryptoshim calibrate` writes, parsed at start by the same parser
 * (runtime/policy_parse.c; no file, no output). A rule applies only where its
 * kernel can run (CPU features, CRYPTOSHIM_KERNELS) and, where it names
 * `!feature`s, only on CPUs lacking all of them (`+feature`s: having all of
 * them), and where it names `@family`s only for calls from libcryptos of
 * those families (runtime/family.h); the first applicable rule
 * wins, and "libcrypto" passes the call through. The measurements behind
 * each rule: docs/benchmarks.md, "Built-in policy: the measurements behind
 * each rule". */
#include "policy.h"

const char cs_policy_builtin_text[] =
#if defined(__x86_64__)
    "# x86-64, measured on AMD EPYC (Zen 4: AVX2, BMI2, ADX, AVX-512 IFMA),\n"
    "# OpenSSL 3.0.22, 2026-11-30; Haswell and Skylake classes emulated with\n"
    "# CRYPTOSHIM_CPU and OPENSSL_ia32cap. Confirmed on an Intel Xeon with\n"
    "# AVX-512 IFMA, OpenSSL 3.0.19, 2026-12-01 (openssl speed shim/stock:\n"
    "# native 1.35-2.21x, Haswell class 1.00-1.37x). IFMA hidden with ADX\n"
    "# visible (Skylake-SP/Cascade Lake class): the rules naming x86_64-fma\n"
    "# or x86_64-adx without !adx, measured on that Intel only (IFMA hidden,\n"
    "# 2026-12-02, calibrate over libcrypto's MULX code: FMA 1.10-1.59x from\n"
    "# 1025 bits for secret exponents and a1^p1*a2^p2, 1.17-1.56x from 1537\n"
    "# for public ones; ADX's straight-line 16-limb code 1.10x for 1024-bit\n"
    "# a1^p1*a2^p2, level with libcrypto for 1024-bit secret exponents); not\n"
    "# measured on AMD Zen 2/3. Rules without @family: measured against 3.0,\n"
    "# and checked against 3.5.9, 3.6.5 and 4.0.3 on AMD Zen 5 (family 26) in\n"
    "# native, noifma, haswell and avx512f modes (make bench-matrix,\n"
    "# 2026-12-04: no cell below 0.97x).\n"
    "# RSA CRT pairs: the IFMA kernel's paired entry at 987..1024, 1455..1662\n"
    "# and 1871..2078 bits (RSA-2048, -3072, -4096 halves). On AMD Zen 5\n"
    "# against OpenSSL 3.5's own paired IFMA code (issue 25, bn_rate x2):\n"
    "# 1.43x at 1024, 1.81x at 1536, 1.95x at 2048 per pair (3.0: 4.2x, 4.8x\n"
    "# at 1536, 2048), and 6.7-7.9x between (where stock has no pair).\n"
    "mod_exp_consttime_x2 987 1024 x86_64-ifma\n"
    "mod_exp_consttime_x2 1455 1662 x86_64-ifma\n"
    "mod_exp_consttime_x2 1871 2078 x86_64-ifma\n"
    "# AVX-512F without IFMA (Skylake-SP/Cascade Lake class; Intel Xeon model\n"
    "# 167 with IFMA hidden, 2026-12-04): the 512-bit FMA kernel's paired\n"
    "# entry for RSA-2048 and -3072 halves, 1.54x and 1.40x libcrypto 3.0's\n"
    "# two MULX calls (calibrate -t 0.5); at 2048 bits its pair is level with\n"
    "# two of its single calls, which the rules below give it.\n"
    "mod_exp_consttime_x2 987 1038 x86_64-fma512 !avx512ifma @3.0,3.2+\n"
    "mod_exp_consttime_x2 1455 1662 x86_64-fma512 !avx512ifma @3.0,3.2+\n"
    "# Public exponents: IFMA kernel; without ADX (Haswell class) the FMA\n"
    "# kernel above 1024 bits, with ADX above 1536; else libcrypto.\n"
    "mod_exp 512 4096 x86_64-ifma\n"
    "# AVX-512F without IFMA: the 512-bit FMA kernel from 1025 bits (1.14x\n"
    "# libcrypto at 1536, 1.41-1.59x above; Intel model 167).\n"
    "mod_exp 1025 4096 x86_64-fma512 !avx512ifma\n"
    "mod_exp 1025 4096 x86_64-fma !adx\n"
    "mod_exp 1537 4096 x86_64-fma\n"
    "mod_exp 0 16384 libcrypto\n"
    "# Secret exponents: libcrypto up to 1024 bits (its paired AVX-512 code\n"
    "# wins there, and without IFMA its MULX code is level with ADX's), then\n"
    "# IFMA, or FMA.\n"
    "# Without IFMA, 961..1024-bit secret exponents (RSA-2048 halves, DSA-1024)\n"
    "# on the ADX kernel's straight-line code: on AMD Zen 5 with IFMA hidden\n"
    "# (noifma and avx512f modes, OpenSSL 3.0) RSA-2048 sign 1.15x, DSA-1024\n"
    "# sign 1.13x (issue 28); level with libcrypto on the Intel Xeon (481\n"
    "# against 484 us). Not measured against 1.1.1.\n"
    "mod_exp_consttime 961 1024 x86_64-adx !avx512ifma @3.0,3.2+\n"
    "mod_exp_consttime 0 1024 libcrypto\n"
    "mod_exp_consttime 1025 4096 x86_64-ifma\n"
    "# AVX-512F without IFMA: 1.32x libcrypto at 1536, 1.64-1.67x above, and\n"
    "# 1.06-1.27x the 256-bit FMA kernel (Intel model 167).\n"
    "mod_exp_consttime 1025 4096 x86_64-fma512 !avx512ifma\n"
    "mod_exp_consttime 1025 4096 x86_64-fma\n"
    "mod_exp_consttime 0 16384 libcrypto\n"
    "# a1^p1 * a2^p2 (DSA verification): IFMA from 831 bits (its specialised\n"
    "# code), FMA from 768 bits without ADX; with it, ADX at 961-1024 bits\n"
    "# (its straight-line code) and FMA from 1025.\n"
    "mod_exp2 831 4096 x86_64-ifma\n"
    "# AVX-512F without IFMA: 1.40x libcrypto at 1536, 1.73-1.75x above.\n"
    "mod_exp2 1025 4096 x86_64-fma512 !avx512ifma\n"
    "mod_exp2 768 4096 x86_64-fma !adx\n"
    "mod_exp2 961 1024 x86_64-adx\n"
    "mod_exp2 1025 4096 x86_64-fma\n"
    "mod_exp2 0 16384 libcrypto\n"
    "# ML-DSA (bits: the parameter set). avx512 over avx2 1.34-1.60x\n"
    "# through OpenSSL 3.5 on AMD Zen 5 (family 26), also ahead on the Intel\n"
    "# Xeon model 167 (both with IFMA); never measured on AVX-512 CPUs without IFMA\n"
    "# (Skylake-SP, Cascade Lake), which keep avx2 until measured (the table\n"
    "# itself needs only F, VL and BW). avx2 and the portable C serve every\n"
    "# CPU else (libcrypto's ML-DSA is slower than either).\n"
    "mldsa 0 16384 avx512 +avx512ifma\n"
    "mldsa 0 16384 avx2\n"
    "mldsa 0 16384 portable\n"
    "# ML-KEM: faster than libcrypto's own on AMD Zen 5 (OpenSSL 3.5.9, 3.6.5,\n"
    "# 4.0.3: avx2 2.6-4.3x, avx512 2.8-5.4x) and the Intel Xeon model 167\n"
    "# (3.5.9, prepared keys: avx2 3.1-7.6x, avx512 3.9-10.3x); avx512 as\n"
    "# for ML-DSA only with IFMA until measured without. The portable C is\n"
    "# slower than libcrypto's: libcrypto serves where neither runs.\n"
    "mlkem 0 16384 avx512 +avx512ifma\n"
    "mlkem 0 16384 avx2\n"
    "mlkem 0 16384 libcrypto\n"
    "# Keccak outside the ML-DSA/ML-KEM tables (streamed mu, H(pk), H(ek)):\n"
    "# the table of the ML-DSA implementation above, as before the registry.\n"
    "keccak 0 16384 avx512 +avx512ifma\n"
    "keccak 0 16384 avx2\n"
    "keccak 0 16384 portable\n"
    "# X25519/Ed25519 (bits: 25519): the MULX/ADX table, measured faster than\n"
    "# libcrypto's own X25519 (derive, keygen) on AMD EPYC Zen 3 (issue 36,\n"
    "# docs/benchmarks.md); without ADX libcrypto's own. Not yet measured\n"
    "# per CPU class beyond that: the kernel helpers' rules replace these.\n"
    "c25519 0 65535 x86_64-adx\n"
    "c25519 0 65535 libcrypto\n"
#else
#if defined(__sparc__) && !defined(__arch64__)
    "# 32-bit SPARC: a v8 CPU (MULDIV) gets the umul kernel, replacing\n"
    "# libcrypto's software multiply in a v7 build (docs/oldhw.md). Without\n"
    "# MULDIV the rules do not apply and calls pass through.\n"
    "mod_exp 256 8192 sparc_v8\n"
    "mod_exp_consttime 256 8192 sparc_v8\n"
#endif
#if defined(__s390x__)
    "# s390x: ML-DSA is served by the provider on s390x_vx (vector NTT and\n"
    "# products; the mldsa rules below): under qemu-s390x\n"
    "# it executes 5.0-6.0x fewer guest instructions per signature than\n"
    "# OpenSSL 4.0.3's and 3.6.5's own, 5.9-7.6x per verification, 1.7-2.3x\n"
    "# per key (Debian s390x builds, Keccak in software on both sides; make\n"
    "# s390x-e2e, 2026-12-07, docs/oldhw.md). s390x_mlgr executes 1.4-1.9x\n"
    "# more instructions than OpenSSL's s390x Montgomery assembly there and\n"
    "# was never timed on a real machine: modular exponentiation stays with\n"
    "# libcrypto.\n"
#endif
    "# Not measured against OpenSSL's own assembly on real hardware (s390x:\n"
    "# emulated timings do not count): calls pass through unless\n"
    "# CRYPTOSHIM_KERNELS or a calibrated CRYPTOSHIM_POLICY says otherwise.\n"
    "mod_exp 0 16384 libcrypto\n"
    "mod_exp_consttime 0 16384 libcrypto\n"
#if defined(__s390x__)
    "# s390x: the vector ML-DSA tables (with CPACF SHAKE where the CPU has\n"
    "# it) and the Keccak of the table chosen, as before the registry (not\n"
    "# timed on hardware).\n"
    "mldsa 0 16384 s390x_vx_cpacf\n"
    "mldsa 0 16384 s390x_vx\n"
    "keccak 0 16384 s390x_cpacf +vx\n"
    "keccak 0 16384 s390x_vx\n"
#endif
    "# ML-DSA: the portable C, as before the registry; ML-KEM: libcrypto's\n"
    "# own (the portable C is slower).\n"
    "mldsa 0 16384 portable\n"
    "mlkem 0 16384 libcrypto\n"
    "keccak 0 16384 portable\n"
    "c25519 0 65535 libcrypto\n"
#endif
    "end\n";

const char cs_policy_builtin_origin[] =
#if defined(__x86_64__)
    "big numbers measured on AMD EPYC Zen 4 (family 25 model 17), 2026-11-30, confirmed on an "
    "Intel Xeon model 167 with IFMA, 2026-12-01;\n"
    "                   RSA CRT pairs and per-libcrypto-family rules, OpenSSL 3.5-4.0 checks: "
    "AMD EPYC Zen 5 (family 26), 2026-12-04;\n"
    "                   AVX-512F without IFMA: the Intel Xeon model 167 with IFMA hidden, "
    "2026-12-02..04;\n"
    "                   ML-DSA, ML-KEM: AMD EPYC Zen 5 and the Intel Xeon model 167 (AVX-512 "
    "without IFMA not measured: avx2 there);\n"
    "                   X25519/Ed25519: AMD EPYC Zen 3 (family 25 model 1)";
#elif defined(__s390x__)
    "s390x: ML-DSA on s390x_vx by default, from guest instruction counts under qemu-s390x "
    "against OpenSSL 4.0.3 with Keccak in software on both sides (not timed on hardware); "
    "modular exponentiation with libcrypto, s390x_mlgr only when forced (not measured on "
    "hardware)";
#elif defined(__sparc__) && !defined(__arch64__)
    "32-bit SPARC: sparc_v8 where the CPU has MULDIV, from guest instruction counts under qemu "
    "against a v7-built OpenSSL (not timed on hardware)";
#else
    "no measurements for this architecture: calls pass through unless forced";
#endif
