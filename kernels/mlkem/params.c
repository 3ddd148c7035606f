/* The three ML-KEM parameter sets (FIPS 203 table 2) and their sizes. */
#include "mlkem_backend.h"

static const cs_mlkem_params params[] = {
    {512, 2, 3, 2, 10, 4, 800, 1632, 768},
    {768, 3, 2, 2, 10, 4, 1184, 2400, 1088},
    {1024, 4, 2, 2, 11, 5, 1568, 3168, 1568},
};

/* The entry for ps, or NULL. */
const cs_mlkem_params *cs_mlkem_params_of(int ps)
{
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (params[i].ps == ps)
            return &params[i];
    return NULL;
}

/* 384k + 32. */
size_t cs_mlkem_ek_bytes(int ps)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    return p ? p->ek_bytes : 0;
}

/* 768k + 96. */
size_t cs_mlkem_dk_bytes(int ps)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    return p ? p->dk_bytes : 0;
}

/* 32 (du k + dv). */
size_t cs_mlkem_ct_bytes(int ps)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    return p ? p->ct_bytes : 0;
}
