/* Differential test of the shim's entries against libcrypto on unusual but
 * legal arguments (issue 14): a caller's BN_MONT_CTX for another modulus in
 * all four functions, BN_mod_exp_mont_consttime_x2 with rr1 aliasing the
 * second half's inputs and with one invalid half, and the stats count of one
 * x2 call. Every kernel built in and usable here is forced in turn, then the
 * built-in policy. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "runtime/stats.h"
#include "support/diff_common.h"
#include "support/stats_file.h"
#include "support/tap.h"

static cs_ossl api = {.version = "OPENSSL_3.0.0"};
static BN_CTX *ctx;

/* A Montgomery context for m (an odd number). */
static BN_MONT_CTX *mont_for(const BIGNUM *m)
{
    BN_MONT_CTX *mc = BN_MONT_CTX_new();
    BN_MONT_CTX_set(mc, m, ctx);
    return mc;
}

/* Whether two outcomes agree: return codes, results when both succeeded,
 * and whether an error was left on the queue. */
static int same(int rw, const BIGNUM *w, unsigned long ew, int rg, const BIGNUM *g,
                unsigned long eg)
{
    return rw == rg && (!rw || !BN_cmp(w, g)) && !ew == !eg;
}

/* The caller's context for m2 (same size, another modulus) passed with m, to
 * each of the four functions: shim and libcrypto must give the same answer. */
static int wrong_mont_case(int bits)
{
    BIGNUM *m = BN_new(), *m2 = BN_new(), *a = BN_new(), *b = BN_new(), *p = BN_new(),
           *q = BN_new(), *w = BN_new(), *g = BN_new(), *w2 = BN_new(), *g2 = BN_new();
    rand_bits(m, bits, 1);
    rand_bits(m2, bits, 1);
    rand_below_bn(a, m, ctx);
    rand_below_bn(b, m, ctx);
    rand_bits(p, bits, 0);
    rand_bits(q, 160, 0);
    BN_MONT_CTX *wrong = mont_for(m2), *right = mont_for(m);
    int ok = 1;
    for (int f = 0; f < 4; f++) {
        for (int which = 0; which < 2; which++) {
            BN_MONT_CTX *mc = which ? right : wrong;
            int rw, rg;
            unsigned long ew, eg;
            BIGNUM *pc = BN_dup(p);
            BN_set_flags(pc, BN_FLG_CONSTTIME);
            ERR_clear_error();
            switch (f) {
            case 0: rw = BN_mod_exp_mont(w, a, p, m, ctx, mc); break;
            case 1: rw = BN_mod_exp_mont_consttime(w, a, pc, m, ctx, mc); break;
            case 2:
                rw = BN_mod_exp_mont_consttime_x2(w, a, pc, m, mc, w2, b, pc, m, mc, ctx);
                break;
            default: rw = BN_mod_exp2_mont(w, a, p, b, q, m, ctx, mc); break;
            }
            ew = ERR_peek_last_error();
            ERR_clear_error();
            switch (f) {
            case 0: rg = cs_modexp_entry(&api, 0, g, a, p, m, ctx, mc); break;
            case 1: rg = cs_modexp_entry(&api, 1, g, a, pc, m, ctx, mc); break;
            case 2: rg = cs_modexp_x2_entry(&api, g, a, pc, m, mc, g2, b, pc, m, mc, ctx); break;
            default: rg = cs_modexp2_entry(&api, g, a, p, b, q, m, ctx, mc); break;
            }
            eg = ERR_peek_last_error();
            ERR_clear_error();
            int good = same(rw, w, ew, rg, g, eg) && (f != 2 || !rw || !BN_cmp(w2, g2));
            if (!good)
                tap_diag("function %d, %d bits, %s context: differs from libcrypto", f, bits,
                         which ? "right" : "wrong");
            ok &= good;
            BN_free(pc);
        }
    }
    BN_MONT_CTX_free(wrong), BN_MONT_CTX_free(right);
    BN_free(m), BN_free(m2), BN_free(a), BN_free(b), BN_free(p), BN_free(q);
    BN_free(w), BN_free(g), BN_free(w2), BN_free(g2);
    return ok;
}

/* cs_mont_ctx_is_for itself: true for m's own context only; false for a
 * context of a factor of m, of m + 2, of another modulus, and an unset one. */
static void mont_check(void)
{
    BIGNUM *f1 = BN_new(), *f2 = BN_new(), *m = BN_new(), *x = BN_new();
    rand_bits(f1, 512, 1);
    rand_bits(f2, 512, 1);
    BN_mul(m, f1, f2, ctx);
    size_t n = ((size_t)BN_num_bits(m) + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    uint8_t buf[CS_BN_MAX_BITS / 8];
    cs_limb ml[CS_BN_MAX_LIMBS];
    static cs_mont cm;
    BN_bn2lebinpad(m, buf, (int)(n * CS_LIMB_BYTES));
    cs_limbs_from_le_bytes(ml, n, buf, n * CS_LIMB_BYTES);
    cs_mont_init(&cm, ml, n);
    BN_MONT_CTX *own = mont_for(m), *factor = mont_for(f1), *unset = BN_MONT_CTX_new();
    BN_copy(x, m);
    BN_add_word(x, 2);
    BN_MONT_CTX *above = mont_for(x);
    rand_bits(x, BN_num_bits(m), 1);
    BN_MONT_CTX *other = mont_for(x);
    tap_ok(cs_mont_ctx_layout_ok(&api, ctx) == 1,
           "BN_MONT_CTX layout confirmed in this libcrypto (the word-for-word check is used)");
    for (int way = 0; way < 2; way++) {
        int (*is_for)(const cs_ossl *, BN_MONT_CTX *, const BIGNUM *, const cs_mont *, BN_CTX *) =
            way ? cs_mont_ctx_reduces_as : cs_mont_ctx_is_for;
        tap_ok(is_for(&api, own, m, &cm, ctx) == 1 && !is_for(&api, factor, m, &cm, ctx) &&
                   !is_for(&api, above, m, &cm, ctx) && !is_for(&api, other, m, &cm, ctx) &&
                   !is_for(&api, unset, m, &cm, ctx) && !ERR_peek_error(),
               "BN_MONT_CTX check (%s): m's own context only (not a factor's, m+2's, another's, "
               "unset)", way ? "two reductions" : "as used");
    }
    BN_MONT_CTX_free(own), BN_MONT_CTX_free(factor), BN_MONT_CTX_free(unset);
    BN_MONT_CTX_free(above), BN_MONT_CTX_free(other);
    BN_free(f1), BN_free(f2), BN_free(m), BN_free(x);
}

/* x2 with rr1 the same BIGNUM as a2, p2 or m2 (its value copied in), and
 * with one invalid half (even modulus, first or second), against libcrypto's
 * own paired function: return codes, both results, the error queue. */
static int x2_case(int bits, int kind)
{
    BIGNUM *m1 = BN_new(), *m2 = BN_new(), *a1 = BN_new(), *a2 = BN_new(), *p1 = BN_new(),
           *p2 = BN_new();
    rand_bits(m1, bits, 1);
    rand_bits(m2, bits, 1);
    rand_below_bn(a1, m1, ctx);
    rand_below_bn(a2, m2, ctx);
    rand_bits(p1, bits, 0);
    rand_bits(p2, bits, 0);
    BN_set_flags(p1, BN_FLG_CONSTTIME);
    BN_set_flags(p2, BN_FLG_CONSTTIME);
    if (kind == 3)
        BN_add_word(m1, 1); /* first half invalid */
    if (kind == 4)
        BN_add_word(m2, 1); /* second half invalid */
    int ok = 1;
    BIGNUM *res[2][2];
    int rc[2];
    unsigned long err[2];
    for (int side = 0; side < 2; side++) {
        /* Fresh copies: the call may overwrite what rr1 aliases. */
        BIGNUM *ca2 = BN_dup(a2), *cp2 = BN_dup(p2), *cm2 = BN_dup(m2), *r2 = BN_new();
        BIGNUM *r1 = kind == 0 ? ca2 : kind == 1 ? cp2 : kind == 2 ? cm2 : BN_new();
        BN_set_word(r2, 7);
        ERR_clear_error();
        rc[side] = side ? cs_modexp_x2_entry(&api, r1, a1, p1, m1, NULL, r2, ca2, cp2, cm2, NULL,
                                             ctx)
                        : BN_mod_exp_mont_consttime_x2(r1, a1, p1, m1, NULL, r2, ca2, cp2, cm2,
                                                       NULL, ctx);
        err[side] = ERR_peek_last_error();
        ERR_clear_error();
        res[side][0] = BN_dup(r1);
        res[side][1] = BN_dup(r2);
        if (kind > 2)
            BN_free(r1);
        BN_free(ca2), BN_free(cp2), BN_free(cm2), BN_free(r2);
    }
    ok = rc[0] == rc[1] && !err[0] == !err[1] && !BN_cmp(res[0][1], res[1][1]) &&
         (!rc[0] || !BN_cmp(res[0][0], res[1][0]));
    for (int side = 0; side < 2; side++)
        BN_free(res[side][0]), BN_free(res[side][1]);
    BN_free(m1), BN_free(m2), BN_free(a1), BN_free(a2), BN_free(p1), BN_free(p2);
    return ok;
}

/* Calls counted in the stats named by path (all counters). */
static uint64_t counted(const char *path)
{
    static cs_stats_segment seg;
    char err[128];
    uint64_t total = 0;
    if (cs_stats_read(path, &seg, err, sizeof err) == 0) {
        for (unsigned i = 0; i < CS_STATS_SLOTS; i++)
            total += seg.slot[i].calls;
        for (unsigned i = 0; i < CS_STATS_OVERFLOW; i++)
            total += seg.overflow[i].calls;
    }
    return total;
}


/* One kernel setting (diff_each_kernel has forced it; k is not needed):
 * every check above. stats_path: the counter file's path, NULL when it
 * could not be opened. */
static void run_all(const cs_bn_kernel *k, const char *name, void *stats_path)
{
    const char *path = stats_path;
    static const int sizes[] = {1024, 2048};
    int ok = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        ok &= wrong_mont_case(sizes[i]);
    tap_ok(ok, "%s: caller's BN_MONT_CTX for another modulus (and its own) in all four "
               "functions as libcrypto", name);
    static const int xsizes[] = {1023, 1024, 1537, 2048, 3073};
    static const char *const kinds[] = {"rr1 = a2", "rr1 = p2", "rr1 = m2",
                                        "first half invalid", "second half invalid"};
    for (int kind = 0; kind < 5; kind++) {
        int good = 1;
        for (size_t i = 0; i < sizeof xsizes / sizeof xsizes[0]; i++)
            for (int rep = 0; rep < 2; rep++)
                if (!x2_case(xsizes[i], kind)) {
                    good = 0;
                    tap_diag("%s: %s, %d bits", name, kinds[kind], xsizes[i]);
                }
        tap_ok(good, "%s: x2 with %s as libcrypto (1023..3073 bits)", name, kinds[kind]);
    }
    if (!path) {
        tap_skip("%s: stats file could not be opened", name);
        return;
    }
    uint64_t before = counted(path);
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *r1 = BN_new(), *r2 = BN_new();
    int calls = 0;
    for (size_t i = 0; i < sizeof xsizes / sizeof xsizes[0]; i++, calls++) {
        rand_bits(m, xsizes[i], 1);
        rand_below_bn(a, m, ctx);
        rand_bits(p, xsizes[i], 0);
        BN_set_flags(p, BN_FLG_CONSTTIME);
        cs_modexp_x2_entry(&api, r1, a, p, m, NULL, r2, a, p, m, NULL, ctx);
    }
    uint64_t after = counted(path);
    tap_ok(after - before == (uint64_t)calls, "%s: %d x2 calls counted %llu times", name, calls,
           (unsigned long long)(after - before));
    BN_free(m), BN_free(a), BN_free(p), BN_free(r1), BN_free(r2);
}

int main(void)
{
    ctx = BN_CTX_new();
    if (!cs_ossl_resolve_from(&api, RTLD_DEFAULT)) {
        tap_ok(0, "libcrypto functions resolved");
        return tap_done();
    }
    char dir[] = "/tmp/cs-diff-args-XXXXXX", path[64];
    int stats = mkdtemp(dir) != NULL;
    snprintf(path, sizeof path, "%s/stats", dir);
    stats = stats && cs_stats_open(path) == 0;
    mont_check();
    diff_each_kernel(run_all, stats ? path : NULL);
    remove_stats(path);
    rmdir(dir);
    BN_CTX_free(ctx);
    return tap_done();
}
