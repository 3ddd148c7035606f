/* The big-number kernels built into this library, in the order the shim
 * lists them; portable first (it runs everywhere and is the reference). */
#include "bn_kernel.h"

/* Per-ISA kernels (kernels/bn/$(ARCH)/) declare their structs here. */
#if defined(__x86_64__)
/* x86-64 kernels: extern const cs_bn_kernel cs_bn_...; */
#endif

const cs_bn_kernel *const cs_bn_kernels[] = {
    &cs_bn_portable,
#if defined(__x86_64__)
    /* x86-64 kernels: &cs_bn_..., */
#endif
    NULL,
};
