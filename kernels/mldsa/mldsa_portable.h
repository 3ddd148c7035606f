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

void cs_mldsa_ntt_portable(cs_mldsa_poly *a);
void cs_mldsa_invntt_portable(cs_mldsa_poly *a);
void cs_mldsa_pointwise_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b);
void cs_mldsa_pointwise_acc_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                     const cs_mldsa_poly *b, unsigned n);
void cs_mldsa_mul_challenge_portable(cs_mldsa_poly *r, const cs_mldsa_poly *c,
                                     const cs_mldsa_poly *s);
void cs_mldsa_reduce32_portable(cs_mldsa_poly *a);
void cs_mldsa_caddq_portable(cs_mldsa_poly *a);
void cs_mldsa_add_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
void cs_mldsa_sub_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
void cs_mldsa_shiftl_portable(cs_mldsa_poly *a);

void cs_mldsa_power2round_portable(cs_mldsa_poly *a1, cs_mldsa_poly *a0,
                                   const cs_mldsa_poly *a);
void cs_mldsa_decompose_portable(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                                 int32_t gamma2);
unsigned cs_mldsa_make_hint_portable(cs_mldsa_poly *h, const cs_mldsa_poly *a0,
                                     const cs_mldsa_poly *a1, int32_t gamma2);
void cs_mldsa_use_hint_portable(cs_mldsa_poly *b, const cs_mldsa_poly *a,
                                const cs_mldsa_poly *h, int32_t gamma2);
int cs_mldsa_chknorm_portable(const cs_mldsa_poly *a, int32_t bound);

unsigned cs_mldsa_rej_uniform_portable(int32_t *a, unsigned len, const uint8_t *buf,
                                       unsigned buflen);
unsigned cs_mldsa_rej_eta_portable(int32_t *a, unsigned len, const uint8_t *buf,
                                   unsigned buflen, unsigned eta);

void cs_mldsa_pack_t1_portable(uint8_t *r, const cs_mldsa_poly *a);
void cs_mldsa_unpack_t1_portable(cs_mldsa_poly *a, const uint8_t *r);
void cs_mldsa_pack_t0_portable(uint8_t *r, const cs_mldsa_poly *a);
void cs_mldsa_unpack_t0_portable(cs_mldsa_poly *a, const uint8_t *r);
void cs_mldsa_pack_eta_portable(uint8_t *r, const cs_mldsa_poly *a, unsigned eta);
int cs_mldsa_unpack_eta_portable(cs_mldsa_poly *a, const uint8_t *r, unsigned eta);
void cs_mldsa_pack_z_portable(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma1);
void cs_mldsa_unpack_z_portable(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1);
void cs_mldsa_pack_w1_portable(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2);

#endif
