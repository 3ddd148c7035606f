/* The provider's ML-KEM key, shared by its key management
 * (provider/mlkem_keymgmt.c) and KEM (provider/mlkem_kem.c). */
#ifndef CRYPTOSHIM_MLKEM_KEY_H
#define CRYPTOSHIM_MLKEM_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/mlkem/mlkem.h"
#include "prov.h"

#define CS_MLKEM_SEED_BYTES 64 /* d || z */
#define CS_MLKEM_MAX_EK_BYTES 1568
#define CS_MLKEM_MAX_CT_BYTES 1568

/* An ML-KEM key of parameter set ps. ek is set whenever dk is (dk embeds
 * it); the seed only when the key was generated or imported from one.
 * seed and dk point into the secret block (allocated with the first private
 * material: NULL in a public-only key). prep is the prepared public key
 * (kernels/mlkem/mlkem.h), filled with the public material by the
 * implementation dispatched then, or NULL (no memory, or no material).
 * Keys are immutable once they hold material, so threads share them
 * without locks: nothing is prepared later. */
typedef struct cs_mlkem_key {
    cs_prov *prov;
    int ps; /* 512, 768 or 1024 */
    int has_pub, has_priv, has_seed;
    uint8_t *secret; /* CS_MLKEM_SEED_BYTES + dk bytes of ps */
    uint8_t *seed, *dk;
    cs_mlkem_prepared *prep;
    uint8_t ek[CS_MLKEM_MAX_EK_BYTES];
} cs_mlkem_key;

/* Algorithm name of a parameter set as OpenSSL spells it ("ML-KEM-768"). */
const char *cs_mlkem_alg_name(int ps);

/* Encapsulates to the key's ek with the 32 bytes m on the dispatched
 * kernel (from the prepared key when that kernel prepared it), counting
 * the call: 1, or 0 on a kernel refusal. */
int cs_mlkem_key_encaps(const cs_mlkem_key *key, uint8_t *ct, uint8_t ss[32], const uint8_t m[32]);
/* Decapsulates a ciphertext of the right length with the key's dk on the
 * dispatched kernel (implicit rejection inside; prepared as encaps),
 * counting the call. */
int cs_mlkem_key_decaps(const cs_mlkem_key *key, uint8_t ss[32], const uint8_t *ct);

#endif
