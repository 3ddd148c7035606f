/* Slow references for the ML-DSA hook tests (kernel_mldsa_hooks) and
 * component fuzz targets (tests/fuzz/fuzz_mldsa_*.c): residues, bounds,
 * schoolbook multiplication, an NTT product through a table's hooks, and
 * keygen's row end through the portable hooks. No OpenSSL; header-only. */
#ifndef CRYPTOSHIM_TEST_MLDSA_REF_H
#define CRYPTOSHIM_TEST_MLDSA_REF_H

#include <stdint.h>

#include "kernels/mldsa/mldsa_portable.h"

/* x mod q in [0, q). */
static inline int32_t mldsa_modq(int32_t x)
{
    int32_t r = x % CS_MLDSA_Q;
    return r < 0 ? r + CS_MLDSA_Q : r;
}

/* max |a_i| < bound. */
static inline int mldsa_bounded(const cs_mldsa_poly *a, int64_t bound)
{
    for (unsigned i = 0; i < CS_MLDSA_N; i++)
        if (a->c[i] >= bound || a->c[i] <= -bound)
            return 0;
    return 1;
}

/* r = a*b in Z_q[X]/(X^256+1), schoolbook, coefficients in [0, q). */
static inline void mldsa_schoolbook(cs_mldsa_poly *r, const cs_mldsa_poly *a,
                                    const cs_mldsa_poly *b)
{
    int64_t acc[CS_MLDSA_N] = {0};
    for (unsigned i = 0; i < CS_MLDSA_N; i++) {
        int64_t ai = mldsa_modq(a->c[i]);
        for (unsigned j = 0; j < CS_MLDSA_N; j++) {
            int64_t p = ai * mldsa_modq(b->c[j]) % CS_MLDSA_Q;
            if (i + j < CS_MLDSA_N)
                acc[i + j] += p;
            else
                acc[i + j - CS_MLDSA_N] -= p;
        }
    }
    for (unsigned i = 0; i < CS_MLDSA_N; i++)
        r->c[i] = (int32_t)((acc[i] % CS_MLDSA_Q + CS_MLDSA_Q) % CS_MLDSA_Q);
}

/* r = invntt_tomont(pointwise_mont(ntt(a), ntt(b))) with im's hooks;
 * whether every step kept its contract's bound (9q after ntt, q after
 * the others). */
static inline int mldsa_ntt_mul(const cs_mldsa_impl *im, cs_mldsa_poly *r, const cs_mldsa_poly *a,
                                const cs_mldsa_poly *b)
{
    cs_mldsa_poly x = *a, y = *b;
    im->ntt(&x);
    im->ntt(&y);
    int ok = mldsa_bounded(&x, 9 * (int64_t)CS_MLDSA_Q) && mldsa_bounded(&y, 9 * (int64_t)CS_MLDSA_Q);
    im->pointwise_mont(r, &x, &y);
    ok &= mldsa_bounded(r, CS_MLDSA_Q);
    im->invntt_tomont(r);
    return ok & mldsa_bounded(r, CS_MLDSA_Q);
}

/* What t_row_finish(t1p, t0, t, s2) must give, by the hooks of P (the
 * portable table): t + s2 reduced into [0, q), split by power2round into
 * t1 (packed into t1p) and t0. */
static inline void mldsa_t_row_ref(const cs_mldsa_impl *P, uint8_t t1p[CS_MLDSA_POLY_T1_BYTES],
                                   cs_mldsa_poly *t0, const cs_mldsa_poly *t,
                                   const cs_mldsa_poly *s2)
{
    cs_mldsa_poly sum, t1;
    P->add(&sum, t, s2);
    P->reduce32(&sum);
    P->caddq(&sum);
    P->power2round(&t1, t0, &sum);
    P->pack_t1(t1p, &t1);
}

#endif
