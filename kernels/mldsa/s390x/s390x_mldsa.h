/* The s390x ML-DSA backend's pieces (kernels/mldsa/s390x). */
#ifndef CRYPTOSHIM_MLDSA_S390X_H
#define CRYPTOSHIM_MLDSA_S390X_H

#include "../mldsa_backend.h"

/* Vector facility (vx_ntt.c, z13): NTT, products, elementwise. */
void cs_mldsa_ntt_s390x_vx(cs_mldsa_poly *a);
void cs_mldsa_invntt_s390x_vx(cs_mldsa_poly *a);
void cs_mldsa_pointwise_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b);
void cs_mldsa_pointwise_acc_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                     const cs_mldsa_poly *b, unsigned n);
void cs_mldsa_reduce32_s390x_vx(cs_mldsa_poly *a);
void cs_mldsa_caddq_s390x_vx(cs_mldsa_poly *a);
void cs_mldsa_add_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
void cs_mldsa_sub_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);

/* Keccak-f[1600] through CPACF (cpacf_keccak.c); only valid when
 * cs_cpu_probe_s390_shake() reported CS_CPU_S390_SHAKE. */
void cs_keccakf1600_s390x_cpacf(uint64_t s[25]);

/* CS_CPU_S390_SHAKE if the CPACF query reports the SHAKE function codes and
 * the CPACF permutation agrees with the software one on a test state; 0
 * otherwise. Overrides the shim's weak default (shim/cpu.c). */
uint32_t cs_cpu_probe_s390_shake(void);

extern const cs_mldsa_impl cs_mldsa_s390x_vx;
extern const cs_mldsa_impl cs_mldsa_s390x_vx_cpacf;

#endif
