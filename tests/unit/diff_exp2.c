/* Differential test of the shim's simultaneous exponentiation
 * (BN_mod_exp2_mont, DSA verification) against libcrypto's own function:
 * every kernel built in and usable here, forced one by one (kernels without
 * an exp2 entry pass every call through), then the built-in policy; random
 * inputs at DSA sizes (1024/2048/3072-bit moduli with 160/224/256-bit and
 * full-length exponents) and around them, and edge cases, unsupported ones
 * included, which must come back exactly as libcrypto returns them. */
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
#include "support/diff_common.h"
#include "support/tap.h"

static cs_ossl api = {.version = "OPENSSL_3.0.0"};
static BN_CTX *ctx;

/* A random number below m from the test RNG. */
static void rand_below(BIGNUM *x, const BIGNUM *m)
{
    rand_below_bn(x, m, ctx);
}

/* Flags of one_case: BN_FLG_CONSTTIME on a1/p1/a2/p2/m (bits 0-4), result
 * aliasing a1 (bit 5) or p2 (bit 6), the caller's BN_MONT_CTX (bit 7). */
#define F_ALIAS_A1 32
#define F_ALIAS_P2 64
#define F_MONT 128

/* The shim's entry against libcrypto's BN_mod_exp2_mont on one input:
 * same return, same error code, same result. *served (if not NULL) is set
 * when kernel k took the input itself (cs_modexp2_with returned 1). */
static int one_case(const cs_bn_kernel *k, const BIGNUM *a1_, const BIGNUM *p1_,
                    const BIGNUM *a2_, const BIGNUM *p2_, const BIGNUM *m_, unsigned flags,
                    int *served)
{
    BIGNUM *in[5] = {BN_dup(a1_), BN_dup(p1_), BN_dup(a2_), BN_dup(p2_), BN_dup(m_)};
    BIGNUM *want = BN_new(), *got = BN_new(), *direct = BN_new();
    BN_MONT_CTX *mont = NULL;
    for (int i = 0; i < 5; i++)
        if (flags & (1u << i))
            BN_set_flags(in[i], BN_FLG_CONSTTIME);
    if ((flags & F_MONT) && BN_is_odd(m_) && !BN_is_negative(m_)) {
        mont = BN_MONT_CTX_new();
        BN_MONT_CTX_set(mont, in[4], ctx);
    }
    ERR_clear_error();
    int rw = BN_mod_exp2_mont(want, in[0], in[1], in[2], in[3], in[4], ctx, mont);
    unsigned long ew = ERR_peek_last_error();
    ERR_clear_error();
    BIGNUM *a1 = in[0], *p2 = in[3];
    if (flags & F_ALIAS_A1)
        a1 = got, BN_copy(got, in[0]);
    else if (flags & F_ALIAS_P2)
        p2 = got, BN_copy(got, in[3]);
    int rg = cs_modexp2_entry(&api, got, a1, in[1], in[2], p2, in[4], ctx, mont);
    unsigned long eg = ERR_peek_last_error();
    ERR_clear_error();
    int ok = rw == rg && ew == eg && (!rw || !BN_cmp(want, got));
    if (k && k->exp2) {
        int rd = cs_modexp2_with(&api, k, direct, in[0], in[1], in[2], in[3], in[4], ctx);
        ERR_clear_error();
        if (rd == 1 && (!rw || BN_cmp(want, direct)))
            ok = 0;
        if (rd == 0)
            ok = 0; /* no OpenSSL call here can fail */
        if (served)
            *served = rd == 1;
    } else if (served) {
        *served = 0;
    }
    for (int i = 0; i < 5; i++)
        BN_free(in[i]);
    BN_free(want), BN_free(got), BN_free(direct);
    BN_MONT_CTX_free(mont);
    return ok;
}

/* Random cases: DSA's (modulus, exponent) sizes, the kernel range's edges,
 * random exponent lengths (every window size), bases below m. */
static void random_cases(const cs_bn_kernel *k, const char *name, long count)
{
    static const int sizes[] = {1024, 2048, 3072, 2048, 1024, 2048};
    static const int edge_sizes[] = {512, 1000, 1023, 1025, 1536, 2047, 3071, 4096, 8192};
    static const int ebits[] = {160, 224, 256, 256, 0};
    BIGNUM *m = BN_new(), *a1 = BN_new(), *a2 = BN_new(), *p1 = BN_new(), *p2 = BN_new();
    long bad = 0, served = 0;
    for (long i = 0; i < count; i++) {
        int bits = sizes[i % 6];
        if (i % 10 == 9)
            bits = edge_sizes[(i / 10) % 9];
        int e1 = ebits[(i / 6) % 5], e2 = e1;
        if (e1 == 0 && (bits <= 2048 || i % 3 == 0))
            e1 = e2 = bits; /* full length, 3072 bits only now and then: slow */
        else if (e1 == 0)
            e1 = e2 = 256;
        if (i % 4 == 3)
            e2 = 1 + (int)(tap_rng_u64() % (unsigned)e1); /* a different length */
        if (bits >= 4096 && e1 > 256)
            e1 = e2 = 256;
        rand_bits(m, bits, 1);
        rand_below(a1, m);
        rand_below(a2, m);
        rand_bits(p1, e1, 0);
        rand_bits(p2, e2, 0);
        int s = 0;
        unsigned flags = (i & 1) ? F_MONT : 0;
        if (i % 13 == 5)
            flags |= F_ALIAS_A1;
        if (i % 13 == 7)
            flags |= F_ALIAS_P2;
        /* Under the policy, the kernel it picks for this size is checked. */
        const cs_bn_kernel *kk = k ? k : cs_dispatch_bn2(CS_FAMILY_30, (unsigned)bits);
        if (!one_case(kk, a1, p1, a2, p2, m, flags, &s) && bad++ < 5)
            tap_diag("%s: mismatch, case %ld, %d-bit modulus, %d/%d-bit exponents", name, i,
                     bits, e1, e2);
        served += s;
    }
    /* A kernel with an exp2 entry must have served what its range holds. */
    int took = k ? !k->exp2 || served > count / 2 : served > 0 || !cs_dispatch_bn2(CS_FAMILY_30, 2048);
    if (!took)
        tap_diag("%s: served only %ld of %ld", name, served, count);
    tap_ok(bad == 0 && took, "%s: %ld random cases (%ld by the kernel)", name, count, served);
    BN_free(m), BN_free(a1), BN_free(a2), BN_free(p1), BN_free(p2);
}

/* Edge cases against libcrypto: bases 0, 1, 2, m-1, m, 2m+3, negative;
 * exponents 0, 1, 2, all ones, longer than m, negative; moduli 1, 3, tiny,
 * even, negative, 2^1023+1, all ones; BN_FLG_CONSTTIME on each argument. */
static void edge_cases(const cs_bn_kernel *k, const char *name)
{
    BIGNUM *m[8], *a = BN_new(), *b = BN_new(), *p = BN_new(), *q = BN_new();
    for (int i = 0; i < 8; i++)
        m[i] = BN_new();
    rand_bits(m[0], 2048, 1);
    BN_set_bit(m[1], 1024), BN_sub_word(m[1], 1); /* all ones */
    BN_set_bit(m[2], 1023), BN_add_word(m[2], 1); /* 2^1023 + 1 */
    BN_one(m[3]);
    BN_set_word(m[4], 3);
    rand_bits(m[5], 100, 1);                       /* below every kernel */
    rand_bits(m[6], 1024, 0), BN_set_bit(m[6], 1); /* even */
    BN_clear_bit(m[6], 0);
    rand_bits(m[7], 1024, 1), BN_set_negative(m[7], 1);
    long n = 0, bad = 0;
    for (int i = 0; i < 8; i++) {
        BIGNUM *mm = BN_dup(m[i]);
        BN_set_negative(mm, 0);
        for (int av = DIFF_ZERO; av <= DIFF_BELOW; av++) {
            diff_edge_operand(a, (enum diff_edge)av, mm, ctx);
            rand_below(b, mm);
            for (int pv = 0; pv < 7; pv++) {
                switch (pv) {
                case 0: BN_zero(p); break;
                case 1: BN_one(p); break;
                case 2: BN_set_word(p, 2); break;
                case 3: BN_zero(p), BN_set_bit(p, 160), BN_sub_word(p, 1); break;
                case 4: rand_bits(p, BN_num_bits(mm) + 100, 0); break;
                case 5: rand_bits(p, 200, 0), BN_set_negative(p, 1); break;
                default: rand_bits(p, 256, 0); break;
                }
                for (int qv = 0; qv < 3; qv++) {
                    if (qv == 0)
                        BN_zero(q);
                    else
                        rand_bits(q, qv == 1 ? 160 : 256, 0);
                    n += 2;
                    if (!one_case(k, a, p, b, q, m[i], (unsigned)(pv & 1) * F_MONT, NULL) &&
                        bad++ < 5)
                        tap_diag("%s: edge mismatch m %d a %d p %d q %d", name, i, av, pv, qv);
                    if (!one_case(k, b, q, a, p, m[i], 0, NULL) && bad++ < 5)
                        tap_diag("%s: edge mismatch (swapped) m %d a %d p %d q %d", name, i, av,
                                 pv, qv);
                }
            }
        }
        BN_free(mm);
    }
    /* BN_FLG_CONSTTIME on each argument in turn, and both bases equal. */
    rand_below(a, m[0]), rand_below(b, m[0]);
    rand_bits(p, 256, 0), rand_bits(q, 224, 0);
    for (unsigned f = 1; f < 32; f <<= 1, n++)
        if (!one_case(k, a, p, b, q, m[0], f, NULL) && bad++ < 5)
            tap_diag("%s: consttime flag %u mismatch", name, f);
    n++;
    if (!one_case(k, a, p, a, q, m[0], 0, NULL) && bad++ < 5)
        tap_diag("%s: equal bases mismatch", name);
    tap_ok(bad == 0, "%s: %ld edge cases, unsupported inputs passed through", name, n);
    for (int i = 0; i < 8; i++)
        BN_free(m[i]);
    BN_free(a), BN_free(b), BN_free(p), BN_free(q);
}

/* The random and edge cases for kernel k (NULL: the built-in policy);
 * *(long *)count is the full count. */
static void run_kernel(const cs_bn_kernel *k, const char *name, void *count)
{
    long n = *(long *)count;
    /* Kernels without an exp2 entry pass everything through: a share. */
    random_cases(k, name, !k ? n / 2 : k->exp2 ? n : n / 6);
    edge_cases(k, name);
}

int main(int argc, char **argv)
{
    /* argv[1] is the count diff_modexp gets (CS_DIFF_COUNT): a twentieth of
     * it here per kernel, at most the default. */
    long count = diff_share_count(argc, argv, 20, 60, 240);
    return diff_run_each_kernel(cs_ossl_resolve_from(&api, RTLD_DEFAULT) && api.mod_exp2_mont,
                                "libcrypto functions resolved (with BN_mod_exp2_mont)", &ctx,
                                run_kernel, &count);
}
