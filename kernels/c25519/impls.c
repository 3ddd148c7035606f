/* The curve family's implementations for this architecture, fastest
 * first (per-ISA tables are defined in their folders). */
#include <stddef.h>

#include "c25519.h"

const cs_c25519_impl *const cs_c25519_impls[] = {
    NULL,
};
