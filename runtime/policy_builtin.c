/* The built-in dispatch policy: which kernel serves which operation and
 * modulus size on this architecture, decided from measurements on this CPU
 * class. A rule applies only where its kernel can run (CPU features,
 * CRYPTOSHIM_KERNELS) and, where it names features in its last field, only
 * on CPUs lacking all of them; the first applicable rule wins, and
 * "libcrypto" passes the call through. `cryptoshim calibrate` writes a file in the same
 * form for the machine it runs on (CRYPTOSHIM_POLICY). */
#include "dispatch.h"

const cs_policy_rule cs_policy_builtin[] = {
#if defined(__x86_64__)
    /* x86-64. Measured with `cryptoshim calibrate -t 1.5` on AMD EPYC (Zen 4:
     * AVX2, BMI2, ADX, AVX-512 IFMA), OpenSSL 3.0.22, 2026-11-30, on two cores
     * shared with other builds (load 5-7): median of 7 interleaved rounds,
     * microseconds per operation, libcrypto called through its own function
     * with the caller's BN_MONT_CTX. A rule applies only where its kernel can
     * run, so CPUs without AVX-512 IFMA fall through to the rules after
     * it (FMA kernel without ADX, else libcrypto; below).
     *
     * mod_exp, e = 65537 | full-length public exponent:
     *   1024  libcrypto 13.3 ifma 11.3 avx2 21.6 adx 33.7 mulx 37.7 | libcrypto 771 ifma 392
     *   1536  libcrypto 26.9 ifma 19.7 avx2 36.6                     | libcrypto 2384 ifma 1127
     *   2048  libcrypto 46.1 ifma 32.1 avx2 72.8                     | libcrypto 5282 ifma 2591
     *   3072  libcrypto 103  ifma 59.7 avx2 168                      | libcrypto 17988 ifma 7241
     *   4096  libcrypto 178  ifma 83.8 adx 384                       | libcrypto 43537 ifma 18996
     *   8192  libcrypto 752  adx 1542 mulx 2105 (no IFMA kernel)     | libcrypto 324140 adx 734210
     * mod_exp_consttime, full-length | 256-bit secret exponent:
     *   1024  libcrypto 818 ifma 443 avx2 1123     | libcrypto 237 ifma 116
     *   1536  libcrypto 2567 ifma 1255 avx2 3029   | libcrypto 485 ifma 226
     *   2048  libcrypto 6044 ifma 2554 avx2 7512   | libcrypto 898 ifma 361
     *   3072  libcrypto 23891 ifma 11828           | libcrypto 1502 ifma 768
     *   4096  libcrypto 34674 ifma 15074 adx 70665 | libcrypto 3160 ifma 1285
     *   8192  libcrypto 321311 adx 719777          | libcrypto 11568 adx 23677
     * A pair of full-length secret exps (RSA CRT halves): libcrypto's
     * BN_mod_exp_mont_consttime_x2 against two kernel calls (how the shim
     * serves a paired call no mod_exp_consttime_x2 rule decides):
     *   1024  libcrypto 651 ifma 894: libcrypto pairs the halves in its own
     *         AVX-512 IFMA code and wins, so single 1024-bit secret
     *         exponents stay with libcrypto (RSA-2048 signing goes through
     *         the paired call: next paragraph);
     *   1536  libcrypto 5148 ifma 2557; 2048 11997 / 5616; 3072 36718 /
     *   15543; 4096 81831 / 38991.
     * The IFMA kernel's paired entry (ifma_x2.c: both halves in one
     * 512-bit instruction stream, specialised squaring, the q chain on the
     * IFMA unit) against libcrypto's pair (`calibrate -t 1.5 -b 1024`
     * pair-x2, thread CPU time, 11:58-11:59 UTC, load 1.5-1.8): libcrypto
     * 213 ifma 204 us, libcrypto 258 ifma 217 us; openssl speed rsa2048
     * sign 1.18x with it against 1.13x with libcrypto's pair in the same
     * minutes (docs/benchmarks.md), so 987..1024-bit pairs go to it.
     * The microsecond figures above were wall-clock under load (calibrate
     * then timed CLOCK_MONOTONIC): ratios hold, absolute values are ~3x CPU
     * time.
     * The scalar ADX and MULX kernels lose to libcrypto's assembly at every
     * size. Without AVX-512, with ADX (Skylake/Zen 3 class: AVX-512 hidden
     * from both), libcrypto's MULX/ADX code beats the AVX2 (28-bit) and
     * AVX2+FMA (then 50-bit doubles) kernels everywhere (`calibrate -t 1`,
     * mod_exp_consttime full: 2048 libcrypto 1993 fma 2582 avx2 2819; 3072
     * 8111 / 6878 / 13961 but pair 12517 / 13698; 4096 14537 / 15727). Without
     * ADX either (Haswell class: OPENSSL_ia32cap=~0x0:~0xd02b0000,
     * CRYPTOSHIM_CPU=-adx,-avx512ifma) the FMA kernel (49-bit digits, both
     * high parts in one biased double, specialised squaring) beats
     * libcrypto's mulq code from 1025 bits up (`calibrate -t 0.5`,
     * 2026-11-30 11:20 UTC, load 2-4), libcrypto against fma:
     *   mod_exp e=65537 | full-length public exponent:
     *   1024  7.6 / 9.7 | 361 / 309;  1536  13.8 / 12.3 | 1156 / 781
     *   2048  23.4 / 18.8 | 2624 / 1655;  3072  49.4 / 31.9 | 8612 / 4905
     *   4096  88.7 / 52.3 | 20133 / 11213
     *   mod_exp_consttime full / 256-bit / pair:
     *   1024  230 / 111 / 465 against 324 / 87.9 / 657 (libcrypto's AVX2)
     *   1536  1209 / 228 / 2412 against 831 / 147 / 1713
     *   2048  2783 / 392 / 5643 against 1772 / 231 / 3503
     *   3072  9460 / 867 / 18486 against 5272 / 488 / 11008
     *   4096  21360 / 1520 / 43640 against 11333 / 853 / 23433
     * so on CPUs without ADX (and without IFMA, whose rules come first) the
     * FMA kernel serves 1025..4096 bits, public and secret exponents; at 1024
     * bits libcrypto's own AVX2 code wins. With ADX and without AVX-512
     * (OPENSSL_ia32cap=~0x0:~0xd0230000, CRYPTOSHIM_CPU=-avx512ifma) this
     * kernel now also measured ahead for secret exponents at 1536-4096 bits
     * (pair 1716/1660, 4045/3526, 13034/10817, 31666/23970), by less;
     * measured on this Zen 4 only, so no rule claims it for such CPUs. */
    {"mod_exp_consttime_x2", 987, 1024, "x86_64-ifma", ""},
    {"mod_exp", 512, 4096, "x86_64-ifma", ""},
    {"mod_exp", 1025, 4096, "x86_64-fma", "adx"},
    {"mod_exp", 0, 16384, "libcrypto", ""},
    {"mod_exp_consttime", 0, 1024, "libcrypto", ""},
    {"mod_exp_consttime", 1025, 4096, "x86_64-ifma", ""},
    {"mod_exp_consttime", 1025, 4096, "x86_64-fma", "adx"},
    {"mod_exp_consttime", 0, 16384, "libcrypto", ""},
    /* mod_exp2: a1^p1 * a2^p2 mod m with public exponents (BN_mod_exp2_mont,
     * DSA verification), the kernels' exp2 entry (xv_exp2: one squaring
     * chain, a sliding window per exponent) against libcrypto's function.
     * `calibrate -t 0.5`, 2026-11-30 14:01 UTC, load 1.7-1.9, microseconds
     * of thread CPU time, exponents of 160 bits | 256 bits | full length:
     *   1024  libcrypto 55.7 / 84.8 / 309   ifma 28.4 / 42.6 / 151
     *   1536  libcrypto 117 / 178 / 938     ifma 58.3 / 82.8 / 431
     *   2048  libcrypto 199 / 305 / 2117    ifma 82.2 / 125 / 874
     *   3072  libcrypto 440 / 654 / 6896    ifma 171 / 254 / 2732
     *   4096  libcrypto 746 / 1176 / 15930  ifma 285 / 449 / 6418
     * Haswell class (OPENSSL_ia32cap=~0x0:~0xd02b0000,
     * CRYPTOSHIM_CPU=-adx,-avx512ifma), libcrypto against fma:
     *   1024  76.2 / 119 / 428 against 57.3 / 88.8 / 323
     *   2048  295 / 447 / 3093 against 172 / 257 / 1900
     *   3072  653 / 983 / 10132 against 332 / 513 / 5322
     *   4096  1124 / 1705 / 23551 against 527 / 799 / 11477
     * Below 1024 bits (160-bit exponents, 20 ms batches, best of 7): the
     * IFMA kernel's generic multiplication loses up to 768 bits (512 0.49x,
     * 640 0.85x, 768 0.75x); from 831 bits (17 digits, its specialised
     * 5-vector code) it wins (832 2.41x, 960 2.90x). Sizes between the
     * specialised ones win by less (1280 1.05x, 2560 1.10x, 3584 1.18x;
     * libcrypto's 4-limb code is quick there). FMA on the Haswell class:
     * 512 0.77x, 640 1.02x, 768 1.21x, then 1.35-2.5x up to 4096. With ADX
     * and without AVX-512 (OPENSSL_ia32cap=~0x0:~0xd0230000,
     * CRYPTOSHIM_CPU=-avx512ifma) libcrypto wins at 1024 (55.0 against fma
     * 57.0 for 160 bits) and FMA leads by 1.13-1.39x from 1536 up; measured
     * on this Zen 4 only, so, as above, no rule claims it for such CPUs. */
    {"mod_exp2", 831, 4096, "x86_64-ifma", ""},
    {"mod_exp2", 768, 4096, "x86_64-fma", "adx"},
    {"mod_exp2", 0, 16384, "libcrypto", ""},
#else
#if defined(__sparc__) && !defined(__arch64__)
    /* 32-bit SPARC: a v8 CPU (MULDIV) gets the umul kernel, which replaces
     * libcrypto's software multiply in a v7 build (docs/oldhw.md: guest
     * instruction counts under qemu). Without MULDIV the rule does not apply
     * and calls pass through. */
    {"mod_exp", 256, 8192, "sparc_v8", ""},
    {"mod_exp_consttime", 256, 8192, "sparc_v8", ""},
#endif
    /* s390x: OpenSSL's own mlgr assembly is the competitor and no s390x
     * hardware was available to measure s390x_mlgr against it (emulated
     * timings do not count), so calls pass through unless
     * CRYPTOSHIM_KERNELS or a calibrated CRYPTOSHIM_POLICY says otherwise. */
    {"mod_exp", 0, 16384, "libcrypto", ""},
    {"mod_exp_consttime", 0, 16384, "libcrypto", ""},
#endif
};

const unsigned cs_policy_builtin_count = sizeof cs_policy_builtin / sizeof cs_policy_builtin[0];
