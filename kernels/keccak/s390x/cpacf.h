/* The CPACF Keccak's pieces that tests check without the instruction
 * (kernels/keccak/s390x/cpacf.c; s390x only). */
#ifndef CRYPTOSHIM_KECCAK_S390X_CPACF_H
#define CRYPTOSHIM_KECCAK_S390X_CPACF_H

#include <stdint.h>

/* KIMD's function codes (z/Architecture Principles of Operation, COMPUTE
 * INTERMEDIATE MESSAGE DIGEST): query, SHAKE-128, SHAKE-256. */
#define CS_KIMD_QUERY 0
#define CS_KIMD_SHAKE128 36
#define CS_KIMD_SHAKE256 37

/* KIMD with function code fc (general register 0) on the parameter block
 * at param (register 1) and len bytes of message at in (the even/odd pair
 * R2, R2+1), until the message is consumed. */
typedef void cs_s390x_kimd_fn(unsigned long fc, void *param, const uint8_t *in,
                              unsigned long len);

/* One Keccak-f[1600] on our lanes s through kimd (the instruction, or a
 * model in tests): the lanes laid out as KIMD-SHAKE-128's parameter block,
 * one all-zero 168-byte block absorbed, the block read back. */
void cs_keccakf1600_s390x_cpacf_via(uint64_t s[25], cs_s390x_kimd_fn *kimd);

/* Whether a 16-byte query status word lists both SHAKE function codes. */
int cs_s390x_kimd_has_shake(const uint8_t mask[16]);

/* The start-up self-check: nonzero iff two permutations through kimd equal
 * two of the portable permutation on a fixed state. */
int cs_s390x_cpacf_selfcheck(cs_s390x_kimd_fn *kimd);

#endif
