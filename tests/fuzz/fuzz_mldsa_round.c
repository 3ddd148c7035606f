/* Component fuzz target: the ML-DSA rounding hooks of each backend this CPU
 * runs against the portable ones, word for word: Power2Round, Decompose,
 * MakeHint, UseHint (both gamma2 values), the norm check, and the fused
 * hooks built on them (sum_chknorm, keygen's t_row_finish) against the
 * hooks they replace. Coefficients
 * sit at the edges the rounding turns on: multiples of 2*gamma2 (or 2^13)
 * and the values just beside them, gamma2 either side, the q-1 corner.
 * Input: implementation (byte), operation and gamma2 (byte), then the
 * operands as fuzz_mldsa_parts.h reads them. */
#include "fuzz_mldsa_parts.h"

static const cs_mldsa_impl *const P = &cs_mldsa_portable;

/* A coefficient in [0, q) near m*step + d for d a few values that matter
 * (0, +-1, +-half, +-half+-1), else an edge of [0, q) as mf_coef draws. */
static int32_t near_step(mf_in *in, int32_t step)
{
    static const int8_t off[8] = {0, 1, -1, 0, 1, -1, 2, -2};
    unsigned b = mf_byte(in);
    if (b >= 0xe0)
        return mf_coef(in, 0, MQ - 1);
    int64_t m = mf_byte(in) % ((MQ - 1) / step + 2);
    int64_t v = m * step + (b & 8 ? (b & 16 ? step / 2 : -step / 2) : 0) + off[b & 7];
    return (int32_t)(v < 0 ? 0 : v > MQ - 1 ? MQ - 1 : v);
}

/* A polynomial of near_step coefficients (a quarter of inputs: mf_coef's). */
static void poly_near_step(mf_in *in, cs_mldsa_poly *a, int32_t step)
{
    unsigned mode = mf_byte(in) & 3;
    for (unsigned i = 0; i < CS_MLDSA_N; i++)
        a->c[i] = mode == 3 ? mf_coef(in, 0, MQ - 1) : near_step(in, step);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_init();
    mf_in in = mf_start(data, size);
    const cs_mldsa_impl *im = mf_impl(mf_byte(&in));
    unsigned op = mf_byte(&in);
    int32_t g2 = mf_gamma2(op & 8);
    cs_mldsa_poly a, a1, a0, b1, b0, h, h2;
    switch (op % 7) {
    case 0:
        poly_near_step(&in, &a, 1 << CS_MLDSA_D);
        im->power2round(&a1, &a0, &a);
        P->power2round(&b1, &b0, &a);
        MF_CHECK(mf_eq(&a1, &b1) && mf_eq(&a0, &b0), im, "power2round");
        break;
    case 1:
        poly_near_step(&in, &a, 2 * g2);
        im->decompose(&a1, &a0, &a, g2);
        P->decompose(&b1, &b0, &a, g2);
        MF_CHECK(mf_eq(&a1, &b1) && mf_eq(&a0, &b0), im, "decompose");
        break;
    case 2: { /* MakeHint on a0 around +-gamma2 (and beyond), a1 often 0 */
        int32_t top = (int32_t)((MQ - 1) / (2 * g2)) - 1;
        for (unsigned i = 0; i < CS_MLDSA_N; i++) {
            unsigned b = mf_byte(&in);
            int32_t base = b & 1 ? g2 : -g2;
            a0.c[i] = b & 0x80 ? mf_coef(&in, -2 * g2, 2 * g2) : base + (int32_t)((b >> 1) & 3) - 1;
            a1.c[i] = b & 0x40 ? mf_coef(&in, 0, top) : 0;
        }
        unsigned n1 = im->make_hint(&h, &a0, &a1, g2);
        unsigned n2 = P->make_hint(&h2, &a0, &a1, g2);
        MF_CHECK(n1 == n2 && mf_eq(&h, &h2), im, "make_hint");
        break;
    }
    case 3: /* UseHint on a near the decomposition's edges, any hints */
        poly_near_step(&in, &a, 2 * g2);
        for (unsigned i = 0; i < CS_MLDSA_N; i += 8) {
            unsigned b = mf_byte(&in);
            for (unsigned j = 0; j < 8; j++)
                h.c[i + j] = (int32_t)(b >> j & 1);
        }
        im->use_hint(&b1, &a, &h, g2);
        P->use_hint(&b0, &a, &h, g2);
        MF_CHECK(mf_eq(&b1, &b0), im, "use_hint");
        break;
    case 5: { /* the fused sum_chknorm against add/sub, reduce32, chknorm */
        if (!im->sum_chknorm)
            break;
        int sub = op & 16;
        int32_t bound = mf_coef(&in, 1, (MQ - 1) / 8);
        mf_poly(&in, &a, -(1 << 29), 1 << 29);
        mf_poly(&in, &h, -(1 << 29), 1 << 29);
        int n1 = im->sum_chknorm(&a1, &a, &h, sub, bound);
        (sub ? P->sub : P->add)(&b1, &a, &h);
        P->reduce32(&b1);
        int n2 = P->chknorm(&b1, bound);
        MF_CHECK(!n1 == !n2 && mf_eq_modq(&a1, &b1) && mldsa_bounded(&a1, 6283009), im,
                 "sum_chknorm");
        b0 = a;
        im->sum_chknorm(&b0, &b0, &h, sub, bound); /* c aliasing a */
        MF_CHECK(mf_eq(&b0, &a1), im, "sum_chknorm: c aliasing a");
        break;
    }
    case 6: { /* keygen's fused row end t_row_finish against its hooks */
        if (!im->t_row_finish)
            break;
        uint8_t r1[CS_MLDSA_POLY_T1_BYTES], r2[CS_MLDSA_POLY_T1_BYTES];
        mf_poly(&in, &a, -MQ + 1, MQ - 1);
        mf_poly(&in, &h, -4, 4);
        im->t_row_finish(r1, &a0, &a, &h);
        mldsa_t_row_ref(P, r2, &b0, &a, &h);
        MF_CHECK(!memcmp(r1, r2, sizeof r1) && mf_eq(&a0, &b0), im, "t_row_finish");
        break;
    }
    default: { /* chknorm: centred a, bound up to (q-1)/8, values at the bound */
        int32_t bound = mf_coef(&in, 1, (MQ - 1) / 8);
        for (unsigned i = 0; i < CS_MLDSA_N; i++) {
            unsigned b = mf_byte(&in);
            int32_t v = b & 0x80 ? mf_coef(&in, -(MQ - 1) / 2, (MQ - 1) / 2)
                                 : bound + (int32_t)(b & 3) - 2;
            a.c[i] = b & 0x40 ? -v : v;
        }
        MF_CHECK(!im->chknorm(&a, bound) == !P->chknorm(&a, bound), im, "chknorm");
        int over = 0;
        for (unsigned i = 0; i < CS_MLDSA_N; i++)
            over |= a.c[i] >= bound || a.c[i] <= -bound;
        MF_CHECK(!P->chknorm(&a, bound) == !over, P, "chknorm: not max |a_i| >= bound");
    }
    }
    return 0;
}
