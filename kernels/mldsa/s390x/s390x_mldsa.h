/* The s390x ML-DSA backend's pieces (kernels/mldsa/s390x). */
#ifndef CRYPTOSHIM_MLDSA_S390X_H
#define CRYPTOSHIM_MLDSA_S390X_H

#include "../mldsa_backend.h"

/* Vector facility (vx_ntt.c, z13): NTT, products, elementwise. */
CS_MLDSA_DECLARE_NTT(s390x_vx);

extern const cs_mldsa_impl cs_mldsa_s390x_vx;
extern const cs_mldsa_impl cs_mldsa_s390x_vx_cpacf;

#endif
