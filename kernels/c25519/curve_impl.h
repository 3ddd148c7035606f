/* The curve templates, instantiated once per implementation: a source
 * includes its field header, then this file, then defines its table with
 * CS_C25519_TABLE. Everything here is static, so each implementation gets
 * its own copy compiled for its own ISA flags.
 *
 * The field header's contract (arithmetic modulo p = 2^255 - 19): it
 * defines the type `fe` (its own representation and bounds) and these
 * static inline functions; every output is a valid input to every
 * function, outputs may alias inputs, and none branches on or indexes by
 * the values.
 *   fe_0(h), fe_1(h), fe_copy(h, f)
 *   fe_add(h, f, g), fe_sub(h, f, g), fe_neg(h, f)
 *   fe_mul(h, f, g), fe_sq(h, f)
 *   fe_mul121666(h, f)                  f * 121666 (the ladder's a24)
 *   fe_frombytes(h, s)                  s[31]'s top bit ignored; values >= p allowed
 *   fe_tobytes(s, h)                    the canonical encoding (< p)
 *   fe_cswap(f, g, b), fe_cmov(f, g, b) b in {0, 1}
 *   int fe_isnegative(f), int fe_iszero(f)   of the canonical value
 * A field header may define FE_HAVE_<STEP> for a fused step it does
 * better; the template that uses the step says which names it tests. */
#ifndef CRYPTOSHIM_C25519_CURVE_IMPL_H
#define CRYPTOSHIM_C25519_CURVE_IMPL_H

#include "c25519.h"

#include "x25519_ladder.h" /* c25519_x25519: the Montgomery ladder */
#include "ed25519_ops.h"   /* c25519_x25519_base, the Edwards group, Ed25519 */

/* Defines the implementation table var named nm for the CS_CPU_* bits
 * features, over the functions the templates above defined. */
#define CS_C25519_TABLE(var, nm, features) \
    const cs_c25519_impl var = {nm, features, c25519_x25519, c25519_x25519_base, CS_ED25519_ENTRIES}

#endif
