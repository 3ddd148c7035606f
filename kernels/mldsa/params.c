/* FIPS 204 parameter sets and encoding sizes. */
#include "mldsa_backend.h"

#define Q CS_MLDSA_Q

static const cs_mldsa_params params[3] = {
    {44, 4, 4, 2, 39, 78, 1 << 17, (Q - 1) / 88, 80, 32, 96, 576, 192, 1312, 2560, 2420},
    {65, 6, 5, 4, 49, 196, 1 << 19, (Q - 1) / 32, 55, 48, 128, 640, 128, 1952, 4032, 3309},
    {87, 8, 7, 2, 60, 120, 1 << 19, (Q - 1) / 32, 75, 64, 96, 640, 128, 2592, 4896, 4627},
};

/* Table entry for ps, or NULL. */
const cs_mldsa_params *cs_mldsa_params_get(int ps)
{
    for (unsigned i = 0; i < 3; i++)
        if (params[i].ps == ps)
            return &params[i];
    return NULL;
}

size_t cs_mldsa_pk_bytes(int ps)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    return p ? p->pk_bytes : 0;
}

size_t cs_mldsa_sk_bytes(int ps)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    return p ? p->sk_bytes : 0;
}

size_t cs_mldsa_sig_bytes(int ps)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    return p ? p->sig_bytes : 0;
}
