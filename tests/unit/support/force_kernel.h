/* Choosing the big-number kernel through the shim's own controls, as a
 * user's CRYPTOSHIM_KERNELS would: for the differential tests
 * (diff_common.h) and the modexp fuzz targets (tests/fuzz/fuzz_bn.h).
 * Header-only; needs the core archive (runtime/). */
#ifndef CRYPTOSHIM_TEST_FORCE_KERNEL_H
#define CRYPTOSHIM_TEST_FORCE_KERNEL_H

#include <stdlib.h>

#include "runtime/controls.h"
#include "runtime/dispatch.h"

/* Re-reads the controls and dispatch as if CRYPTOSHIM_KERNELS were `name`
 * (NULL: unset, so the built-in policy decides). */
static inline void force_kernel(const char *name)
{
    if (name)
        setenv("CRYPTOSHIM_KERNELS", name, 1);
    else
        unsetenv("CRYPTOSHIM_KERNELS");
    cs_controls_load();
    cs_dispatch_init();
}

#endif
