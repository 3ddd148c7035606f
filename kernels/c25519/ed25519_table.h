/* Precomputed multiples of Ed25519's base point B (ed25519_table.c, a build
 * product of scripts/gen-ed25519-table.c in $(BUILD)/gen), stored once for every
 * implementation in a neutral form: each point is the affine triple
 * (y + x, y - x, 2d*x*y), each coordinate the 32-byte little-endian
 * canonical encoding of its value mod p. An implementation reads an entry
 * as bytes and converts it with its field's fe_frombytes (for a 4x64-bit
 * field a plain load), so one table serves every field representation. */
#ifndef CRYPTOSHIM_C25519_ED25519_TABLE_H
#define CRYPTOSHIM_C25519_ED25519_TABLE_H

#include <stdint.h>

#define CS_ED25519_NIELS_BYTES 96

/* cs_ed25519_comb[i][j] = (j + 1) * 256^i * B: the fixed-base table,
 * read by a constant-time scan of its 8 entries per position. */
extern const uint8_t cs_ed25519_comb[32][8][CS_ED25519_NIELS_BYTES];
/* cs_ed25519_comb16[i][j] = 16 (j + 1) 256^i B: the odd radix-16 digits'
 * positions, for the x86-64 fixed-base loop (comb_body.h), which so needs
 * no doublings. Both comb tables start on a 64-byte boundary (a position's
 * 768 bytes are 12 cache lines). */
extern const uint8_t cs_ed25519_comb16[32][8][CS_ED25519_NIELS_BYTES];
/* cs_ed25519_odd[k] = (2k + 1) * B: verification's odd multiples, read
 * by public index. */
extern const uint8_t cs_ed25519_odd[64][CS_ED25519_NIELS_BYTES];

#endif
