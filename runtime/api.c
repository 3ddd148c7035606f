/* cryptoshim_* introspection, exported for tools and tests. */
#include "controls.h"
#include "dispatch.h"
#include "route.h"

/* Name of the kernel serving a modular exponentiation of this size here
 * ("libcrypto" when passed through), for calls from the first libcrypto in
 * the link map (its family's table). */
const char *cryptoshim_modexp_kernel(int consttime, unsigned bits)
{
    cs_libcrypto lc[1];
    int family = cs_route_scan(lc, 1) ? lc[0].family : CS_FAMILY_NEWEST;
    const cs_bn_kernel *k = cs_dispatch_bn(family, consttime, bits);
    return k ? k->name : "libcrypto";
}

/* Library version string. */
const char *cryptoshim_version(void) { return "cryptoshim 0.1"; }
