/* Storage of prepared ML-KEM keys (mlkem.h): one 64-byte aligned block
 * sized for its parameter set. What goes in it is the driver's (kem.c). */
#include <stdlib.h>
#include <string.h>

#include "mlkem_backend.h"

/* Bytes of a prepared key of p: the header and k*k + k polynomials, a whole number of
 * 64-byte lines (aligned_alloc wants a multiple of the alignment). */
static size_t prepared_bytes(const cs_mlkem_params *p)
{
    size_t n = sizeof(cs_mlkem_prepared) + (p->k * p->k + p->k) * sizeof(cs_mlkem_poly);
    return (n + 63) & ~(size_t)63;
}

/* An unfilled block for ps: parameters set, impl and ops NULL. */
cs_mlkem_prepared *cs_mlkem_prepared_new(int ps)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return NULL;
    cs_mlkem_prepared *pr = aligned_alloc(64, prepared_bytes(p));
    if (pr) {
        memset(pr, 0, sizeof *pr);
        pr->p = p;
    }
    return pr;
}

/* A byte copy: the polynomials are position-independent. */
cs_mlkem_prepared *cs_mlkem_prepared_dup(const cs_mlkem_prepared *pr)
{
    size_t n = prepared_bytes(pr->p);
    cs_mlkem_prepared *c = aligned_alloc(64, n);
    if (c)
        memcpy(c, pr, n);
    return c;
}

/* Public data: freed without wiping. */
void cs_mlkem_prepared_free(cs_mlkem_prepared *pr)
{
    free(pr);
}

/* The implementation recorded by the driver when it filled pr. */
const cs_mlkem_impl *cs_mlkem_prepared_impl(const cs_mlkem_prepared *pr)
{
    return pr->impl;
}

/* H(ek), as filled. */
const uint8_t *cs_mlkem_prepared_h(const cs_mlkem_prepared *pr)
{
    return pr->h;
}
