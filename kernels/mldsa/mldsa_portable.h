/* The portable backend's hooks (see mldsa_backend.h for each contract).
 * Internal to kernels/mldsa; backends reach them through
 * cs_mldsa_portable_ops(). */
#ifndef CRYPTOSHIM_MLDSA_PORTABLE_H
#define CRYPTOSHIM_MLDSA_PORTABLE_H

#include <string.h>

#include "mldsa_backend.h"
#include "../keccak/keccak_internal.h"

/* zetas[k] = 1753^brv8(k) * 2^32 mod q, centred; entry 0 unused. */
extern const int32_t cs_mldsa_zetas[256];

CS_MLDSA_DECLARE_NTT(portable);
CS_MLDSA_DECLARE_ROUNDING(portable);
CS_MLDSA_DECLARE_REJ(, portable);
CS_MLDSA_DECLARE_PACK(portable);
CS_MLDSA_DECLARE_ZW1(portable);

#endif
