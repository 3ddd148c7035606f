/* Template (curve_impl.h): the Edwards group over the including source's
 * field; static c25519_x25519_base and the Ed25519 entries, and
 * CS_ED25519_ENTRIES (the table's pubkey, sign, verify). To be written
 * (wave 4, issue 36); until then X25519's fixed base is the ladder on
 * u = 9 and the tables offer no Ed25519. */
#ifndef CRYPTOSHIM_C25519_ED25519_OPS_H
#define CRYPTOSHIM_C25519_ED25519_OPS_H

/* out = X25519(scalar, 9). */
static void c25519_x25519_base(uint8_t out[32], const uint8_t scalar[32])
{
    static const uint8_t nine[32] = {9};
    (void)c25519_x25519(out, scalar, nine);
}

#define CS_ED25519_ENTRIES NULL, NULL, NULL

#endif
