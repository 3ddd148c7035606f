/* Each x86-64 big-number kernel, forced alone, against a slow reference
 * (schoolbook Montgomery written here): mont_mul, mont_sqr and exp with
 * public and secret exponents over sizes 512..4096 and edge operands. */
#include <stdio.h>
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "kernels/bn/engine.h"
#include "tests/unit/support/bn_x86_runs.h"
#include "tests/unit/support/tap.h"

#if defined(__x86_64__)
#include "kernels/bn/x86_64/x86_kernels.h"

/* Reference r = a*b/R mod m by word-serial Montgomery. */
static void ref_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const cs_mont *mt)
{
    size_t n = mt->n;
    cs_limb t[CS_BN_MAX_LIMBS + 2] = {0};
    for (size_t i = 0; i < n; i++) {
        cs_dlimb c = 0;
        for (size_t j = 0; j < n; j++) {
            c += (cs_dlimb)a[j] * b[i] + t[j];
            t[j] = (cs_limb)c;
            c >>= 64;
        }
        c += t[n];
        t[n] = (cs_limb)c;
        t[n + 1] = (cs_limb)(c >> 64);
        cs_limb q = t[0] * mt->n0;
        c = ((cs_dlimb)q * mt->m[0] + t[0]) >> 64;
        for (size_t j = 1; j < n; j++) {
            c += (cs_dlimb)q * mt->m[j] + t[j];
            t[j - 1] = (cs_limb)c;
            c >>= 64;
        }
        c += t[n];
        t[n - 1] = (cs_limb)c;
        t[n] = t[n + 1] + (cs_limb)(c >> 64);
    }
    cs_limb s[CS_BN_MAX_LIMBS];
    cs_dlimb br = 0;
    for (size_t j = 0; j < n; j++) {
        cs_dlimb d = (cs_dlimb)t[j] - mt->m[j] - br;
        s[j] = (cs_limb)d;
        br = (d >> 64) & 1;
    }
    int use_s = t[n] || !br;
    memcpy(r, use_s ? s : t, n * sizeof *r);
}

/* x = 2x mod m. */
static void dbl(cs_limb *x, const cs_limb *m, size_t n)
{
    cs_limb top = x[n - 1] >> 63;
    for (size_t i = n - 1; i > 0; i--)
        x[i] = (x[i] << 1) | (x[i - 1] >> 63);
    x[0] <<= 1;
    int ge = top != 0;
    if (!ge) {
        ge = 1;
        for (size_t i = n; i-- > 0;)
            if (x[i] != m[i]) {
                ge = x[i] > m[i];
                break;
            }
    }
    if (ge) {
        cs_dlimb br = 0;
        for (size_t i = 0; i < n; i++) {
            cs_dlimb d = (cs_dlimb)x[i] - m[i] - br;
            x[i] = (cs_limb)d;
            br = (d >> 64) & 1;
        }
    }
}

/* Montgomery constants computed the slow way (independent of mont.c). */
static void ref_mont(cs_mont *mt, const cs_limb *m, size_t n, unsigned bits)
{
    memset(mt, 0, sizeof *mt);
    mt->n = n;
    mt->bits = bits;
    memcpy(mt->m, m, n * sizeof *m);
    cs_limb inv = 1;
    for (int i = 0; i < 7; i++)
        inv *= 2 - m[0] * inv;
    mt->n0 = 0 - inv;
    cs_limb x[CS_BN_MAX_LIMBS] = {1};
    for (size_t i = 0; i < 64 * n; i++)
        dbl(x, m, n);
    memcpy(mt->one, x, n * sizeof *x);
    for (size_t i = 0; i < 64 * n; i++)
        dbl(x, m, n);
    memcpy(mt->rr, x, n * sizeof *x);
}

/* Reference r = a^e mod m, square and multiply. */
static void ref_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits, const cs_mont *mt)
{
    size_t n = mt->n;
    cs_limb am[CS_BN_MAX_LIMBS], acc[CS_BN_MAX_LIMBS], one[CS_BN_MAX_LIMBS] = {1};
    ref_mul(am, a, mt->rr, mt);
    memcpy(acc, mt->one, n * sizeof *acc);
    for (size_t i = ebits; i-- > 0;) {
        ref_mul(acc, acc, acc, mt);
        if ((e[i / 64] >> (i % 64)) & 1)
            ref_mul(acc, acc, am, mt);
    }
    ref_mul(r, acc, one, mt);
}

/* Random number below m (top limb masked to a shorter length). */
static void rand_below(cs_limb *a, const cs_mont *mt)
{
    size_t n = mt->n;
    for (size_t i = 0; i < n; i++)
        a[i] = tap_rng_u64();
    a[n - 1] &= mt->m[n - 1] >> 1;
}

/* Whether k's mont_mul(a, b) and mont_sqr(a) give the reference's. */
static int mul_sqr_agree(const cs_bn_kernel *k, const cs_limb *a, const cs_limb *b,
                         const cs_mont *mt)
{
    cs_limb r1[CS_BN_MAX_LIMBS], r2[CS_BN_MAX_LIMBS];
    size_t n = mt->n;
    ref_mul(r1, a, b, mt);
    k->mont_mul(r2, a, b, mt);
    int ok = !memcmp(r1, r2, n * sizeof *r1);
    ref_mul(r1, a, a, mt);
    k->mont_sqr(r2, a, mt);
    return ok & !memcmp(r1, r2, n * sizeof *r1);
}

static const unsigned sizes[] = {256, 512, 1000, 1024, 1100, 1536, 2047, 2048, 3072, 4096, 8192};

/* All checks for kernel k on moduli of `bits` bits. */
static void check_size(const cs_bn_kernel *k, unsigned bits)
{
    size_t n = (bits + 63) / 64;
    cs_limb m[CS_BN_MAX_LIMBS] = {0};
    cs_mont mt;
    for (size_t i = 0; i < n; i++)
        m[i] = tap_rng_u64();
    m[0] |= 1;
    unsigned topbits = bits - 64 * (unsigned)(n - 1);
    if (topbits < 64)
        m[n - 1] &= (1ull << topbits) - 1;
    m[n - 1] |= 1ull << (topbits - 1);
    ref_mont(&mt, m, n, bits);

    cs_limb a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], r1[CS_BN_MAX_LIMBS], r2[CS_BN_MAX_LIMBS];
    cs_limb e[2 * CS_BN_MAX_LIMBS];
    if (bits < k->min_bits || bits > k->max_bits) {
        memset(a, 0, sizeof a);
        memset(e, 0, sizeof e);
        tap_ok(k->exp(r2, a, e, 5, &mt, 0) == -1, "%s %u bits: refused, outside its range",
               k->name, bits);
        return;
    }
    int ok = 1;
    for (int t = 0; t < 8 && ok; t++) {
        rand_below(a, &mt);
        rand_below(b, &mt);
        if (t == 1)
            memcpy(a, m, n * sizeof *a), a[0] -= 1; /* m - 1 */
        if (t == 2)
            memset(b, 0, n * sizeof *b);
        ok &= mul_sqr_agree(k, a, b, &mt);
    }
    tap_ok(ok, "%s %u bits: mont_mul and mont_sqr", k->name, bits);
    const size_t elens[] = {0, 1, 2, 17, 64, 65, 256, bits - 1, bits, bits > 2048 ? bits : 2 * bits};
    for (int ct = 0; ct < 2; ct++) {
        ok = 1;
        for (size_t x = 0; x < sizeof elens / sizeof elens[0] && ok; x++) {
            size_t eb = elens[x];
            memset(e, 0, sizeof e);
            for (size_t i = 0; i < (eb + 63) / 64; i++)
                e[i] = tap_rng_u64();
            if (eb % 64)
                e[eb / 64] &= (1ull << (eb % 64)) - 1;
            if (x == 3)
                memset(e, 0, sizeof e); /* all-zero exponent bits */
            rand_below(a, &mt);
            if (x == 4)
                memset(a, 0, n * sizeof *a);
            if (x == 5)
                memset(a, 0, n * sizeof *a), a[0] = 1;
            ref_exp(r1, a, e, eb, &mt);
            int rc = k->exp(r2, a, e, eb, &mt, ct);
            ok &= rc == 0 && !memcmp(r1, r2, n * sizeof *r1);
            if (!ok)
                tap_diag("ebits %zu differs", eb);
        }
        tap_ok(ok, "%s %u bits: exp %s", k->name, bits, ct ? "consttime" : "public");
    }
}

/* x (p->words digits of p->w bits) = 2m - 1, the largest value the kernels'
 * almost-Montgomery arithmetic holds between operations. */
static void digits_2m_minus_1(cs_limb *x, const cs_bn_prep *p)
{
    const cs_limb mask = ((cs_limb)1 << p->w) - 1;
    cs_limb c = 0;
    for (size_t j = 0; j < p->words; j++) {
        cs_limb v = 2 * p->m[j] + c - (j == 0);
        x[j] = v & mask;
        c = v >> p->w;
    }
}

/* The FMA kernels (k; sizes bits[0..nbits-1]) at the edges of their size
 * classes (digit counts around each whole vector count) with an all-ones
 * modulus and one with random low digits, operands m - 1 (all ones but
 * bit 0 for the all-ones modulus) and 2m - 1 through the prepared
 * multiplication and squaring directly: results keep normalised digits
 * (zero above the digits used) and agree mod m with each other and, for
 * m - 1, the reference. */
static void fma_edges(const cs_bn_kernel *k, const unsigned *bits, size_t nbits)
{
    for (size_t s = 0; s < nbits; s++) {
        int ok = 1;
        for (int kind = 0; kind < 2 && ok; kind++) {
            size_t n = (bits[s] + 63) / 64;
            unsigned top = bits[s] - 64 * (unsigned)(n - 1);
            cs_limb m[CS_BN_MAX_LIMBS] = {0};
            for (size_t i = 0; i < n; i++)
                m[i] = kind ? tap_rng_u64() | (i + 2 >= n ? ~(cs_limb)0 : 0) : ~(cs_limb)0;
            m[0] |= 1;
            if (top < 64)
                m[n - 1] &= ((cs_limb)1 << top) - 1;
            m[n - 1] |= (cs_limb)1 << (top - 1);
            static cs_mont mt;
            ref_mont(&mt, m, n, bits[s]);
            if (cs_bn_prepare(k, &mt)) {
                ok = 0;
                break;
            }
            const cs_bn_prep *p = &mt.prep;
            cs_limb a[CS_BN_MAX_LIMBS], r1[CS_BN_MAX_LIMBS], r2[CS_BN_MAX_LIMBS];
            cs_limb x[CS_BN_MAX_WORDS], y[CS_BN_MAX_WORDS], z[CS_BN_MAX_WORDS];
            memcpy(a, m, n * sizeof *a);
            a[0] -= 1; /* m - 1 */
            k->mont_sqr(r1, a, &mt);
            ref_mul(r2, a, a, &mt);
            ok &= !memcmp(r1, r2, n * sizeof *r1);
            k->ops->load(y, a, p);
            digits_2m_minus_1(x, p); /* equal to y mod m */
            for (int op = 0; op < 3 && ok; op++) {
                if (op == 0)
                    p->sqr(z, x, x, p);
                else if (op == 1)
                    p->mul(z, x, x, p);
                else
                    p->mul(z, x, y, p);
                for (size_t j = 0; j < p->words; j++)
                    ok &= z[j] >> p->w == 0 && (j < p->iters || z[j] == 0);
                /* Times 1 (at most m, as store wants), against y*y. */
                cs_limb w2[CS_BN_MAX_WORDS];
                p->sqr(w2, y, y, p);
                p->mul(z, z, cs_bn_one, p);
                p->mul(w2, w2, cs_bn_one, p);
                k->ops->store(r1, z, p);
                k->ops->store(r2, w2, p);
                ok &= !memcmp(r1, r2, n * sizeof *r1);
            }
            if (!ok)
                tap_diag("%u bits, %s modulus", bits[s], kind ? "random" : "all-ones");
        }
        tap_ok(ok, "%s %u bits: size-class edges, operands m-1 and 2m-1", k->name, bits[s]);
    }
}

/* m = an odd n-limb modulus of kind mk: 0 all ones, 1 random with its top
 * limb near 2^64 (2^64 - 2^k, k < 8), 2 random with 2^63 alone on top, 3
 * random with the top bit set. */
static void extreme_modulus(cs_limb *m, size_t n, int mk)
{
    for (size_t i = 0; i < n; i++)
        m[i] = mk == 0 ? ~0ull : tap_rng_u64();
    m[0] |= 1;
    if (mk == 1)
        m[n - 1] = ~0ull << (tap_rng_u64() % 8);
    if (mk == 2)
        m[n - 1] = 1ull << 63;
    if (mk == 3)
        m[n - 1] |= 1ull << 63;
}

/* The ADX kernel's block paths (adx_blk.S, taken at a multiple of eight
 * limbs) and the row paths beside them: each size class from 8 to 128
 * limbs and its neighbours, moduli whose top limb is at or near 2^64 (all
 * ones, 2^64 - 2^k) or just its top bit, and operands at the extremes
 * (m - 1, all ones below m, 0, 1, a == b). */
static void check_adx_blocks(const cs_bn_kernel *k)
{
    static const size_t limbs[] = {7, 8, 9, 15, 16, 17, 23, 24, 25, 32, 40, 48, 56, 64, 128};
    for (size_t s = 0; s < sizeof limbs / sizeof limbs[0]; s++) {
        size_t n = limbs[s];
        int ok = 1;
        for (int mk = 0; mk < 4 && ok; mk++) {
            cs_limb m[CS_BN_MAX_LIMBS] = {0};
            extreme_modulus(m, n, mk);
            cs_mont mt;
            ref_mont(&mt, m, n, (unsigned)(64 * n));
            cs_limb a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS];
            for (int t = 0; t < 6 && ok; t++) {
                rand_below(a, &mt);
                rand_below(b, &mt);
                if (t == 0) /* m - 1 and m - 2 */
                    memcpy(a, m, n * sizeof *a), memcpy(b, m, n * sizeof *b), a[0] -= 1,
                        b[0] -= 2;
                if (t == 1) /* all ones below m's top limb */
                    for (size_t i = 0; i < n; i++)
                        a[i] = b[i] = i + 1 < n ? ~0ull : m[n - 1] - 1;
                if (t == 2)
                    memset(a, 0, n * sizeof *a), a[0] = 1;
                if (t == 3)
                    memset(b, 0, n * sizeof *b);
                if (t == 4)
                    memcpy(b, a, n * sizeof *b);
                ok &= mul_sqr_agree(k, a, b, &mt);
                if (!ok)
                    tap_diag("%zu limbs, modulus kind %d, operands %d differ", n, mk, t);
            }
        }
        tap_ok(ok, "%s %zu limbs: block/row paths, extreme moduli and operands", k->name, n);
    }
}

/* The ADX kernel's straight-line squarings (adx_fixed.S: 16 and 24 limbs)
 * and multiplication (16 limbs) against the portable kernel's mont_sqr and
 * mont_mul, each case then squared on 40 times (an exponentiation's chain,
 * r aliasing a) and multiplied on by a random operand: moduli all ones,
 * top limb near 2^64 (2^64 - 2^k), 2^63 alone, and random with the top bit
 * set; operands m - 1, m - 2, 0, 1, all ones below m's top limb, and
 * random. */
static void check_adx_fixed(const cs_bn_kernel *k)
{
    static const size_t limbs[] = {16, 24};
    for (size_t s = 0; s < sizeof limbs / sizeof limbs[0]; s++) {
        size_t n = limbs[s];
        int ok = 1;
        for (int mk = 0; mk < 4 && ok; mk++) {
            for (int rep = 0; rep < 8 && ok; rep++) {
                cs_limb m[CS_BN_MAX_LIMBS] = {0};
                extreme_modulus(m, n, mk);
                static cs_mont mt;
                ref_mont(&mt, m, n, (unsigned)(64 * n));
                for (int t = 0; t < 6 && ok; t++) {
                    cs_limb a[CS_BN_MAX_LIMBS], x[CS_BN_MAX_LIMBS], y[CS_BN_MAX_LIMBS];
                    cs_limb b[CS_BN_MAX_LIMBS], u[CS_BN_MAX_LIMBS], w[CS_BN_MAX_LIMBS];
                    rand_below(a, &mt);
                    rand_below(b, &mt);
                    if (t == 0)
                        memcpy(a, m, n * sizeof *a), a[0] -= 1; /* m - 1 */
                    if (t == 1)
                        memcpy(a, m, n * sizeof *a), a[0] -= 2; /* m - 2 */
                    if (t == 2)
                        memset(a, 0, n * sizeof *a);
                    if (t == 3)
                        memset(a, 0, n * sizeof *a), a[0] = 1;
                    if (t == 4) /* all ones below m's top limb */
                        for (size_t i = 0; i < n; i++)
                            a[i] = i + 1 < n ? ~0ull : m[n - 1] - 1;
                    memcpy(x, a, n * sizeof *a);
                    memcpy(y, a, n * sizeof *a);
                    memcpy(u, a, n * sizeof *a);
                    memcpy(w, a, n * sizeof *a);
                    for (int c = 0; c < 40 && ok; c++) {
                        k->mont_sqr(x, x, &mt);
                        cs_bn_portable.mont_sqr(y, y, &mt);
                        ok &= !memcmp(x, y, n * sizeof *x);
                        k->mont_mul(u, u, c % 2 ? b : x, &mt);
                        cs_bn_portable.mont_mul(w, w, c % 2 ? b : y, &mt);
                        ok &= !memcmp(u, w, n * sizeof *u);
                    }
                    if (!ok)
                        tap_diag("%zu limbs, modulus kind %d, operand %d differ", n, mk, t);
                }
            }
        }
        tap_ok(ok, "%s %zu limbs: mont_sqr and mont_mul chains against the portable kernel",
               k->name, n);
    }
}

int main(void)
{
    const cs_bn_kernel *ks[] = {&cs_bn_x86_ifma, &cs_bn_x86_avx2,  &cs_bn_x86_fma,
                                &cs_bn_x86_fma512, &cs_bn_x86_adx, &cs_bn_x86_mulx};
    tap_rng_seed(86);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        if (!bn_x86_kernel_runs(ks[i], 0, 0)) {
            tap_skip("%s: CPU lacks its features", ks[i]->name);
            continue;
        }
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            check_size(ks[i], sizes[s]);
        if (ks[i] == &cs_bn_x86_adx) {
            check_adx_blocks(ks[i]);
            check_adx_fixed(ks[i]);
        }
    }
    /* 50-bit digits in fours (fma.c); 52-bit digits in eights (fma512.c:
     * 16/17, 20/21, 24/25, ... digits, R' needing bits + 2). */
    static const unsigned fma_bits[] = {979,  1174, 1175, 1371, 1566, 1959,
                                        2154, 2939, 3134, 3919, 4000, 4096};
    static const unsigned fma512_bits[] = {830,  831,  1038, 1039, 1246, 1247, 1662,
                                           1663, 2078, 2079, 3118, 3119, 4094, 4096};
    if (bn_x86_kernel_runs(&cs_bn_x86_fma, 0, 0))
        fma_edges(&cs_bn_x86_fma, fma_bits, sizeof fma_bits / sizeof fma_bits[0]);
    if (bn_x86_kernel_runs(&cs_bn_x86_fma512, 0, 0))
        fma_edges(&cs_bn_x86_fma512, fma512_bits, sizeof fma512_bits / sizeof fma512_bits[0]);
    return tap_done();
}
#else
TAP_SKIP_MAIN("x86-64 kernels: not an x86-64 build")
#endif
