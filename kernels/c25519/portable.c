/* The portable implementation: the curve templates over the 51-bit-limb
 * field (fe51.h). Built where the compiler has unsigned __int128 (every
 * 64-bit target); a 32-bit target (sparc32) builds no curve table and its
 * cs_c25519_impls is empty, so libcrypto keeps the curves there. */
#ifdef __SIZEOF_INT128__
#include "fe51.h"
#include "curve_impl.h"

CS_C25519_TABLE(cs_c25519_portable, "portable", 0);
#endif
