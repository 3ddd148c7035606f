/* Unit tests of the portable big-number kernel against the OpenSSL ModExp
 * vectors and an independent slow reference (tests/unit/support/bn_ref.h):
 * Montgomery set-up, mont_mul, mont_sqr, both exponentiation paths, edge
 * cases and limb/byte conversions. No OpenSSL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/bn/bn_kernel.h"
#include "support/bn_ref.h"
#include "support/tap.h"
#include "support/vectors.h"

#define DIG_PER_LIMB (CS_LIMB_BITS / 32)
#define MAXL CS_BN_MAX_LIMBS
#define MAXD (CS_BN_MAX_LIMBS * DIG_PER_LIMB)

static const cs_bn_kernel *K = &cs_bn_portable;
static cs_mont mont; /* large: keep it off the stack */

/* Reference digits (dn of them) to n kernel limbs, through bytes. */
static void to_limbs(cs_limb *r, size_t n, const uint32_t *d, size_t dn)
{
    uint8_t b[4 * REF_MAX];
    for (size_t i = 0; i < dn; i++)
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(d[i] >> (8 * k));
    cs_limbs_from_le_bytes(r, n, b, 4 * dn);
}

/* n kernel limbs to dn reference digits, through bytes. */
static void from_limbs(uint32_t *d, size_t dn, const cs_limb *a, size_t n)
{
    uint8_t b[4 * REF_MAX];
    cs_limbs_to_le_bytes(b, 4 * dn, a, n);
    for (size_t i = 0; i < dn; i++)
        d[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
               (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
}

static void rand_digits(uint32_t *d, size_t dn)
{
    for (size_t i = 0; i < dn; i++)
        d[i] = (uint32_t)tap_rng_u64();
}

/* Random odd modulus of exactly `bits` bits in dn digits (zero above). */
static void rand_modulus(uint32_t *m, size_t dn, unsigned bits)
{
    memset(m, 0, dn * sizeof(uint32_t));
    rand_digits(m, (bits + 31) / 32);
    if (bits % 32)
        m[bits / 32] &= (1u << (bits % 32)) - 1;
    m[(bits - 1) / 32] |= 1u << ((bits - 1) % 32);
    m[0] |= 1;
}

/* Random a < m (dn digits). */
static void rand_below(uint32_t *a, const uint32_t *m, size_t dn)
{
    uint32_t t[MAXD] = {0};
    rand_digits(t, dn);
    ref_mod(a, t, dn, m, ref_len(m, dn));
    memset(a + ref_len(m, dn), 0, (dn - ref_len(m, dn)) * sizeof(uint32_t));
}

/* Sets the global mont for m (dn digits) in n limbs; 0 on success. */
static int setup(const uint32_t *m, size_t n)
{
    cs_limb ml[MAXL];
    to_limbs(ml, n, m, n * DIG_PER_LIMB);
    return cs_mont_init(&mont, ml, n);
}

/* Whether kernel limbs a (n) equal reference digits d (dn). */
static int same(const cs_limb *a, size_t n, const uint32_t *d, size_t dn)
{
    uint32_t t[MAXD];
    from_limbs(t, n * DIG_PER_LIMB, a, n);
    size_t k = n * DIG_PER_LIMB > dn ? n * DIG_PER_LIMB : dn;
    for (size_t i = 0; i < k; i++)
        if ((i < n * DIG_PER_LIMB ? t[i] : 0) != (i < dn ? d[i] : 0))
            return 0;
    return 1;
}

/* Whether mont_mul/mont_sqr results satisfy r < m and r*R = a*b (mod m). */
static int check_mont_product(const cs_limb *r, const uint32_t *a, const uint32_t *b,
                              const uint32_t *m, size_t n)
{
    size_t dn = n * DIG_PER_LIMB, mn = ref_len(m, dn);
    uint32_t rd[MAXD], shifted[2 * MAXD], lhs[MAXD], rhs[MAXD];
    from_limbs(rd, dn, r, n);
    if (ref_cmp(rd, m, dn) >= 0)
        return 0;
    memset(shifted, 0, dn * sizeof(uint32_t));
    memcpy(shifted + dn, rd, dn * sizeof(uint32_t));
    ref_mod(lhs, shifted, 2 * dn, m, mn);
    uint32_t t[2 * MAXD];
    ref_mul(t, a, dn, b, dn);
    ref_mod(rhs, t, 2 * dn, m, mn);
    return ref_cmp(lhs, rhs, mn) == 0;
}

/* mont_mul, mont_sqr (also in place) on a, b < m; returns failures. */
static int mul_case(const uint32_t *m, const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t dn = n * DIG_PER_LIMB;
    cs_limb al[MAXL], bl[MAXL], r[MAXL], r2[MAXL];
    to_limbs(al, n, a, dn);
    to_limbs(bl, n, b, dn);
    int bad = 0;
    K->mont_mul(r, al, bl, &mont);
    bad += !check_mont_product(r, a, b, m, n);
    memcpy(r2, al, sizeof(cs_limb) * n);
    K->mont_mul(r2, r2, bl, &mont); /* r aliases a */
    bad += memcmp(r, r2, sizeof(cs_limb) * n) != 0;
    memcpy(r2, bl, sizeof(cs_limb) * n);
    K->mont_mul(r2, al, r2, &mont); /* r aliases b */
    bad += memcmp(r, r2, sizeof(cs_limb) * n) != 0;
    K->mont_sqr(r, al, &mont);
    bad += !check_mont_product(r, a, a, m, n);
    K->mont_mul(r2, al, al, &mont);
    bad += memcmp(r, r2, sizeof(cs_limb) * n) != 0;
    memcpy(r2, al, sizeof(cs_limb) * n);
    K->mont_sqr(r2, r2, &mont); /* in place */
    bad += memcmp(r, r2, sizeof(cs_limb) * n) != 0;
    return bad;
}

/* Both exp paths against each other and, if with_ref, the reference;
 * e has ebits bits (digits beyond are garbage the kernel must ignore).
 * Returns failures. */
static int exp_case(const uint32_t *m, const uint32_t *a, const uint32_t *e, size_t ebits,
                    size_t n, int with_ref)
{
    size_t dn = n * DIG_PER_LIMB, mn = ref_len(m, dn);
    size_t el = (ebits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb al[MAXL], el_[2 * MAXL + 1], rc[MAXL], rp[MAXL];
    to_limbs(al, n, a, dn);
    to_limbs(el_, el, e, (ebits + 31) / 32);
    /* Garbage above ebits in the top limb must be ignored. */
    if (ebits % CS_LIMB_BITS)
        el_[el - 1] |= (cs_limb)0xa5a5a5a5u << (ebits % CS_LIMB_BITS);
    int bad = 0;
    bad += K->exp(rc, al, el_, ebits, &mont, 1) != 0;
    bad += K->exp(rp, al, el_, ebits, &mont, 0) != 0;
    bad += memcmp(rc, rp, n * sizeof(cs_limb)) != 0;
    if (with_ref) {
        uint32_t ed[2 * MAXD + 1], want[MAXD];
        size_t edn = (ebits + 31) / 32;
        memcpy(ed, e, edn * sizeof(uint32_t));
        if (ebits % 32)
            ed[edn - 1] &= (1u << (ebits % 32)) - 1;
        ref_expmod(want, a, ed, ebits, m, mn);
        bad += !same(rc, n, want, mn);
    }
    if (!with_ref)
        return bad;
    /* r aliasing a (only where the cases are cheap). */
    cs_limb r3[MAXL];
    memcpy(r3, al, n * sizeof(cs_limb));
    bad += K->exp(r3, r3, el_, ebits, &mont, 1) != 0;
    bad += memcmp(rc, r3, n * sizeof(cs_limb)) != 0;
    return bad;
}

/* Parses big-endian hex into dn digits; -1 if it does not fit. */
static int parse_hex(uint32_t *d, size_t dn, const char *hex, size_t len)
{
    memset(d, 0, dn * sizeof(uint32_t));
    for (size_t i = 0; i < len; i++) {
        char c = hex[len - 1 - i];
        unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
        if (v == 99)
            return -1;
        if (v && i / 8 >= dn)
            return -1;
        if (i / 8 < dn)
            d[i / 8] |= v << (4 * (i % 8));
    }
    return 0;
}

/* One ModExp vector: a^e mod m == want for odd m; skipped (returns 0
 * tests) for even m. extra_limb tests a zero top limb too. */
static void vector_case(int line, const char *a_hex, const char *e_hex, const char *m_hex,
                        const char *want_hex)
{
    static uint32_t a[2 * MAXD], e[2 * MAXD + 1], m[MAXD + DIG_PER_LIMB], want[MAXD], ar[MAXD];
    size_t md = MAXD + DIG_PER_LIMB;
    if (parse_hex(m, md, m_hex, strlen(m_hex)) || parse_hex(a, 2 * MAXD, a_hex, strlen(a_hex)) ||
        parse_hex(e, 2 * MAXD + 1, e_hex, strlen(e_hex)) ||
        parse_hex(want, MAXD, want_hex, strlen(want_hex))) {
        tap_ok(0, "vector line %d parses", line);
        return;
    }
    if ((m[0] & 1) == 0)
        return;
    size_t mn = ref_len(m, md);
    size_t n = (mn + DIG_PER_LIMB - 1) / DIG_PER_LIMB;
    size_t ebits = ref_len(e, 2 * MAXD + 1) * 32;
    int bad = 0;
    for (size_t extra = 0; extra < 2 && n + extra <= MAXL; extra++) {
        size_t nn = n + extra, dn = nn * DIG_PER_LIMB;
        ref_mod(ar, a, ref_len(a, 2 * MAXD) ? ref_len(a, 2 * MAXD) : 1, m, mn);
        memset(ar + mn, 0, (dn - mn) * sizeof(uint32_t));
        if (setup(m, nn)) {
            bad++;
            continue;
        }
        cs_limb al[MAXL], el[2 * MAXL + 1], rc[MAXL], rp[MAXL];
        to_limbs(al, nn, ar, dn);
        size_t elimbs = (ebits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
        to_limbs(el, elimbs, e, ebits / 32);
        bad += K->exp(rc, al, el, ebits, &mont, 1) != 0;
        bad += K->exp(rp, al, el, ebits, &mont, 0) != 0;
        bad += !same(rc, nn, want, MAXD);
        bad += !same(rp, nn, want, MAXD);
    }
    tap_ok(bad == 0, "ModExp vector line %d (%u-bit modulus, %zu-bit exponent)", line,
           mont.bits, ebits);
}

/* Runs vector_case on each ModExp block of bnmod.txt. */
static void test_vectors(void)
{
    vec_kv f;
    if (vec_kv_open(&f, "openssl/bnmod.txt")) {
        tap_ok(0, "read %s/openssl/bnmod.txt", vec_dir());
        return;
    }
    int blocks = 0;
    while (vec_kv_next(&f)) {
        const char *want = vec_kv_get(&f, "ModExp"), *a = vec_kv_get(&f, "A"),
                   *e = vec_kv_get(&f, "E"), *m = vec_kv_get(&f, "M");
        if (want && a && e && m) {
            vector_case((int)f.line, a, e, m, want);
            blocks++;
        }
    }
    vec_kv_close(&f);
    tap_ok(blocks >= 100, "found %d ModExp blocks", blocks);
}

/* Byte/limb conversions: round trips, zero fill, truncation. */
static void test_conversions(void)
{
    uint8_t in[37], out[48];
    cs_limb l[12];
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 37 + 11);
    memset(l, 0xff, sizeof(l));
    cs_limbs_from_le_bytes(l, 12, in, sizeof(in));
    int ok = (l[0] & 0xff) == in[0] && (uint8_t)(l[1] >> 8) == in[CS_LIMB_BYTES + 1];
    cs_limbs_to_le_bytes(out, sizeof(out), l, 12);
    ok &= !memcmp(out, in, sizeof(in));
    for (size_t i = sizeof(in); i < sizeof(out); i++)
        ok &= out[i] == 0;
    tap_ok(ok, "bytes to limbs and back, zero fill");
    cs_limbs_from_le_bytes(l, 2, in, sizeof(in)); /* truncates */
    cs_limbs_to_le_bytes(out, 2 * CS_LIMB_BYTES + 3, l, 2);
    ok = !memcmp(out, in, 2 * CS_LIMB_BYTES);
    for (size_t i = 2 * CS_LIMB_BYTES; i < 2 * CS_LIMB_BYTES + 3; i++)
        ok &= out[i] == 0;
    cs_limbs_to_le_bytes(out, 5, l, 2); /* drops high limbs */
    ok &= !memcmp(out, in, 5);
    tap_ok(ok, "conversions truncate and pad");
}

/* The reference's long division against bit-by-bit division. */
static void test_reference(void)
{
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        uint32_t u[40], v[20], r1[20], r2[20];
        size_t un = 1 + tap_rng_u64() % 40, vn = 1 + tap_rng_u64() % 20;
        rand_digits(u, un);
        rand_digits(v, vn);
        if (i % 3 == 0)
            v[vn - 1] >>= tap_rng_u64() % 32;
        if (i % 5 == 0 && vn > 1)
            v[vn - 2] = 0xffffffff, v[vn - 1] = 0x80000000u;
        if (!v[vn - 1])
            v[vn - 1] = 1;
        ref_mod(r1, u, un, v, vn);
        ref_mod_bitwise(r2, u, un, v, vn);
        bad += ref_cmp(r1, r2, vn) != 0;
    }
    tap_ok(bad == 0, "reference long division agrees with bitwise division");
}

/* Montgomery constants: n0, R mod m, R^2 mod m; rejections. */
static void test_mont_init(void)
{
    static const unsigned sizes[] = {3, 31, 64, 65, 129, 256, 1023, 2048, 4096, 8192};
    int bad = 0;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        for (int extra = 0; extra < 2; extra++) {
            uint32_t m[MAXD + 1], want[MAXD];
            size_t n = (sizes[s] + CS_LIMB_BITS - 1) / CS_LIMB_BITS + extra;
            if (n > MAXL)
                continue;
            size_t dn = n * DIG_PER_LIMB;
            rand_modulus(m, dn, sizes[s]);
            size_t mn = ref_len(m, dn);
            bad += setup(m, n) != 0;
            bad += mont.n != n || mont.bits != sizes[s];
            bad += (cs_limb)(mont.n0 * mont.m[0]) != (cs_limb)-1;
            uint32_t rpow[2 * MAXD + 1];
            memset(rpow, 0, sizeof(rpow));
            rpow[dn] = 1;
            ref_mod(want, rpow, dn + 1, m, mn);
            bad += !same(mont.one, n, want, mn);
            rpow[dn] = 0;
            rpow[2 * dn] = 1;
            ref_mod(want, rpow, 2 * dn + 1, m, mn);
            bad += !same(mont.rr, n, want, mn);
        }
    }
    tap_ok(bad == 0, "cs_mont_init: n0, R mod m, R^2 mod m, bits, top limb zero");
    cs_limb even[2] = {4, 1}, zero[2] = {0, 0}, big[MAXL + 1];
    memset(big, 0, sizeof(big));
    big[0] = 1;
    tap_ok(cs_mont_init(&mont, even, 2) == -1 && cs_mont_init(&mont, zero, 2) == -1 &&
               cs_mont_init(&mont, big, MAXL + 1) == -1 && cs_mont_init(&mont, big, 0) == -1,
           "cs_mont_init rejects even, zero, too long and empty moduli");
}

/* mont_mul and mont_sqr on random and extreme operands over many sizes. */
static void test_mul(void)
{
    static const unsigned sizes[] = {5, 32, 33, 63, 64, 65, 127, 128, 192, 255, 256, 257, 384,
                                     511, 512, 521, 768, 1024, 1025, 1536, 2048, 3072, 4096,
                                     6144, 8192};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        unsigned bits = sizes[s];
        int bad = 0, cases = 0;
        int iters = bits <= 1024 ? 40 : bits <= 4096 ? 10 : 4;
        for (int extra = 0; extra < 2; extra++) {
            size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS + extra;
            if (n > MAXL)
                continue;
            size_t dn = n * DIG_PER_LIMB;
            uint32_t m[MAXD], a[MAXD], b[MAXD];
            rand_modulus(m, dn, bits);
            /* Moduli just below a power of two stress the final subtraction. */
            if (s % 2 && extra == 0) {
                for (size_t i = 0; i < (bits - 1) / 32; i++)
                    m[i] = 0xffffffffu;
            }
            if (setup(m, n)) {
                bad++;
                continue;
            }
            for (int it = 0; it < iters; it++) {
                rand_below(a, m, dn);
                rand_below(b, m, dn);
                if (it == 0) { /* a = m-1, b = m-1 */
                    memcpy(a, m, dn * 4);
                    a[0]--;
                    memcpy(b, a, dn * 4);
                } else if (it == 1) { /* a = 0 */
                    memset(a, 0, dn * 4);
                } else if (it == 2) { /* a = 1 */
                    memset(a, 0, dn * 4);
                    a[0] = 1;
                }
                bad += mul_case(m, a, b, n);
                cases++;
            }
        }
        tap_ok(bad == 0, "mont_mul/mont_sqr %u-bit modulus, %d cases", bits, cases);
    }
}

/* Exponentiation: both paths vs the reference; full-length exponents only
 * where the reference stays quick, short ones everywhere. */
static void test_exp(void)
{
    static const unsigned sizes[] = {5, 32, 64, 65, 127, 256, 511, 512, 1024, 1025, 2048, 3072,
                                     4096, 8192};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        unsigned bits = sizes[s];
        int bad = 0, cases = 0;
        size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS + (s % 3 == 2);
        if (n > MAXL)
            n--;
        size_t dn = n * DIG_PER_LIMB;
        static uint32_t m[MAXD], a[MAXD], e[2 * MAXD + 1];
        rand_modulus(m, dn, bits);
        if (setup(m, n)) {
            tap_ok(0, "exp %u-bit set-up", bits);
            continue;
        }
        size_t elens[] = {1, 2, 3, 7, 17, 64, 65, 130, bits, bits + 1};
        for (size_t k = 0; k < sizeof(elens) / sizeof(elens[0]); k++) {
            size_t ebits = elens[k];
            int with_ref = ebits <= 130 || bits <= 2048;
            if (bits > 4096 && ebits == bits + 1)
                continue; /* one full-length case is enough at the largest size */
            int reps = bits <= 1024 ? 4 : ebits >= bits ? 1 : 2;
            for (int r = 0; r < reps; r++) {
                rand_below(a, m, dn);
                rand_digits(e, (ebits + 31) / 32 + 1);
                if (r == 1) /* top bit set: public path's exact length */
                    e[(ebits - 1) / 32] |= 1u << ((ebits - 1) % 32);
                bad += exp_case(m, a, e, ebits, n, with_ref);
                cases++;
            }
        }
        tap_ok(bad == 0, "exp %u-bit modulus (%zu limbs), %d cases", bits, n, cases);
    }
}

/* a = 0, 1, m-1; e = 0, 1, 65537, zero bits; m = 1; oversized exponents. */
static void test_edges(void)
{
    static const unsigned sizes[] = {64, 1024, 2048};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        unsigned bits = sizes[s];
        size_t n = bits / CS_LIMB_BITS + 1, dn = n * DIG_PER_LIMB; /* top limb zero */
        uint32_t m[MAXD], a[MAXD], e[2 * MAXD + 1];
        rand_modulus(m, dn, bits);
        setup(m, n);
        int bad = 0;
        for (int ai = 0; ai < 4; ai++) {
            memset(a, 0, sizeof(a));
            if (ai == 1)
                a[0] = 1;
            else if (ai == 2) {
                memcpy(a, m, dn * 4);
                a[0]--;
            } else if (ai == 3)
                rand_below(a, m, dn);
            uint32_t evals[][3] = {{0, 0, 0}, {1, 0, 0}, {65537, 0, 0}, {2, 0, 0},
                                   {0xffffffffu, 0xffffffffu, 1}};
            size_t eb[] = {0, 1, 17, 2, 65};
            for (size_t k = 0; k < 5; k++) {
                memset(e, 0, sizeof(e));
                memcpy(e, evals[k], sizeof(evals[k]));
                bad += exp_case(m, a, e, eb[k], n, 1);
                /* the same exponent with leading zero bits */
                bad += exp_case(m, a, e, eb[k] + 70, n, 1);
            }
        }
        tap_ok(bad == 0, "edge cases a=0,1,m-1 e=0,1,2,65537 with %u-bit modulus, top limb zero",
               bits);
    }

    /* m = 1: everything is 0. */
    cs_limb one[1] = {1}, r[1] = {7}, a1[1] = {0}, e1[1] = {5};
    int ok = cs_mont_init(&mont, one, 1) == 0;
    ok &= K->exp(r, a1, e1, 3, &mont, 1) == 0 && r[0] == 0;
    r[0] = 7;
    ok &= K->exp(r, a1, e1, 0, &mont, 0) == 0 && r[0] == 0;
    r[0] = 7;
    K->mont_mul(r, a1, a1, &mont);
    ok &= r[0] == 0;
    cs_limb one2[2] = {1, 0}, r2b[2] = {7, 7}, a2b[2] = {0, 0};
    ok &= cs_mont_init(&mont, one2, 2) == 0;
    ok &= K->exp(r2b, a2b, e1, 3, &mont, 1) == 0 && r2b[0] == 0 && r2b[1] == 0;
    tap_ok(ok, "m = 1 gives 0 (also with a zero top limb)");

    /* An exponent longer than the kernel accepts is refused, not truncated. */
    uint32_t m[MAXD];
    rand_modulus(m, 8, 256);
    setup(m, 256 / CS_LIMB_BITS);
    static cs_limb big_e[CS_BN_MAX_EXP_BITS / CS_LIMB_BITS + 1];
    cs_limb a2[MAXL] = {3}, r2[MAXL];
    tap_ok(K->exp(r2, a2, big_e, CS_BN_MAX_EXP_BITS + 1, &mont, 1) == -1,
           "exponent over CS_BN_MAX_EXP_BITS refused");
}

int main(void)
{
    tap_rng_seed(0x6b65726e656c626eULL);
    tap_diag("kernel %s, %d-bit limbs", K->name, CS_LIMB_BITS);
    test_conversions();
    test_reference();
    test_mont_init();
    test_mul();
    test_exp();
    test_edges();
    test_vectors();
    return tap_done();
}
