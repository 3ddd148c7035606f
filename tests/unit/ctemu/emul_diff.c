/* Faithfulness of the AVX-512 emulation used by the constant-time check
 * (tests/unit/ctemu/avx512_emul.h, mk/ctemu.mk): on a CPU with AVX-512 IFMA,
 * each emulated intrinsic against the instruction, then the emulated builds
 * of the AVX-512 kernels (global symbols prefixed ctemu_) against the native
 * builds on the same inputs: IFMA Montgomery products and exponentiations at
 * every size class, the 4-, 8- and 8+1-way Keccaks, ML-DSA keygen and
 * signing through the "avx512" table, the X25519 IFMA ladder and the Ed25519
 * IFMA double-scalar multiplication. Same
 * outputs means the code valgrind checks in ct_*_avx512emu computes what
 * the shipped code computes. Skips elsewhere. Prints TAP. */
#include <string.h>

#include "../../../kernels/bn/bn_kernel.h"
#include "../../../kernels/bn/x86_64/x86_kernels.h"
#include "../../../kernels/mldsa/mldsa_backend.h"
#include "../../../kernels/mlkem/x86_64/mlkem_x86.h"
#include "runtime/cpu.h"
#include "../support/tap.h"
#include "../support/rand_limbs.h"
#include "emul.h"

/* Native (kernels/mldsa/x86_64/avx2.h, which needs AVX2 flags) and emulated. */
extern const cs_mldsa_impl cs_mldsa_avx512;
void cs_keccakf1600_x4_avx512(uint64_t s[100]);
void cs_keccakf1600_x8_avx512(uint64_t s[200]);
void cs_keccakf1600_x8x1_avx512(uint64_t s8[200], uint64_t s1[25]);
CS_MLDSA_DECLARE_REJ(, avx512);
CS_MLDSA_DECLARE_REJ(ctemu_, avx512);
extern const cs_bn_kernel ctemu_cs_bn_x86_ifma;
extern const cs_bn_kernel ctemu_cs_bn_x86_fma512;
extern const cs_mldsa_impl ctemu_cs_mldsa_avx512;
void ctemu_cs_keccakf1600_x4_avx512(uint64_t s[100]);
void ctemu_cs_keccakf1600_x8_avx512(uint64_t s[200]);
void ctemu_cs_keccakf1600_x8x1_avx512(uint64_t s8[200], uint64_t s1[25]);

/* The ML-KEM avx512 arithmetic (ntt_avx512.c, poly_avx512.c), emulated. */
CS_MLKEM_DECLARE_ARITH(ctemu_, avx512);
unsigned ctemu_cs_mlkem_rej_uniform_avx512(int16_t *r, unsigned have, const uint8_t *buf,
                                           size_t len);

/* The x86_64-ifma X25519 ladder (kernels/c25519/x86_64/ladder_ifma.c). */
void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);
void ctemu_cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);
/* Its Ed25519 double-scalar multiplication (double_mul_ifma.c). */
void cs_c25519_ifma_double_mul(uint64_t xyz[12], const int8_t na[256], const uint64_t A[16],
                               const int8_t nb[256]);
void ctemu_cs_c25519_ifma_double_mul(uint64_t xyz[12], const int8_t na[256],
                                     const uint64_t A[16], const int8_t nb[256]);

static cs_mont mont;

/* Native nat and emulated emu (IFMA, fma512) on one random modulus of
 * `bits` bits: mont_mul, mont_sqr, secret- and public-exponent exp;
 * returns whether all agree. */
static int bn_case(const cs_bn_kernel *nat, const cs_bn_kernel *emu, unsigned bits, size_t ebits)
{
    size_t n = (bits + 63) / 64, el = (ebits + 63) / 64;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS];
    cs_limb e[CS_BN_MAX_EXP_BITS / 64], r1[CS_BN_MAX_LIMBS], r2[CS_BN_MAX_LIMBS];
    rand_odd_limbs(m, n, bits);
    if (cs_mont_init(&mont, m, n))
        return 0;
    rand_odd_limbs(a, n, bits - 1);
    rand_odd_limbs(b, n, bits - 1);
    rand_odd_limbs(e, el, (unsigned)ebits);
    int ok = 1;
    nat->mont_mul(r1, a, b, &mont);
    emu->mont_mul(r2, a, b, &mont);
    ok &= !memcmp(r1, r2, n * sizeof(cs_limb));
    nat->mont_sqr(r1, a, &mont);
    emu->mont_sqr(r2, a, &mont);
    ok &= !memcmp(r1, r2, n * sizeof(cs_limb));
    for (int ct = 0; ct < 2; ct++) {
        int rc1 = nat->exp(r1, a, e, ebits, &mont, ct);
        int rc2 = emu->exp(r2, a, e, ebits, &mont, ct);
        ok &= rc1 == rc2 && (rc1 != 0 || !memcmp(r1, r2, n * sizeof(cs_limb)));
    }
    return ok;
}

/* The paired entry (exp_x2), native nat vs emulated emu, two random
 * moduli of `bits` bits with full-length secret exponents; whether
 * results agree. */
static int bn_x2_case(const cs_bn_kernel *nat, const cs_bn_kernel *emu, unsigned bits)
{
    static cs_mont mt[2];
    size_t n = (bits + 63) / 64;
    cs_limb m[2][CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS];
    cs_limb r1[2][CS_BN_MAX_LIMBS], r2[2][CS_BN_MAX_LIMBS];
    if (!nat->exp_x2 || !emu->exp_x2)
        return 0;
    for (int h = 0; h < 2; h++) {
        rand_odd_limbs(m[h], n, bits);
        if (cs_mont_init(&mt[h], m[h], n))
            return 0;
        rand_odd_limbs(a[h], n, bits - 1);
        rand_odd_limbs(e[h], n, bits);
    }
    int rc1 = nat->exp_x2(r1[0], a[0], e[0], bits, &mt[0], r1[1], a[1], e[1], bits, &mt[1]);
    int rc2 = emu->exp_x2(r2[0], a[0], e[0], bits, &mt[0], r2[1], a[1], e[1], bits, &mt[1]);
    return rc1 == 0 && rc2 == 0 && (!memcmp(r1[0], r2[0], n * sizeof(cs_limb)) &&
                                    !memcmp(r1[1], r2[1], n * sizeof(cs_limb)));
}

/* Random states through native and emulated Keccaks; whether all agree. */
static int keccak_cases(unsigned iters)
{
    static uint64_t s1[200], s2[200];
    uint64_t t1[25], t2[25];
    int ok = 1;
    for (unsigned i = 0; i < iters; i++) {
        tap_rng_bytes((uint8_t *)s1, sizeof s1);
        tap_rng_bytes((uint8_t *)t1, sizeof t1);
        memcpy(s2, s1, sizeof s1);
        memcpy(t2, t1, sizeof t1);
        switch (i % 3) {
        case 0:
            cs_keccakf1600_x4_avx512(s1);
            ctemu_cs_keccakf1600_x4_avx512(s2);
            break;
        case 1:
            cs_keccakf1600_x8_avx512(s1);
            ctemu_cs_keccakf1600_x8_avx512(s2);
            break;
        default:
            cs_keccakf1600_x8x1_avx512(s1, t1);
            ctemu_cs_keccakf1600_x8x1_avx512(s2, t2);
        }
        ok &= !memcmp(s1, s2, sizeof s1) && !memcmp(t1, t2, sizeof t1);
    }
    return ok;
}

/* The rejection samplers on random buffers of random lengths (the masked
 * last steps included): same count, same outputs, nothing written past len. */
static int rej_cases(unsigned iters)
{
    uint8_t buf[900];
    int32_t o1[264], o2[264];
    int ok = 1;
    for (unsigned i = 0; i < iters; i++) {
        unsigned len = 1 + (unsigned)(tap_rng_u64() % 256);
        unsigned buflen = (unsigned)(tap_rng_u64() % sizeof buf);
        tap_rng_bytes(buf, sizeof buf);
        memset(o1, 0x5a, sizeof o1);
        memset(o2, 0x5a, sizeof o2);
        unsigned n1, n2;
        if (i % 3 == 0) {
            buflen -= buflen % 3;
            n1 = cs_mldsa_rej_uniform_avx512(o1, len, buf, buflen);
            n2 = ctemu_cs_mldsa_rej_uniform_avx512(o2, len, buf, buflen);
        } else {
            unsigned eta = i % 3 == 1 ? 2 : 4;
            n1 = cs_mldsa_rej_eta_avx512(o1, len, buf, buflen, eta);
            n2 = ctemu_cs_mldsa_rej_eta_avx512(o2, len, buf, buflen, eta);
        }
        ok &= n1 == n2 && !memcmp(o1, o2, sizeof o1);
    }
    return ok;
}

/* Keygen, deterministic and hedged signing, native vs emulated avx512
 * tables, `trials` random seeds; whether keys and signatures agree. */
static int mldsa_cases(int ps, unsigned trials)
{
    static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES],
        sk1[CS_MLDSA_MAX_SK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES],
        sig1[CS_MLDSA_MAX_SIG_BYTES], sig2[CS_MLDSA_MAX_SIG_BYTES];
    const cs_mldsa_impl *nat = &cs_mldsa_avx512, *emu = &ctemu_cs_mldsa_avx512;
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    int ok = 1;
    for (unsigned t = 0; t < trials; t++) {
        uint8_t seed[32], rnd[32], msg[40];
        tap_rng_bytes(seed, 32);
        tap_rng_bytes(rnd, 32);
        tap_rng_bytes(msg, sizeof msg);
        if (t % 2 == 0)
            memset(rnd, 0, 32);
        ok &= cs_mldsa_keygen(nat, ps, pk1, sk1, seed) == 0;
        ok &= cs_mldsa_keygen(emu, ps, pk2, sk2, seed) == 0;
        ok &= !memcmp(pk1, pk2, pkb) && !memcmp(sk1, sk2, skb);
        ok &= cs_mldsa_sign(nat, ps, sig1, sk1, msg, sizeof msg, NULL, 0, rnd) == 0;
        ok &= cs_mldsa_sign(emu, ps, sig2, sk1, msg, sizeof msg, NULL, 0, rnd) == 0;
        ok &= !memcmp(sig1, sig2, sigb);
    }
    return ok;
}

/* Random |c| < q coefficients. */
static void mlkem_rand(cs_mlkem_poly *p)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        p->c[i] = (int16_t)((int)(tap_rng_u64() % (2 * CS_MLKEM_Q - 1)) - (CS_MLKEM_Q - 1));
}

/* The ML-KEM avx512 pieces, emulated and native, on n random inputs: the same
 * polynomials and bytes. */
static int mlkem_cases(unsigned n)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    int ok = 1;
    for (unsigned t = 0; t < n; t++) {
        cs_mlkem_poly a[4], b[4], r1, r2;
        uint8_t o1[CS_MLKEM_POLY_BYTES], o2[CS_MLKEM_POLY_BYTES];
        for (unsigned i = 0; i < 4; i++)
            mlkem_rand(&a[i]), mlkem_rand(&b[i]);
        r1 = a[0], r2 = a[0];
        cs_mlkem_ntt_avx512(&r1);
        ctemu_cs_mlkem_ntt_avx512(&r2);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        r1 = a[1], r2 = a[1];
        cs_mlkem_invntt_avx512(&r1);
        ctemu_cs_mlkem_invntt_avx512(&r2);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        cs_mlkem_basemul_acc_avx512(&r1, a, b, 1 + t % 4);
        ctemu_cs_mlkem_basemul_acc_avx512(&r2, a, b, 1 + t % 4);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        cs_mlkem_add_reduce_avx512(&r1, &a[2], &b[2]);
        ctemu_cs_mlkem_add_reduce_avx512(&r2, &a[2], &b[2]);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        cs_mlkem_sub_reduce_avx512(&r1, &a[2], &b[2]);
        ctemu_cs_mlkem_sub_reduce_avx512(&r2, &a[2], &b[2]);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        r1 = a[3], r2 = a[3];
        cs_mlkem_tomont_add_avx512(&r1, &b[3]);
        ctemu_cs_mlkem_tomont_add_avx512(&r2, &b[3]);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        cs_mlkem_tobytes_avx512(o1, &a[0]);
        ctemu_cs_mlkem_tobytes_avx512(o2, &a[0]);
        ok &= !memcmp(o1, o2, sizeof o1);
        tap_rng_bytes(o1, sizeof o1);
        cs_mlkem_frombytes_avx512(&r1, o1);
        ctemu_cs_mlkem_frombytes_avx512(&r2, o1);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        unsigned d = ds[t % 5];
        cs_mlkem_compress_avx512(o1, &a[1], d);
        ctemu_cs_mlkem_compress_avx512(o2, &a[1], d);
        ok &= !memcmp(o1, o2, 32 * d);
        cs_mlkem_decompress_avx512(&r1, o1, d);
        ctemu_cs_mlkem_decompress_avx512(&r2, o1, d);
        ok &= !memcmp(&r1, &r2, sizeof r1);
        uint8_t rb[3 * 168 + 8];
        tap_rng_bytes(rb, sizeof rb);
        size_t len = (tap_rng_u64() % 169) * 3;
        unsigned have = t % 2 ? 0 : (unsigned)(tap_rng_u64() % 257), n1, n2;
        n1 = cs_mlkem_rej_uniform_avx512(r1.c, have, rb, len);
        n2 = ctemu_cs_mlkem_rej_uniform_avx512(r2.c, have, rb, len);
        ok &= n1 == n2 && !memcmp(r1.c, r2.c, n1 * sizeof r1.c[0]);
    }
    return ok;
}

/* The ladder, native and emulated, on n clamped random scalars and random
 * x1 below 2^256 (every fourth at or above p); whether x2:z2 agree. */
static int ladder_cases(unsigned n)
{
    int ok = 1;
    for (unsigned t = 0; t < n; t++) {
        uint64_t x1[4], xz1[8], xz2[8];
        uint8_t k[32];
        tap_rng_bytes((uint8_t *)x1, sizeof x1);
        tap_rng_bytes(k, 32);
        if (t % 4 == 1) {
            x1[1] = x1[2] = ~0ULL;
            x1[3] |= 0x7fffffffffffffffULL;
            x1[0] |= 0xffffffffffffffe0ULL;
        }
        k[0] &= 248;
        k[31] = (uint8_t)((k[31] & 127) | 64);
        cs_c25519_ifma_ladder(xz1, x1, k);
        ctemu_cs_c25519_ifma_ladder(xz2, x1, k);
        ok &= !memcmp(xz1, xz2, sizeof xz1);
    }
    return ok;
}

/* The double-scalar multiplication, native and emulated, on n random
 * digit strings (odd digits of widths 5 and 8, one position in six and in
 * nine set, the top ones too) and random A coordinates below 2^256 (the
 * formulas run on any values); whether X, Y, Z agree. */
static int double_mul_cases(unsigned n)
{
    int ok = 1;
    for (unsigned t = 0; t < n; t++) {
        int8_t na[256] = {0}, nb[256] = {0};
        uint64_t a[16], r1[12], r2[12];
        uint8_t d[512];
        tap_rng_bytes((uint8_t *)a, sizeof a);
        tap_rng_bytes(d, sizeof d);
        for (int i = 0; i < 256; i++) {
            if (d[i] % 6 == 0 || i == 252)
                na[i] = (int8_t)((d[256 + i] % 16) | 1) * (d[i] & 64 ? -1 : 1);
            if (d[256 + i] % 9 == 0 || i == 253)
                nb[i] = (int8_t)((d[i] % 128) | 1) * (d[256 + i] & 128 ? -1 : 1);
        }
        cs_c25519_ifma_double_mul(r1, na, a, nb);
        ctemu_cs_c25519_ifma_double_mul(r2, na, a, nb);
        ok &= !memcmp(r1, r2, sizeof r1);
    }
    return ok;
}

int main(void)
{
    tap_rng_seed(0x6374656d75ULL);
    if (!(cs_cpu_probe() & CS_CPU_AVX512IFMA)) {
        tap_skip("AVX-512 emulation vs native: CPU lacks AVX-512 IFMA");
        return tap_done();
    }
    ctemu_check_intrinsics(3000);

    static const struct {
        unsigned bits;
        size_t ebits;
    } sizes[] = {{512, 512}, {1024, 1024}, {1024, 100}, {1280, 300}, {1536, 1536},
                 {2047, 2047}, {2048, 2048}, {3072, 3072}, {4000, 500}, {4096, 4096}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int ok = 1;
        for (int rep = 0; rep < 4; rep++)
            ok &= bn_case(&cs_bn_x86_ifma, &ctemu_cs_bn_x86_ifma, sizes[i].bits,
                          sizes[i].ebits);
        tap_ok(ok, "ifma emulated == native: %u-bit modulus, %zu-bit exponents, 4 cases",
               sizes[i].bits, sizes[i].ebits);
        ok = 1;
        for (int rep = 0; rep < 4; rep++)
            ok &= bn_case(&cs_bn_x86_fma512, &ctemu_cs_bn_x86_fma512, sizes[i].bits,
                          sizes[i].ebits);
        tap_ok(ok, "fma512 emulated == native: %u-bit modulus, %zu-bit exponents, 4 cases",
               sizes[i].bits, sizes[i].ebits);
    }
    /* Every digit count the pair serves (20; 29..32; 37..40). */
    static const unsigned x2_bits[] = {990,  1024, 1038, 1472, 1536, 1600, 1650,
                                       1900, 1950, 1984, 2048};
    for (size_t i = 0; i < sizeof x2_bits / sizeof x2_bits[0]; i++) {
        int ok = 1;
        for (int rep = 0; rep < 4; rep++)
            ok &= bn_x2_case(&cs_bn_x86_ifma, &ctemu_cs_bn_x86_ifma, x2_bits[i]);
        tap_ok(ok, "ifma exp_x2 emulated == native: %u-bit moduli, 4 pairs", x2_bits[i]);
        ok = 1;
        for (int rep = 0; rep < 4; rep++)
            ok &= bn_x2_case(&cs_bn_x86_fma512, &ctemu_cs_bn_x86_fma512, x2_bits[i]);
        tap_ok(ok, "fma512 exp_x2 emulated == native: %u-bit moduli, 4 pairs", x2_bits[i]);
    }
    tap_ok(keccak_cases(600), "keccak x4/x8/x8x1 avx512 emulated == native, 600 states");
    tap_ok(rej_cases(3000), "rej_uniform/rej_eta avx512 emulated == native, 3000 buffers");
    tap_ok(mlkem_cases(500), "ML-KEM avx512 arithmetic emulated == native: NTTs, products, "
                             "sums, coders, Compress/Decompress, rejection step, 500 inputs");
    tap_ok(ladder_cases(200), "X25519 ladder (c25519 x86_64-ifma) emulated == native, 200 "
                              "scalars and u");
    tap_ok(double_mul_cases(100), "Ed25519 double-scalar multiplication (c25519 x86_64-ifma) "
                                  "emulated == native, 100 digit strings and points");
    static const int sets[3] = {44, 65, 87};
    for (int s = 0; s < 3; s++)
        tap_ok(mldsa_cases(sets[s], 40),
               "ML-DSA-%d avx512 table emulated == native: keygen, sign, 40 seeds", sets[s]);
    return tap_done();
}
