/* cryptoshim_* introspection, exported for tools and tests. */
#include "controls.h"
#include "dispatch.h"

/* Name of the kernel serving a modular exponentiation of this size here
 * ("libcrypto" when passed through). */
const char *cryptoshim_modexp_kernel(int consttime, unsigned bits)
{
    const cs_bn_kernel *k = cs_dispatch_bn(consttime, bits);
    return k ? k->name : "libcrypto";
}

/* Library version string. */
const char *cryptoshim_version(void) { return "cryptoshim 0.1"; }
