/* s390x big-number kernels (built for s390x only). */
#ifndef CRYPTOSHIM_BN_S390X_KERNELS_H
#define CRYPTOSHIM_BN_S390X_KERNELS_H

#include "../bn_kernel.h"

/* 64x64->128 multiply logical (mlgr) with add-logical-with-carry chains;
 * runs on every z/Architecture CPU. */
extern const cs_bn_kernel cs_bn_s390x_mlgr;

#endif
