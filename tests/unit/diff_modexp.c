/* Differential test of the shim's modular exponentiation against libcrypto:
 * every kernel built in and usable here, forced one by one, on random and
 * edge-case inputs over 256..8192-bit moduli, through the same entry logic
 * the interposed symbols use; plus the ModExp vectors of OpenSSL's bnmod.txt. */
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

/* Compares the shim's entry (kernel forced) with libcrypto on one input.
 * flags: BN_FLG_CONSTTIME on a/p/m (bit 0/1/2), alias r == a (bit 3),
 * caller's BN_MONT_CTX (bit 4), consttime entry point (bit 5). */
static int one_case(const BIGNUM *a0, const BIGNUM *p0, const BIGNUM *m0, unsigned flags)
{
    BIGNUM *a = BN_dup(a0), *p = BN_dup(p0), *m = BN_dup(m0), *want = BN_new(), *got = BN_new();
    BN_MONT_CTX *mont = NULL;
    int ok = 1, ct_entry = (flags >> 5) & 1;
    if (flags & 1)
        BN_set_flags(a, BN_FLG_CONSTTIME);
    if (flags & 2)
        BN_set_flags(p, BN_FLG_CONSTTIME);
    if (flags & 4)
        BN_set_flags(m, BN_FLG_CONSTTIME);
    if ((flags & 16) && BN_is_odd(m)) {
        mont = BN_MONT_CTX_new();
        BN_MONT_CTX_set(mont, m, ctx);
    }
    ERR_clear_error();
    int rw = ct_entry ? BN_mod_exp_mont_consttime(want, a, p, m, ctx, mont)
                      : BN_mod_exp_mont(want, a, p, m, ctx, mont);
    unsigned long ew = ERR_peek_last_error();
    ERR_clear_error();
    BIGNUM *r = got;
    if (flags & 8) {
        BN_copy(got, a);
        r = got;
    }
    int rg = cs_modexp_entry(&api, ct_entry, r, (flags & 8) ? r : a, p, m, ctx, mont);
    unsigned long eg = ERR_peek_last_error();
    ERR_clear_error();
    if (rw != rg || ew != eg || (rw && BN_cmp(want, got)))
        ok = 0;
    BN_free(a), BN_free(p), BN_free(m), BN_free(want), BN_free(got);
    BN_MONT_CTX_free(mont);
    return ok;
}

/* Random inputs: modulus 256..8192 bits, exponents mostly short so the run
 * stays quick, a sprinkling of full-length secret exponents. */
static void random_cases(const cs_bn_kernel *k, long count)
{
    BIGNUM *a = BN_new(), *p = BN_new(), *m = BN_new();
    long bad = 0;
    for (long i = 0; i < count; i++) {
        int bits = 256 + (int)(tap_rng_u64() % (CS_BN_MAX_BITS - 256 + 1));
        if (bits < (int)k->min_bits || bits > (int)k->max_bits)
            bits = (int)k->min_bits;
        uint64_t pick = tap_rng_u64() % 1000;
        int ebits = pick < 980 ? 1 + (int)(tap_rng_u64() % 64)
                  : pick < 998 ? 1 + (int)(tap_rng_u64() % 256)
                               : (bits <= 2048 ? bits : 64);
        rand_bits(m, bits, 1);
        rand_bits(p, ebits, 0);
        switch (tap_rng_u64() % 8) {
        case 0: BN_zero(a); break;
        case 1: BN_one(a); break;
        case 2: BN_sub(a, m, BN_value_one()); break;
        case 3: rand_bits(a, bits + 1 + (int)(tap_rng_u64() % 100), 0); break; /* a >= m */
        default: BN_rand_range(a, m); break;
        }
        unsigned flags = (unsigned)(tap_rng_u64() % 64);
        if (!one_case(a, p, m, flags)) {
            if (bad++ < 5)
                tap_diag("%s: mismatch at case %ld (%d-bit m, %d-bit p, flags %u)", k->name, i,
                         bits, ebits, flags);
        }
    }
    tap_ok(bad == 0, "%s: %ld random cases match libcrypto (%ld mismatches)", k->name, count, bad);
    BN_free(a), BN_free(p), BN_free(m);
}

/* Fixed edge cases, each under every flag combination. */
static void edge_cases(const cs_bn_kernel *k)
{
    BIGNUM *a = BN_new(), *p = BN_new(), *m = BN_new(), *t = BN_new();
    static const int sizes[] = {256, 257, 511, 512, 1024, 2048, 3072, 4096, 8192};
    long bad = 0, n = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int bits = sizes[s];
        for (int shape = 0; shape < 3; shape++) {
            if (shape == 0)
                rand_bits(m, bits, 1);
            else if (shape == 1) { /* top limb holding just one bit */
                BN_zero(m);
                BN_set_bit(m, bits - 1);
                BN_set_bit(m, 0);
            } else { /* all ones */
                BN_zero(m);
                BN_set_bit(m, bits);
                BN_sub_word(m, 1);
            }
            const int exps[] = {0, 1, 2, 3, 65537, -1};
            for (size_t e = 0; e < sizeof exps / sizeof exps[0]; e++) {
                /* Full-length exponents only where they are quick. */
                if (exps[e] < 0 && bits > 1024)
                    continue;
                if (exps[e] >= 0)
                    BN_set_word(p, (BN_ULONG)exps[e]);
                else
                    BN_sub(p, m, BN_value_one());
                for (int av = 0; av < 6; av++) {
                    switch (av) {
                    case 0: BN_zero(a); break;
                    case 1: BN_one(a); break;
                    case 2: BN_sub(a, m, BN_value_one()); break;
                    case 3: BN_copy(a, m); break;
                    case 4: BN_lshift(a, m, 3); BN_add_word(a, 5); break;
                    default: BN_rand_range(a, m); break;
                    }
                    for (unsigned flags = 0; flags < 64; flags += 7) {
                        n++;
                        if (!one_case(a, p, m, flags) && bad++ < 5)
                            tap_diag("%s: edge mismatch %d-bit shape %d exp %zu a %d flags %u",
                                     k->name, bits, shape, e, av, flags);
                    }
                }
            }
        }
    }
    tap_ok(bad == 0, "%s: %ld edge cases (a=0,1,m-1,m,>m; p=0,1,2,3,65537,m-1; flags)", k->name,
           n);
    /* Inputs that must go to libcrypto unchanged: even, negative, tiny, huge. */
    int pass_ok = 1;
    rand_bits(m, 1024, 1);
    BN_rand_range(a, m);
    BN_set_word(p, 65537);
    BN_copy(t, m);
    BN_add_word(t, 1); /* even */
    pass_ok &= one_case(a, p, t, 0) & one_case(a, p, t, 32);
    BN_copy(t, m);
    BN_set_negative(t, 1);
    pass_ok &= one_case(a, p, t, 0);
    BN_copy(t, a);
    BN_set_negative(t, 1);
    pass_ok &= one_case(t, p, m, 0) & one_case(t, p, m, 32);
    BN_copy(t, p);
    BN_set_negative(t, 1);
    pass_ok &= one_case(a, t, m, 0);
    BN_set_word(t, 1);
    pass_ok &= one_case(a, p, t, 0) & one_case(a, p, t, 32); /* m = 1 */
    BN_set_word(t, 101);
    pass_ok &= one_case(a, p, t, 0);
    rand_bits(t, CS_BN_MAX_BITS + 64, 1);
    pass_ok &= one_case(a, p, t, 0);
    rand_bits(p, CS_BN_MAX_EXP_BITS + 8, 0);
    pass_ok &= one_case(a, p, m, 0);
    BN_copy(t, p); /* a flag the shim does not know: passed through */
    BN_set_flags(t, 0x4000);
    pass_ok &= one_case(a, t, m, 0) & one_case(a, t, m, 32);
    tap_ok(pass_ok, "%s: unsupported inputs give libcrypto's result and errors", k->name);
    BN_free(a), BN_free(p), BN_free(m), BN_free(t);
}

/* Per-kernel state of the bnmod.txt check. */
struct bnmod_check {
    const char *name;
    long n, bad;
};

/* One ModExp block through the shim's entry, with several flag combinations
 * (even moduli must give libcrypto's answer or error, so they are only run). */
static void bnmod_one(BIGNUM *a, BIGNUM *e, BIGNUM *m, BIGNUM *want, void *arg)
{
    struct bnmod_check *c = arg;
    BIGNUM *r = BN_new();
    for (unsigned flags = 0; flags < 64; flags += 9) {
        unsigned f = flags & ~8u; /* aliasing is covered elsewhere */
        BIGNUM *aa = BN_dup(a), *ee = BN_dup(e), *mm = BN_dup(m);
        if (f & 2)
            BN_set_flags(ee, BN_FLG_CONSTTIME);
        int rc = cs_modexp_entry(&api, (f >> 5) & 1, r, aa, ee, mm, ctx, NULL);
        c->n++;
        if (!BN_is_odd(m) ? 0 : (rc != 1 || BN_cmp(r, want))) {
            if (c->bad++ < 5) {
                char *h = BN_bn2hex(m);
                tap_diag("%s: bnmod ModExp mismatch, M = %.40s...", c->name, h);
                OPENSSL_free(h);
            }
        }
        BN_free(aa), BN_free(ee), BN_free(mm);
    }
    BN_free(want), BN_free(a), BN_free(e), BN_free(m), BN_free(r);
}

/* Every ModExp block of bnmod.txt (A^E mod M = ModExp). */
static void bnmod_vectors(const cs_bn_kernel *k)
{
    struct bnmod_check c = {k->name, 0, 0};
    if (bnmod_modexp_each(k->name, bnmod_one, &c) >= 0)
        tap_ok(c.n > 0 && c.bad == 0, "%s: %ld bnmod.txt ModExp checks", k->name, c.n);
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 100000;
    ctx = BN_CTX_new();
    if (!tap_ok(cs_ossl_resolve_from(&api, RTLD_DEFAULT), "libcrypto functions resolved"))
        return tap_done();
    tap_rng_seed(20261130);
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k; k++) {
        if (!force_usable_kernel(*k))
            continue;
        /* The portable kernel gets the full count, others a share of it. */
        random_cases(*k, k == cs_bn_kernels ? count : count / 4);
        edge_cases(*k);
        bnmod_vectors(*k);
    }
    BN_CTX_free(ctx);
    return tap_done();
}
