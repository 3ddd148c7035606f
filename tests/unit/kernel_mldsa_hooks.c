/* Every hook of every ML-DSA implementation in cs_mldsa_impls[] against the
 * portable one on random inputs within each hook's contract (see
 * kernels/mldsa/mldsa_backend.h), plus whole keygen/sign/verify agreement
 * on random seeds, plus the portable NTT against schoolbook multiplication.
 * NTT-domain results are compared only after returning to the normal
 * domain, since a backend may keep its own NTT order. One TAP line per
 * (implementation, hook). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_portable.h"
#include "runtime/cpu.h"
#include "support/mldsa_ref.h"
#include "support/impl_runs.h"
#include "support/tap.h"


#define Q CS_MLDSA_Q
#define TRIALS 200

static const cs_mldsa_impl *const P = &cs_mldsa_portable;

/* Uniform in [lo, hi]. */
static int32_t rnd_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(tap_rng_u64() % (uint64_t)((int64_t)hi - lo + 1));
}

static void rnd_poly(cs_mldsa_poly *a, int32_t lo, int32_t hi)
{
    for (unsigned i = 0; i < 256; i++)
        a->c[i] = rnd_range(lo, hi);
}

/* A SampleInBall-shaped polynomial: tau coefficients +-1. */
static void rnd_challenge(cs_mldsa_poly *c, unsigned tau)
{
    memset(c, 0, sizeof *c);
    for (unsigned n = 0; n < tau;) {
        unsigned j = (unsigned)(tap_rng_u64() % 256);
        if (c->c[j])
            continue;
        c->c[j] = tap_rng_u64() & 1 ? 1 : -1;
        n++;
    }
}

/* a == b mod q coefficientwise. */
static int eq_modq(const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i++)
        if (mldsa_modq(a->c[i]) != mldsa_modq(b->c[i]))
            return 0;
    return 1;
}

static int eq(const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    return !memcmp(a, b, sizeof *a);
}

static void test_portable_ntt(void)
{
    int ok = 1;
    for (int t = 0; t < 20; t++) {
        cs_mldsa_poly a, b, r, want;
        rnd_poly(&a, -Q + 1, Q - 1);
        rnd_poly(&b, -Q + 1, Q - 1);
        ok &= mldsa_ntt_mul(P, &r, &a, &b);
        mldsa_schoolbook(&want, &a, &b);
        ok &= eq_modq(&r, &want);
        /* mul_challenge against schoolbook too */
        rnd_challenge(&a, 60);
        rnd_poly(&b, -(1 << 23), 1 << 23);
        P->mul_challenge(&r, &a, &b);
        mldsa_schoolbook(&want, &a, &b);
        ok &= eq_modq(&r, &want);
    }
    tap_ok(ok, "portable NTT product and mul_challenge equal schoolbook");
}

static void test_keccak(const cs_mldsa_impl *im)
{
    int ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        uint64_t s[25], r[25];
        for (int i = 0; i < 25; i++)
            s[i] = r[i] = tap_rng_u64();
        im->keccak->f1600(s);
        cs_keccakf1600_portable(r);
        ok &= !memcmp(s, r, sizeof s);
    }
    tap_ok(ok, "%s keccakf1600", im->name);
    if (!im->keccak->f1600_x4) {
        tap_diag("%s keccakf1600_x4: not provided, nothing to test", im->name);
        return;
    }
    ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        uint64_t s[100], r[4][25];
        for (int i = 0; i < 25; i++)
            for (int j = 0; j < 4; j++)
                s[4 * i + j] = r[j][i] = tap_rng_u64();
        im->keccak->f1600_x4(s);
        for (int j = 0; j < 4; j++) {
            cs_keccakf1600_portable(r[j]);
            for (int i = 0; i < 25; i++)
                ok &= s[4 * i + j] == r[j][i];
        }
    }
    tap_ok(ok, "%s keccakf1600_x4", im->name);
}

static void test_ntt(const cs_mldsa_impl *im)
{
    int ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly a, b, r1, r2;
        rnd_poly(&a, -Q + 1, Q - 1);
        rnd_poly(&b, -Q + 1, Q - 1);
        ok &= mldsa_ntt_mul(im, &r1, &a, &b);
        mldsa_ntt_mul(P, &r2, &a, &b);
        ok &= eq_modq(&r1, &r2);
    }
    tap_ok(ok, "%s ntt, pointwise_mont, invntt_tomont", im->name);

    /* Value by value, in the impl's order: ntt is the portable NTT in the
     * impl's order (ntt_order), and invntt_tomont of that order gives the
     * portable inverse's outputs (the AVX-512 NTT's in-register layers and
     * lane permutations included). The contract (mldsa_backend.h) promises
     * residues within its bounds (9q out of ntt, q out of invntt_tomont);
     * the x86-64 tables keep the portable Montgomery steps and so give the
     * same words, which is checked for them; s390x's vector NTT gives other
     * representatives of the same residues. */
    const int exact = !strncmp(im->name, "avx", 3);
    ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly a, x, y;
        rnd_poly(&a, -Q + 1, Q - 1);
        x = a, y = a;
        im->ntt(&x);
        P->ntt(&y);
        if (im->ntt_order)
            im->ntt_order(&y);
        ok &= mldsa_bounded(&x, 9 * (int64_t)Q) && (exact ? eq(&x, &y) : eq_modq(&x, &y));
        rnd_poly(&a, -Q + 1, Q - 1);
        x = a, y = a;
        if (im->ntt_order)
            im->ntt_order(&x);
        im->invntt_tomont(&x);
        P->invntt_tomont(&y);
        ok &= mldsa_bounded(&x, Q) && (exact ? eq(&x, &y) : eq_modq(&x, &y));
    }
    tap_ok(ok, "%s ntt and invntt_tomont equal the portable ones value by value%s", im->name,
           exact ? ", word for word" : " (mod q)");

    ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly a[8], b[8], r1, r2;
        unsigned n = 1 + (unsigned)(tap_rng_u64() % 8);
        for (unsigned i = 0; i < n; i++) {
            rnd_poly(&a[i], 0, Q - 1); /* as ExpandA output */
            rnd_poly(&b[i], -Q + 1, Q - 1);
        }
        /* the same NTT-domain inputs for both: the impl's own ntt output */
        cs_mldsa_poly ia[8], ib[8], pa[8], pb[8];
        for (unsigned i = 0; i < n; i++) {
            ia[i] = a[i], ib[i] = b[i], pa[i] = a[i], pb[i] = b[i];
            im->ntt(&ia[i]), im->ntt(&ib[i]), P->ntt(&pa[i]), P->ntt(&pb[i]);
        }
        for (unsigned i = 0; i < n; i++) {
            im->reduce32(&ia[i]), im->caddq(&ia[i]);
            P->reduce32(&pa[i]), P->caddq(&pa[i]);
        }
        im->pointwise_acc_mont(&r1, ia, ib, n);
        ok &= mldsa_bounded(&r1, (int64_t)n * Q);
        im->reduce32(&r1);
        if (im->pointwise_acc_reduce) { /* the fused form: the same words */
            cs_mldsa_poly r3;
            im->pointwise_acc_reduce(&r3, ia, ib, n);
            ok &= eq(&r3, &r1);
        }
        im->invntt_tomont(&r1);
        P->pointwise_acc_mont(&r2, pa, pb, n);
        P->reduce32(&r2);
        P->invntt_tomont(&r2);
        ok &= eq_modq(&r1, &r2);
    }
    tap_ok(ok, "%s pointwise_acc_mont", im->name);

    ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly c, s, r1, r2;
        rnd_challenge(&c, 39 + (unsigned)(tap_rng_u64() % 22));
        rnd_poly(&s, -(1 << 23), 1 << 23);
        im->mul_challenge(&r1, &c, &s);
        P->mul_challenge(&r2, &c, &s);
        ok &= eq(&r1, &r2);
    }
    tap_ok(ok, "%s mul_challenge", im->name);
}

static void test_elementwise(const cs_mldsa_impl *im)
{
    int ok1 = 1, ok2 = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly a, b, x, y;
        rnd_poly(&a, -(1 << 30), (1 << 30));
        x = y = a;
        im->reduce32(&x);
        P->reduce32(&y);
        ok1 &= eq_modq(&x, &y) && mldsa_bounded(&x, 6283009);
        rnd_poly(&a, -Q + 1, Q - 1);
        x = y = a;
        im->caddq(&x);
        P->caddq(&y);
        ok1 &= eq(&x, &y);
        rnd_poly(&a, -(1 << 29), 1 << 29);
        rnd_poly(&b, -(1 << 29), 1 << 29);
        im->add(&x, &a, &b);
        P->add(&y, &a, &b);
        ok2 &= eq(&x, &y);
        im->sub(&x, &a, &b);
        P->sub(&y, &a, &b);
        ok2 &= eq(&x, &y);
        rnd_poly(&a, 0, (1 << 10) - 1);
        x = y = a;
        im->shiftl(&x);
        P->shiftl(&y);
        ok2 &= eq(&x, &y);
    }
    tap_ok(ok1, "%s reduce32, caddq", im->name);
    tap_ok(ok2, "%s add, sub, shiftl", im->name);
}

static void test_rounding(const cs_mldsa_impl *im)
{
    static const int32_t g2s[2] = {(Q - 1) / 88, (Q - 1) / 32};
    int okp = 1, okd = 1, okh = 1, oku = 1, okn = 1;
    for (int t = 0; t < TRIALS; t++) {
        cs_mldsa_poly a, a1, a0, b1, b0, h1, h2;
        rnd_poly(&a, 0, Q - 1);
        a.c[0] = Q - 1; /* corner cases */
        a.c[1] = 0;
        im->power2round(&a1, &a0, &a);
        P->power2round(&b1, &b0, &a);
        okp &= eq(&a1, &b1) && eq(&a0, &b0);
        for (int g = 0; g < 2; g++) {
            int32_t g2 = g2s[g];
            im->decompose(&a1, &a0, &a, g2);
            P->decompose(&b1, &b0, &a, g2);
            okd &= eq(&a1, &b1) && eq(&a0, &b0);
            /* hints: a0 near the +-gamma2 edges, a1 sometimes 0 */
            for (unsigned i = 0; i < 256; i++) {
                a0.c[i] = rnd_range(-2 * g2, 2 * g2);
                if (i % 4 == 0)
                    a0.c[i] = i % 8 ? -g2 : g2;
                a1.c[i] = i % 3 ? rnd_range(0, 15) : 0;
            }
            unsigned n1 = im->make_hint(&h1, &a0, &a1, g2);
            unsigned n2 = P->make_hint(&h2, &a0, &a1, g2);
            okh &= n1 == n2 && eq(&h1, &h2);
            im->use_hint(&b1, &a, &h1, g2);
            P->use_hint(&b0, &a, &h1, g2);
            oku &= eq(&b1, &b0);
        }
        int32_t bound = rnd_range(1, (Q - 1) / 8);
        rnd_poly(&a, -bound - 3, bound + 3);
        okn &= !im->chknorm(&a, bound) == !P->chknorm(&a, bound);
        rnd_poly(&a, -bound + 1, bound - 1);
        okn &= !im->chknorm(&a, bound) && !P->chknorm(&a, bound);
    }
    tap_ok(okp, "%s power2round", im->name);
    tap_ok(okd, "%s decompose", im->name);
    tap_ok(okh, "%s make_hint", im->name);
    tap_ok(oku, "%s use_hint", im->name);
    tap_ok(okn, "%s chknorm", im->name);
}

/* 1 if r[from..to) still hold the 0x5A fill. */
static int untouched(const int32_t *r, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        if (r[i] != 0x5A5A5A5A)
            return 0;
    return 1;
}

static void test_sampling(const cs_mldsa_impl *im)
{
    int oku = 1, oke = 1, oka = 1, oks = 1, okm = 1;
    for (int t = 0; t < TRIALS / 4; t++) {
        uint8_t buf[840];
        int32_t r1[256], r2[256];
        tap_rng_bytes(buf, sizeof buf);
        unsigned len = 1 + (unsigned)(tap_rng_u64() % 256), blen = 3 * (unsigned)(tap_rng_u64() % 281);
        /* r1[len..] must stay untouched: callers sample into consecutive
         * polynomials (a vector store past len clobbers the next one). */
        memset(r1, 0x5A, sizeof r1);
        unsigned n1 = im->rej_uniform(r1, len, buf, blen);
        unsigned n2 = P->rej_uniform(r2, len, buf, blen);
        oku &= n1 == n2 && !memcmp(r1, r2, n1 * sizeof r1[0]) && untouched(r1, len, 256);
        for (unsigned eta = 2; eta <= 4; eta += 2) {
            blen = (unsigned)(tap_rng_u64() % 273);
            memset(r1, 0x5A, sizeof r1);
            n1 = im->rej_eta(r1, len, buf, blen, eta);
            n2 = P->rej_eta(r2, len, buf, blen, eta);
            oke &= n1 == n2 && !memcmp(r1, r2, n1 * sizeof r1[0]) && untouched(r1, len, 256);
        }
    }
    for (int t = 0; t < 6; t++) {
        uint8_t seed[64];
        tap_rng_bytes(seed, sizeof seed);
        const cs_mldsa_params *p = cs_mldsa_params_get(t % 3 == 0 ? 44 : t % 3 == 1 ? 65 : 87);
        static cs_mldsa_poly m1[56], m2[56], x[7], s1a[8], s2a[8], s1b[8], s2b[8];
        im->expand_a(im, m1, seed, p->k, p->l);
        P->expand_a(P, m2, seed, p->k, p->l);
        /* compare A*x in the normal domain */
        for (unsigned i = 0; i < p->l; i++) {
            rnd_poly(&x[i], -Q + 1, Q - 1);
        }
        cs_mldsa_poly xi[7], xp[7];
        for (unsigned i = 0; i < p->l; i++) {
            xi[i] = xp[i] = x[i];
            im->ntt(&xi[i]);
            P->ntt(&xp[i]);
        }
        for (unsigned r = 0; r < p->k; r++) {
            cs_mldsa_poly a, b;
            for (unsigned s = 0; s < p->l; s++)
                oka &= mldsa_bounded(&m1[r * p->l + s], Q) && m1[r * p->l + s].c[0] >= 0;
            im->pointwise_acc_mont(&a, &m1[r * p->l], xi, p->l);
            im->reduce32(&a);
            im->invntt_tomont(&a);
            P->pointwise_acc_mont(&b, &m2[r * p->l], xp, p->l);
            P->reduce32(&b);
            P->invntt_tomont(&b);
            oka &= eq_modq(&a, &b);
        }
        im->expand_s(im, s1a, s2a, seed, p->k, p->l, p->eta);
        P->expand_s(P, s1b, s2b, seed, p->k, p->l, p->eta);
        oks &= !memcmp(s1a, s1b, p->l * sizeof s1a[0]) && !memcmp(s2a, s2b, p->k * sizeof s2a[0]);
        uint16_t kappa = (uint16_t)tap_rng_u64();
        im->expand_mask(im, s1a, seed, kappa, p->l, p->gamma1);
        P->expand_mask(P, s1b, seed, kappa, p->l, p->gamma1);
        okm &= !memcmp(s1a, s1b, p->l * sizeof s1a[0]);
    }
    tap_ok(oku, "%s rej_uniform", im->name);
    tap_ok(oke, "%s rej_eta", im->name);
    tap_ok(oka, "%s expand_a (and ntt_order)", im->name);
    tap_ok(oks, "%s expand_s", im->name);
    tap_ok(okm, "%s expand_mask", im->name);
}

static void test_packing(const cs_mldsa_impl *im)
{
    int ok = 1;
    for (int t = 0; t < TRIALS / 4; t++) {
        cs_mldsa_poly a, x, y;
        uint8_t b1[640], b2[640];
#define ROUNDTRIP(lo, hi, packcall1, packcall2, unpackcall1, unpackcall2, nbytes)               \
    do {                                                                                      \
        rnd_poly(&a, lo, hi);                                                                 \
        packcall1;                                                                            \
        packcall2;                                                                            \
        ok &= !memcmp(b1, b2, nbytes);                                                        \
        unpackcall1;                                                                          \
        unpackcall2;                                                                          \
        ok &= eq(&x, &y) && eq(&x, &a);                                                       \
    } while (0)
        ROUNDTRIP(0, 1023, im->pack_t1(b1, &a), P->pack_t1(b2, &a), im->unpack_t1(&x, b1),
                  P->unpack_t1(&y, b1), 320);
        ROUNDTRIP(-(1 << 12) + 1, 1 << 12, im->pack_t0(b1, &a), P->pack_t0(b2, &a),
                  im->unpack_t0(&x, b1), P->unpack_t0(&y, b1), 416);
        ROUNDTRIP(-2, 2, im->pack_eta(b1, &a, 2), P->pack_eta(b2, &a, 2),
                  im->unpack_eta(&x, b1, 2), P->unpack_eta(&y, b1, 2), 96);
        ROUNDTRIP(-4, 4, im->pack_eta(b1, &a, 4), P->pack_eta(b2, &a, 4),
                  im->unpack_eta(&x, b1, 4), P->unpack_eta(&y, b1, 4), 128);
        ROUNDTRIP(-(1 << 17) + 1, 1 << 17, im->pack_z(b1, &a, 1 << 17),
                  P->pack_z(b2, &a, 1 << 17), im->unpack_z(&x, b1, 1 << 17),
                  P->unpack_z(&y, b1, 1 << 17), 576);
        ROUNDTRIP(-(1 << 19) + 1, 1 << 19, im->pack_z(b1, &a, 1 << 19),
                  P->pack_z(b2, &a, 1 << 19), im->unpack_z(&x, b1, 1 << 19),
                  P->unpack_z(&y, b1, 1 << 19), 640);
        /* unpackers on arbitrary bytes (malformed keys/signatures); the
         * eta range flag is set iff a coefficient leaves [-eta, eta] */
        tap_rng_bytes(b1, sizeof b1);
        for (unsigned eta = 2; eta <= 4; eta += 2) {
            int f1 = im->unpack_eta(&x, b1, eta), f2 = P->unpack_eta(&y, b1, eta);
            ok &= eq(&x, &y) && (f1 != 0) == (f2 != 0) && (f1 != 0) == !mldsa_bounded(&x, eta + 1);
            /* a valid encoding, then one field set to the smallest bad value */
            rnd_poly(&a, -(int32_t)eta, (int32_t)eta);
            im->pack_eta(b2, &a, eta);
            ok &= im->unpack_eta(&x, b2, eta) == 0 && P->unpack_eta(&y, b2, eta) == 0;
            unsigned bits = eta == 2 ? 3 : 4, i = (unsigned)(tap_rng_u64() % 256);
            unsigned pos = i * bits, field = 2 * eta + 1;
            for (unsigned j = 0; j < bits; j++, pos++) {
                b2[pos / 8] &= (uint8_t)~(1u << (pos % 8));
                b2[pos / 8] |= (uint8_t)(((field >> j) & 1) << (pos % 8));
            }
            ok &= im->unpack_eta(&x, b2, eta) != 0 && P->unpack_eta(&y, b2, eta) != 0;
        }
        im->unpack_z(&x, b1, 1 << 17), P->unpack_z(&y, b1, 1 << 17);
        ok &= eq(&x, &y);
        im->unpack_z(&x, b1, 1 << 19), P->unpack_z(&y, b1, 1 << 19);
        ok &= eq(&x, &y);
        rnd_poly(&a, 0, 43);
        im->pack_w1(b1, &a, (Q - 1) / 88), P->pack_w1(b2, &a, (Q - 1) / 88);
        ok &= !memcmp(b1, b2, 192);
        rnd_poly(&a, 0, 15);
        im->pack_w1(b1, &a, (Q - 1) / 32), P->pack_w1(b2, &a, (Q - 1) / 32);
        ok &= !memcmp(b1, b2, 128);
    }
    tap_ok(ok, "%s packing", im->name);
    if (!im->t_row_finish)
        return;
    /* keygen's fused row end against the portable hook sequence, with
     * the extremes of |t| < q and |s2| <= 4 */
    ok = 1;
    for (int t = 0; t < TRIALS / 4; t++) {
        cs_mldsa_poly tt, s2, t0a, t0b;
        uint8_t b1[CS_MLDSA_POLY_T1_BYTES + 16], b2[CS_MLDSA_POLY_T1_BYTES];
        rnd_poly(&tt, -Q + 1, Q - 1);
        rnd_poly(&s2, -4, 4);
        if (t & 1)
            for (unsigned i = 0; i < 256; i += 2)
                tt.c[i] = i & 2 ? Q - 1 : -Q + 1;
        memset(b1, 0x5A, sizeof b1);
        im->t_row_finish(b1, &t0a, &tt, &s2);
        mldsa_t_row_ref(P, b2, &t0b, &tt, &s2);
        ok &= !memcmp(b1, b2, sizeof b2) && eq(&t0a, &t0b) && b1[sizeof b2] == 0x5A;
    }
    tap_ok(ok, "%s t_row_finish", im->name);
}

/* Signing's fused hooks against the portable hook sequences they replace:
 * a batch of mask_batch streams (signing's carried batches) against the
 * portable expand_mask's, both gamma1, nonces wrapping; sum_chknorm on sums and differences of the sizes signing
 * passes, with bounds that both pass and fail, in place and not. */
static void test_fused(const cs_mldsa_impl *im)
{
    int ok = 1;
    if (im->mask_batch) {
        const unsigned n = im->mask_batch;
        ok = n <= 8;
        for (int t = 0; t < 8 && ok; t++) {
            int32_t g1 = t & 1 ? 1 << 19 : 1 << 17;
            uint16_t nonce = (uint16_t)(t & 2 ? 65534 : tap_rng_u64()); /* with a wrap */
            uint8_t rhopp[64];
            cs_mldsa_poly y1[8], y2[8];
            tap_rng_bytes(rhopp, sizeof rhopp);
            im->expand_mask(im, y1, rhopp, nonce, n, g1);
            P->expand_mask(P, y2, rhopp, nonce, n, g1);
            for (unsigned j = 0; j < n; j++)
                ok &= eq(&y1[j], &y2[j]);
        }
        tap_ok(ok, "%s expand_mask, a batch of mask_batch streams", im->name);
    }
    if (!im->sum_chknorm)
        return;
    ok = 1;
    for (int t = 0; t < TRIALS; t++) {
        static const int32_t bounds[4] = {(1 << 17) - 78, (1 << 19) - 196, (Q - 1) / 88 - 78,
                                          (Q - 1) / 32 - 196};
        int sub = t & 1, inplace = t & 2;
        int32_t bound = bounds[(t >> 2) & 3];
        cs_mldsa_poly a, b, c1, c2;
        rnd_poly(&a, -Q + 1, Q - 1);
        if (t & 8) /* mostly small sums, so the check passes or fails narrowly */
            for (unsigned i = 0; i < 256; i++)
                a.c[i] = (int32_t)(i & 1 ? Q : -Q) * (int32_t)(t & 16 ? 0 : 1) +
                         rnd_range(-bound + 2, bound - 2);
        rnd_poly(&b, -2, 2);
        if (t & 32)
            b.c[tap_rng_u64() % 256] = bound * (t & 64 ? 1 : -1);
        int r2;
        (sub ? P->sub : P->add)(&c2, &a, &b);
        P->reduce32(&c2);
        r2 = P->chknorm(&c2, bound);
        int r1;
        if (inplace) {
            c1 = a;
            r1 = im->sum_chknorm(&c1, &c1, &b, sub, bound);
        } else {
            r1 = im->sum_chknorm(&c1, &a, &b, sub, bound);
        }
        ok &= eq(&c1, &c2) && !r1 == !r2;
    }
    tap_ok(ok, "%s sum_chknorm", im->name);
}

/* Whole operations: same keys, deterministic and hedged signatures. */
/* pk_from_sk refuses expanded private keys OpenSSL refuses: one bit of
 * t0 flipped, tr changed, an s1 or s2 coefficient out of [-eta, eta]
 * (even with tr recomputed for the resulting pk); and still accepts the
 * key itself. */
static void test_corrupt_sk(const cs_mldsa_impl *im)
{
    static const int sets[3] = {44, 65, 87};
    int ok = 1;
    for (int t = 0; t < 6; t++) {
        int ps = sets[t % 3];
        unsigned k = ps == 44 ? 4 : ps == 65 ? 6 : 8, l = ps == 44 ? 4 : ps == 65 ? 5 : 7;
        unsigned eta = ps == 65 ? 4 : 2, etab = eta == 2 ? 96 : 128;
        size_t skb = cs_mldsa_sk_bytes(ps), t0off = 128 + (k + l) * etab;
        uint8_t seed[32];
        static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES],
            bad[CS_MLDSA_MAX_SK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES];
        tap_rng_bytes(seed, 32);
        ok &= cs_mldsa_keygen(P, ps, pk, sk, seed) == 0;
        ok &= cs_mldsa_pk_from_sk(im, ps, pk2, sk) == 0;
        memcpy(bad, sk, skb);
        bad[t0off + tap_rng_u64() % (skb - t0off)] ^= (uint8_t)(1u << (tap_rng_u64() % 8));
        ok &= cs_mldsa_pk_from_sk(im, ps, pk2, bad) != 0 && !memcmp(pk2, pk, cs_mldsa_pk_bytes(ps));
        memcpy(bad, sk, skb);
        bad[64 + tap_rng_u64() % 64] ^= 0x80;
        ok &= cs_mldsa_pk_from_sk(im, ps, pk2, bad) != 0;
        /* the last s2 coefficient set to the all-ones field (-5 for eta
         * 2, -11 for eta 4: out of range), with t0, t1 and tr made consistent
         * with it (s2 enters t = A*s1 + s2 without an NTT, so t moves by
         * the same delta): only the range check can catch this key */
        memcpy(bad, sk, skb);
        memcpy(pk2, pk, cs_mldsa_pk_bytes(ps));
        cs_mldsa_poly s2, t0, t1, tt, n1, n0;
        uint8_t *s2p = bad + 128 + (l + k - 1) * etab, *t0p = bad + t0off + (k - 1) * 416,
                *t1p = pk2 + 32 + (k - 1) * 320;
        P->unpack_eta(&s2, s2p, eta);
        int32_t old = s2.c[255];
        if (eta == 2)
            s2p[95] |= 0xe0;
        else
            s2p[127] |= 0xf0;
        ok &= P->unpack_eta(&s2, s2p, eta) != 0;
        int32_t delta = s2.c[255] - old;
        P->unpack_t0(&t0, t0p);
        P->unpack_t1(&t1, t1p);
        for (unsigned i = 0; i < 256; i++)
            tt.c[i] = t1.c[i] * (1 << 13) + t0.c[i];
        tt.c[255] = (tt.c[255] + delta + 8380417) % 8380417;
        P->power2round(&n1, &n0, &tt);
        P->pack_t0(t0p, &n0);
        P->pack_t1(t1p, &n1);
        cs_mldsa_pk_tr(im, ps, bad + 64, pk2);
        ok &= cs_mldsa_pk_from_sk(im, ps, pk2, bad) != 0;
    }
    tap_ok(ok, "%s pk_from_sk rejects corrupted expanded keys (t0, tr, s1/s2 range)", im->name);
}

static void test_whole(const cs_mldsa_impl *im)
{
    static const int sets[3] = {44, 65, 87};
    int ok = 1;
    for (int t = 0; t < 30; t++) {
        int ps = sets[t % 3];
        uint8_t seed[32], rnd[32], msg[100], ctx[20];
        static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], sk1[CS_MLDSA_MAX_SK_BYTES],
            pk2[CS_MLDSA_MAX_PK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES],
            s1[CS_MLDSA_MAX_SIG_BYTES], s2[CS_MLDSA_MAX_SIG_BYTES];
        tap_rng_bytes(seed, 32), tap_rng_bytes(rnd, 32), tap_rng_bytes(msg, sizeof msg),
            tap_rng_bytes(ctx, sizeof ctx);
        if (t & 1)
            memset(rnd, 0, 32);
        size_t mlen = tap_rng_u64() % sizeof msg, clen = tap_rng_u64() % sizeof ctx;
        ok &= cs_mldsa_keygen(im, ps, pk1, sk1, seed) == 0;
        ok &= cs_mldsa_keygen(P, ps, pk2, sk2, seed) == 0;
        ok &= !memcmp(pk1, pk2, cs_mldsa_pk_bytes(ps)) && !memcmp(sk1, sk2, cs_mldsa_sk_bytes(ps));
        ok &= cs_mldsa_sign(im, ps, s1, sk1, msg, mlen, ctx, clen, rnd) == 0;
        ok &= cs_mldsa_sign(P, ps, s2, sk2, msg, mlen, ctx, clen, rnd) == 0;
        ok &= !memcmp(s1, s2, cs_mldsa_sig_bytes(ps));
        ok &= cs_mldsa_verify(im, ps, s1, cs_mldsa_sig_bytes(ps), msg, mlen, ctx, clen, pk1) == 0;
        s1[tap_rng_u64() % cs_mldsa_sig_bytes(ps)] ^= 1 << (tap_rng_u64() % 8);
        ok &= cs_mldsa_verify(im, ps, s1, cs_mldsa_sig_bytes(ps), msg, mlen, ctx, clen, pk1) != 0;
        ok &= cs_mldsa_pk_from_sk(im, ps, pk2, sk1) == 0 && !memcmp(pk1, pk2, cs_mldsa_pk_bytes(ps));
    }
    tap_ok(ok, "%s keygen/sign/verify/pk_from_sk agree with portable (30 random)", im->name);
    test_corrupt_sk(im);
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(20260101);
    test_portable_ntt();
    for (unsigned i = 0; cs_mldsa_impls[i]; i++) {
        const cs_mldsa_impl *im = cs_mldsa_impls[i];
        if (!impl_runs(im->name, im->cpu_features, have))
            continue;
        test_keccak(im);
        test_ntt(im);
        test_elementwise(im);
        test_rounding(im);
        test_fused(im);
        test_sampling(im);
        test_packing(im);
        test_whole(im);
    }
    /* the portable x4 permutation (reference for SIMD ones) */
    cs_mldsa_impl px4;
    cs_keccak_impl kx4 = cs_keccak_portable;
    cs_mldsa_portable_ops(&px4);
    kx4.f1600_x4 = cs_keccakf1600_x4_portable;
    px4.keccak = &kx4;
    px4.name = "portable-x4";
    test_keccak(&px4);
    test_sampling(&px4);
    return tap_done();
}
