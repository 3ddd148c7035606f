/* Template (curve_impl.h): static int c25519_x25519(out, scalar, u), the
 * RFC 7748 Montgomery ladder over the including source's field, with
 * cs_c25519_impl.x25519's contract. To be written (wave 4, issue 36). */
#ifndef CRYPTOSHIM_C25519_X25519_LADDER_H
#define CRYPTOSHIM_C25519_X25519_LADDER_H
#endif
