/* Component fuzz target: the ML-DSA NTT-domain hooks of each backend this
 * CPU runs against the portable ones (kernels/mldsa/mldsa_backend.h has
 * each contract): ntt and invntt_tomont value by value in the backend's
 * order (word for word for the x86-64 tables, which keep the portable
 * Montgomery steps), pointwise_mont, pointwise_acc_mont (and the fused
 * pointwise_acc_reduce), mul_challenge, the elementwise hooks and a whole
 * product; the portable product itself against schoolbook multiplication.
 * Every output is checked against its contract's bound too.
 * Input: implementation (byte; 0xff: portable against schoolbook), then
 * operation, then the operands as fuzz_mldsa_parts.h reads polynomials,
 * coefficients at the edges of each contract's input range. */
#include "fuzz_mldsa_parts.h"

static const cs_mldsa_impl *const P = &cs_mldsa_portable;

/* ntt_order applied to a portable NTT-domain polynomial (its own order
 * for impl). */
static void to_order(const cs_mldsa_impl *im, cs_mldsa_poly *a)
{
    if (im->ntt_order)
        im->ntt_order(a);
}

/* Equal words for the x86-64 tables, equal residues for others. */
static int same(const cs_mldsa_impl *im, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    return strncmp(im->name, "avx", 3) ? mf_eq_modq(a, b) : mf_eq(a, b);
}

/* Portable's product (ntt, pointwise_mont, invntt_tomont: a*b*R^0, as the
 * R from invntt_tomont cancels the R^-1 of pointwise_mont) against
 * schoolbook. */
static void portable_product(mf_in *in)
{
    cs_mldsa_poly a, b, r, want;
    mf_poly(in, &a, -MQ + 1, MQ - 1);
    mf_poly(in, &b, -MQ + 1, MQ - 1);
    MF_CHECK(mldsa_ntt_mul(P, &r, &a, &b), P, "product: a bound of ntt, pointwise or invntt");
    mldsa_schoolbook(&want, &a, &b);
    MF_CHECK(mf_eq_modq(&r, &want), P, "product: NTT product differs from schoolbook");
}

/* A SampleInBall-shaped polynomial: tau (input-chosen, 1-64) coefficients
 * +-1 at input-chosen places. */
static void challenge(mf_in *in, cs_mldsa_poly *c)
{
    memset(c, 0, sizeof *c);
    unsigned tau = 1 + mf_byte(in) % 64;
    for (unsigned n = 0; n < tau; n++) {
        unsigned b = mf_byte(in), j = mf_byte(in);
        c->c[j] = b & 1 ? 1 : -1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_init();
    mf_in in = mf_start(data, size);
    unsigned sel = mf_byte(&in);
    if (sel == 0xff) {
        portable_product(&in);
        return 0;
    }
    const cs_mldsa_impl *im = mf_impl(sel);
    unsigned op = mf_byte(&in);
    static cs_mldsa_poly a[8], b[8], x[8], y[8];
    cs_mldsa_poly r1, r2;
    switch (op % 7) {
    case 0: { /* ntt: callers pass |a| < q; the contract allows 2^31 - 8q */
        int32_t top = op & 8 ? INT32_MAX - 8 * MQ : MQ - 1;
        mf_poly(&in, &a[0], -top, top);
        x[0] = y[0] = a[0];
        im->ntt(&x[0]);
        P->ntt(&y[0]);
        to_order(im, &y[0]);
        MF_CHECK(mldsa_bounded(&x[0], (int64_t)top + 8 * MQ + 1), im, "ntt: output bound");
        MF_CHECK(same(im, &x[0], &y[0]), im, "ntt");
        break;
    }
    case 1: /* invntt_tomont on |a| < q */
        mf_poly(&in, &a[0], -MQ + 1, MQ - 1);
        x[0] = y[0] = a[0];
        to_order(im, &x[0]);
        im->invntt_tomont(&x[0]);
        P->invntt_tomont(&y[0]);
        MF_CHECK(mldsa_bounded(&x[0], MQ), im, "invntt_tomont: output bound");
        MF_CHECK(same(im, &x[0], &y[0]), im, "invntt_tomont");
        break;
    case 2: /* pointwise_mont: |a|, |b| < 9q, or a in [0, q) and |b| < 2^30 */
        if (op & 8) {
            mf_poly(&in, &a[0], 0, MQ - 1);
            mf_poly(&in, &b[0], -(1 << 30) + 1, (1 << 30) - 1);
        } else {
            mf_poly(&in, &a[0], -9 * MQ + 1, 9 * MQ - 1);
            mf_poly(&in, &b[0], -9 * MQ + 1, 9 * MQ - 1);
        }
        im->pointwise_mont(&r1, &a[0], &b[0]);
        P->pointwise_mont(&r2, &a[0], &b[0]);
        MF_CHECK(mldsa_bounded(&r1, MQ), im, "pointwise_mont: output bound");
        MF_CHECK(mf_eq_modq(&r1, &r2), im, "pointwise_mont");
        x[0] = a[0];
        im->pointwise_mont(&x[0], &x[0], &b[0]); /* c aliasing a */
        MF_CHECK(mf_eq(&x[0], &r1), im, "pointwise_mont: c aliasing a");
        break;
    case 3: { /* pointwise_acc_mont, n = 1..8: ExpandA-like a, |b| < 9q */
        unsigned n = 1 + (op >> 3) % 8;
        for (unsigned i = 0; i < n; i++) {
            mf_poly(&in, &a[i], 0, MQ - 1);
            mf_poly(&in, &b[i], -9 * MQ + 1, 9 * MQ - 1);
        }
        im->pointwise_acc_mont(&r1, a, b, n);
        P->pointwise_acc_mont(&r2, a, b, n);
        MF_CHECK(mldsa_bounded(&r1, (int64_t)n * MQ), im, "pointwise_acc_mont: output bound");
        MF_CHECK(mf_eq_modq(&r1, &r2), im, "pointwise_acc_mont");
        if (im->pointwise_acc_reduce) {
            cs_mldsa_poly r3;
            im->pointwise_acc_reduce(&r3, a, b, n);
            im->reduce32(&r1);
            MF_CHECK(mf_eq(&r3, &r1), im, "pointwise_acc_reduce: not acc_mont then reduce32");
        }
        break;
    }
    case 4: /* mul_challenge: exact product, |s| <= 2^23 */
        challenge(&in, &a[0]);
        mf_poly(&in, &b[0], -(1 << 23), 1 << 23);
        im->mul_challenge(&r1, &a[0], &b[0]);
        P->mul_challenge(&r2, &a[0], &b[0]);
        MF_CHECK(mf_eq(&r1, &r2), im, "mul_challenge");
        break;
    case 5: /* elementwise hooks, each at its input range */
        switch ((op >> 3) % 5) {
        case 0:
            mf_poly(&in, &a[0], INT32_MIN, INT32_MAX - (1 << 22));
            x[0] = y[0] = a[0];
            im->reduce32(&x[0]);
            P->reduce32(&y[0]);
            MF_CHECK(mldsa_bounded(&x[0], 6283009), im, "reduce32: output bound");
            MF_CHECK(mf_eq_modq(&x[0], &y[0]), im, "reduce32");
            break;
        case 1:
            mf_poly(&in, &a[0], -MQ + 1, MQ - 1);
            x[0] = y[0] = a[0];
            im->caddq(&x[0]);
            P->caddq(&y[0]);
            MF_CHECK(mf_eq(&x[0], &y[0]), im, "caddq");
            break;
        case 2:
        case 3:
            /* the widest operands whose sum or difference fits */
            mf_poly(&in, &a[0], -(1 << 30), 1 << 30);
            if (op & 64)
                mf_poly(&in, &b[0], -(1 << 30), (1 << 30) - 1);
            else
                mf_poly(&in, &b[0], -(1 << 30) + 1, 1 << 30);
            if (op & 64) {
                im->add(&r1, &a[0], &b[0]), P->add(&r2, &a[0], &b[0]);
            } else {
                im->sub(&r1, &a[0], &b[0]), P->sub(&r2, &a[0], &b[0]);
            }
            MF_CHECK(mf_eq(&r1, &r2), im, op & 64 ? "add" : "sub");
            break;
        default:
            mf_poly(&in, &a[0], 0, (1 << 18) - 1);
            x[0] = y[0] = a[0];
            im->shiftl(&x[0]);
            P->shiftl(&y[0]);
            MF_CHECK(mf_eq(&x[0], &y[0]), im, "shiftl");
        }
        break;
    default: /* a whole product */
        mf_poly(&in, &a[0], -MQ + 1, MQ - 1);
        mf_poly(&in, &b[0], -MQ + 1, MQ - 1);
        MF_CHECK(mldsa_ntt_mul(im, &r1, &a[0], &b[0]), im, "product: a bound");
        mldsa_ntt_mul(P, &r2, &a[0], &b[0]);
        MF_CHECK(mf_eq_modq(&r1, &r2), im, "product");
    }
    return 0;
}
