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

extern const cs_mldsa_impl cs_mldsa_s390x_vx;
extern const cs_mldsa_impl cs_mldsa_s390x_vx_cpacf;

#endif
