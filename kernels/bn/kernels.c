/* The big-number kernels built into this library, in the order the shim
 * lists them; portable first (it runs everywhere and is the reference). */
#include "bn_kernel.h"

/* Per-ISA kernels (kernels/bn/$(ARCH)/) declare their structs here. */
#if defined(__x86_64__)
#include "x86_64/x86_kernels.h"
#endif
#if defined(__sparc__) && !defined(__arch64__)
#include "sparc/sparc_kernels.h"
#endif
#if defined(__s390x__)
#include "s390x/s390x_kernels.h"
#endif

const cs_bn_kernel *const cs_bn_kernels[] = {
    &cs_bn_portable,
#if defined(__x86_64__)
    &cs_bn_x86_ifma,
    &cs_bn_x86_avx2,
    &cs_bn_x86_fma,
    &cs_bn_x86_fma512,
    &cs_bn_x86_adx,
    &cs_bn_x86_mulx,
#endif
#if defined(__sparc__) && !defined(__arch64__)
    &cs_bn_sparc_v8,
#endif
#if defined(__s390x__)
    &cs_bn_s390x_mlgr,
#endif
    NULL,
};
