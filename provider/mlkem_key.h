/* The provider's ML-KEM key, shared by its key management
 * (provider/mlkem_keymgmt.c) and KEM (provider/mlkem_kem.c). */
#ifndef CRYPTOSHIM_MLKEM_KEY_H
#define CRYPTOSHIM_MLKEM_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/mlkem/mlkem.h"
#include "key.h"

#define CS_MLKEM_SEED_BYTES 64 /* d || z */
#define CS_MLKEM_MAX_EK_BYTES 1568
#define CS_MLKEM_MAX_CT_BYTES 1568

/* An ML-KEM key is a provider key (provider/key.h) of an ML-KEM family:
 * hooks->ps the parameter set (512, 768, 1024), pub the ek (set whenever
 * priv is: dk embeds it), priv the dk, seed d || z when the key was
 * generated or imported from one (and kept). prep[CS_KEY_PREP_PUB] is the
 * prepared public key (kernels/mlkem/mlkem.h) of the implementation
 * dispatched when it was made: filled at generation and import, or at the
 * first use of a key without one (a dup), through the skeleton's
 * compare-and-swap, so threads share keys without locks. */
typedef struct cs_key cs_mlkem_key;

/* Algorithm name of a parameter set as OpenSSL spells it ("ML-KEM-768"). */
const char *cs_mlkem_alg_name(int ps);

/* Encapsulates to the key's ek with the 32 bytes m on the dispatched
 * kernel (from the prepared key when that kernel prepared it), counting
 * the call: 1, or 0 on a kernel refusal. */
int cs_mlkem_key_encaps(cs_mlkem_key *key, uint8_t *ct, uint8_t ss[32], const uint8_t m[32]);
/* Decapsulates a ciphertext of the right length with the key's dk on the
 * dispatched kernel (implicit rejection inside; prepared as encaps),
 * counting the call. */
int cs_mlkem_key_decaps(cs_mlkem_key *key, uint8_t ss[32], const uint8_t *ct);

#endif
