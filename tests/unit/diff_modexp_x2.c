/* Differential test of the shim's paired secret-exponent exponentiation
 * (BN_mod_exp_mont_consttime_x2, RSA's CRT halves) against libcrypto: every
 * kernel built in and usable here, forced one by one (kernels with a paired
 * entry run it, the others serve the pair as two calls), then the built-in
 * policy; random and edge-case inputs around 1024-bit moduli (and 1536,
 * 2048 for kernels with a paired entry), and the
 * odd-modulus ModExp vectors of OpenSSL's bnmod.txt run as pairs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "support/bnmod_modexp.h"
#include "support/diff_common.h"
#include "support/tap.h"

static cs_ossl api = {.version = "OPENSSL_3.0.0"};
static BN_CTX *ctx;

/* A random number below m from the test RNG. */
static void rand_below(BIGNUM *x, const BIGNUM *m)
{
    rand_below_bn(x, m, ctx);
}

/* The pair through the shim's x2 entry against libcrypto's own paired
 * function and, for non-negative bases (where libcrypto's pair and single
 * calls agree), two libcrypto consttime calls; mont: pass the caller's
 * BN_MONT_CTXs as RSA does. */
static int pair_case(const BIGNUM *a1, const BIGNUM *p1, const BIGNUM *m1, const BIGNUM *a2,
                     const BIGNUM *p2, const BIGNUM *m2, int mont)
{
    BIGNUM *w1 = BN_new(), *w2 = BN_new(), *g1 = BN_new(), *g2 = BN_new();
    BIGNUM *pp1 = BN_dup(p1), *pp2 = BN_dup(p2);
    BN_MONT_CTX *mc1 = NULL, *mc2 = NULL;
    BN_set_flags(pp1, BN_FLG_CONSTTIME);
    BN_set_flags(pp2, BN_FLG_CONSTTIME);
    if (mont) {
        mc1 = BN_MONT_CTX_new(), mc2 = BN_MONT_CTX_new();
        BN_MONT_CTX_set(mc1, m1, ctx);
        BN_MONT_CTX_set(mc2, m2, ctx);
    }
    int ok1 = BN_mod_exp_mont_consttime(w1, a1, pp1, m1, ctx, NULL);
    int ok2 = BN_mod_exp_mont_consttime(w2, a2, pp2, m2, ctx, NULL);
    ERR_clear_error();
    int rc = cs_modexp_x2_entry(&api, g1, a1, pp1, m1, mc1, g2, a2, pp2, m2, mc2, ctx);
    ERR_clear_error();
    int ok = ok1 && ok2 ? rc == 1 && !BN_cmp(w1, g1) && !BN_cmp(w2, g2) : rc == 0;
    if (BN_is_negative(a1) || BN_is_negative(a2)) {
        int rx = BN_mod_exp_mont_consttime_x2(w1, a1, pp1, m1, mc1, w2, a2, pp2, m2, mc2, ctx);
        ERR_clear_error();
        ok = rx == rc && (!rx || (!BN_cmp(w1, g1) && !BN_cmp(w2, g2)));
    }
    BN_free(w1), BN_free(w2), BN_free(g1), BN_free(g2), BN_free(pp1), BN_free(pp2);
    BN_MONT_CTX_free(mc1);
    BN_MONT_CTX_free(mc2);
    return ok;
}

/* Random pairs: both moduli of one size (the paired kernel's range and its
 * edges), full-length and shorter exponents, bases below and above m. */
static void random_pairs(const char *name, long count)
{
    /* The paired kernel's classes (ifma_x2.c) at their edges and inside,
     * and sizes just outside them. */
    static const int sizes[] = {1024, 1024, 1024, 1023, 1020, 1000, 987,  986,  1025, 1536,
                                2048, 1455, 1454, 1506, 1507, 1558, 1611, 1662, 1663, 1871,
                                1870, 1922, 1974, 2027, 2078, 2079};
    BIGNUM *m1 = BN_new(), *m2 = BN_new(), *a1 = BN_new(), *a2 = BN_new(), *p1 = BN_new(),
           *p2 = BN_new();
    long bad = 0;
    for (long i = 0; i < count; i++) {
        int bits = sizes[i % (sizeof sizes / sizeof sizes[0])];
        if (bits > 1024 && i % 8)
            bits = 1024; /* larger sizes only now and then: slow */
        rand_bits(m1, bits, 1);
        rand_bits(m2, bits, 1);
        rand_below(a1, m1);
        rand_below(a2, m2);
        if (i % 7 == 3)
            rand_bits(a1, bits + 1 + (int)(i % 40), 0); /* base >= m */
        int e1 = i % 5 == 4 ? 1 + (int)(tap_rng_u64() % (unsigned)bits) : bits;
        int e2 = i % 11 == 10 ? 1 + (int)(tap_rng_u64() % 300) : bits;
        rand_bits(p1, e1, 0);
        rand_bits(p2, e2, 0);
        if (!pair_case(a1, p1, m1, a2, p2, m2, i & 1) && bad++ < 5)
            tap_diag("%s: mismatch, case %ld, %d-bit moduli", name, i, bits);
    }
    tap_ok(bad == 0, "%s: %ld random pairs", name, count);
    BN_free(m1), BN_free(m2), BN_free(a1), BN_free(a2), BN_free(p1), BN_free(p2);
}

/* Edge operands around bits-bit moduli: bases 0, 1, m-1, m, 2m+3;
 * exponents 0, 1, 2, all ones, m-1, longer than m; moduli with their top
 * bits set, all ones, 2^(bits-1)+1, and pairs of different sizes. */
static void edge_pairs(const char *name, int bits)
{
    BIGNUM *m[6], *a = BN_new(), *b = BN_new(), *p = BN_new(), *q = BN_new();
    for (int i = 0; i < 6; i++)
        m[i] = BN_new();
    rand_bits(m[0], bits, 1);
    BN_set_bit(m[0], bits - 2), BN_set_bit(m[0], bits - 3); /* top bits set */
    BN_set_bit(m[1], bits), BN_sub_word(m[1], 1);           /* all ones */
    BN_set_bit(m[2], bits - 1), BN_add_word(m[2], 1);       /* 2^(bits-1) + 1 */
    rand_bits(m[3], bits, 1);
    rand_bits(m[4], bits - 24, 1);
    rand_bits(m[5], bits + 16, 1); /* beyond the 1024-bit class; other sizes' own */
    long n = 0, bad = 0;
    for (int i = 0; i < 6; i++) {
        const BIGNUM *m1 = m[i], *m2 = m[(i + 3) % 4];
        static const enum diff_edge bases[6] = {DIFF_ZERO, DIFF_ONE,       DIFF_M_MINUS_1,
                                                DIFF_M,    DIFF_2M_PLUS_3, DIFF_BELOW};
        for (int av = 0; av < 6; av++) {
            diff_edge_operand(a, bases[av], m1, ctx);
            rand_below(b, m2);
            for (int pv = 0; pv < 7; pv++) {
                switch (pv) {
                case 0: BN_zero(p); break;
                case 1: BN_one(p); break;
                case 2: BN_set_word(p, 2); break;
                case 3: BN_zero(p), BN_set_bit(p, bits), BN_sub_word(p, 1); break;
                case 4: BN_copy(p, m1), BN_sub_word(p, 1); break;
                case 5: rand_bits(p, bits + bits / 2 - 36, 0); break;
                default: rand_bits(p, bits, 0); break;
                }
                rand_bits(q, bits, 0);
                n += 2;
                if (!pair_case(a, p, m1, b, q, m2, pv & 1) && bad++ < 5)
                    tap_diag("%s: edge mismatch m %d a %d p %d", name, i, av, pv);
                if (!pair_case(b, q, m2, a, p, m1, 0) && bad++ < 5)
                    tap_diag("%s: edge mismatch (swapped) m %d a %d p %d", name, i, av, pv);
            }
        }
    }
    /* Unsupported inputs go to libcrypto: an even modulus, a negative base. */
    BN_copy(a, m[0]);
    BN_add_word(a, 1);
    rand_below(b, m[3]);
    rand_bits(p, bits, 0);
    int pass = pair_case(b, p, a, b, p, m[3], 0);
    if (!pass)
        tap_diag("%s: even modulus not passed through alike", name);
    BN_copy(a, b);
    BN_set_negative(a, 1);
    if (!pair_case(a, p, m[3], b, p, m[3], 0)) {
        pass = 0;
        tap_diag("%s: negative base not passed through alike", name);
    }
    tap_ok(bad == 0 && pass, "%s: %ld edge pairs around %d bits, unsupported inputs passed through",
           name, n, bits);
    for (int i = 0; i < 6; i++)
        BN_free(m[i]);
    BN_free(a), BN_free(b), BN_free(p), BN_free(q);
}

/* State of the bnmod.txt pair check: the previous odd-modulus block is kept
 * to pair with the next one of the same size. */
struct bnmod_pair_check {
    const char *name;
    long n, bad;
    BIGNUM *pa, *pe, *pm, *pw;
};

/* One ModExp block paired with itself, and with the previous block if the
 * moduli have the same size, through the x2 entry. */
static void bnmod_pair_one(BIGNUM *a, BIGNUM *e, BIGNUM *m, BIGNUM *want, void *arg)
{
    struct bnmod_pair_check *c = arg;
    if (!BN_is_odd(m)) {
        BN_free(want), BN_free(a), BN_free(e), BN_free(m);
        return;
    }
    BIGNUM *r1 = BN_new(), *r2 = BN_new();
    BN_set_flags(e, BN_FLG_CONSTTIME);
    int rc = cs_modexp_x2_entry(&api, r1, a, e, m, NULL, r2, a, e, m, NULL, ctx);
    c->n++;
    if ((rc != 1 || BN_cmp(r1, want) || BN_cmp(r2, want)) && c->bad++ < 5)
        tap_diag("%s: bnmod ModExp pair mismatch, %d-bit M", c->name, BN_num_bits(m));
    if (c->pm && BN_num_bits(c->pm) == BN_num_bits(m)) {
        rc = cs_modexp_x2_entry(&api, r1, c->pa, c->pe, c->pm, NULL, r2, a, e, m, NULL, ctx);
        c->n++;
        if ((rc != 1 || BN_cmp(r1, c->pw) || BN_cmp(r2, want)) && c->bad++ < 5)
            tap_diag("%s: bnmod mixed pair mismatch", c->name);
    }
    BN_free(c->pa), BN_free(c->pe), BN_free(c->pm), BN_free(c->pw);
    c->pa = a, c->pe = e, c->pm = m, c->pw = want;
    BN_free(r1), BN_free(r2);
}

/* Every odd-modulus ModExp block of bnmod.txt, paired with itself and with
 * the previous one of the same size, through the x2 entry. */
static void bnmod_pairs(const char *name)
{
    struct bnmod_pair_check c = {name, 0, 0, NULL, NULL, NULL, NULL};
    long blocks = bnmod_modexp_each(name, bnmod_pair_one, &c);
    ERR_clear_error();
    if (blocks >= 0)
        tap_ok(c.n > 0 && c.bad == 0, "%s: %ld bnmod.txt ModExp pairs", name, c.n);
    BN_free(c.pa), BN_free(c.pe), BN_free(c.pm), BN_free(c.pw);
}

/* The random, edge and bnmod.txt pairs for kernel k (NULL: the built-in
 * policy); *(long *)count is the full count. */
static void run_kernel(const cs_bn_kernel *k, const char *name, void *count)
{
    long n = *(long *)count;
    /* Kernels with a paired entry get the full count, others a share. */
    random_pairs(name, !k ? n / 10 : k->exp_x2 ? n : n / 20);
    edge_pairs(name, 1024);
    /* The wider paired sizes (RSA-3072, RSA-4096 halves) where a kernel
     * pairs them. */
    if (k && k->exp_x2) {
        edge_pairs(name, 1536);
        edge_pairs(name, 2048);
    }
    bnmod_pairs(name);
}

int main(int argc, char **argv)
{
    /* argv[1] is the count diff_modexp gets (CS_DIFF_COUNT): a tenth of it
     * here, at most the default, since a pair costs two exponentiations. */
    long count = diff_share_count(argc, argv, 10, 100, 3000);
    return diff_run_each_kernel(
        cs_ossl_resolve_from(&api, RTLD_DEFAULT) && api.mod_exp_mont_consttime_x2,
        "libcrypto functions resolved (with BN_mod_exp_mont_consttime_x2)", &ctx, run_kernel,
        &count);
}
