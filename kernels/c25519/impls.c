/* The curve family's implementations for this architecture, in the
 * registry's order (kernels/impl.h: portable first; per-ISA tables are
 * defined in their folders). Empty where the compiler has no unsigned
 * __int128 (see portable.c). */
#include <stddef.h>

#include "c25519.h"

#if defined(__x86_64__)
extern const cs_c25519_impl cs_c25519_x86_64_adx;
extern const cs_c25519_impl cs_c25519_x86_64_mulx;
extern const cs_c25519_impl cs_c25519_x86_64_ifma;
#endif

const cs_c25519_impl *const cs_c25519_impls[] = {
#ifdef __SIZEOF_INT128__
    &cs_c25519_portable,
#endif
#if defined(__x86_64__)
    &cs_c25519_x86_64_adx,
    &cs_c25519_x86_64_mulx,
    &cs_c25519_x86_64_ifma,
#endif
    NULL,
};
