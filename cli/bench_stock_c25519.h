/* Stock libcrypto's side of the curve benches (`bench x25519`, `bench
 * ed25519` and the lab harness tools/bench/c25519_peer.c): the EVP set-ups
 * and calls our curve tables are timed and checked against. */
#ifndef CRYPTOSHIM_CLI_BENCH_STOCK_C25519_H
#define CRYPTOSHIM_CLI_BENCH_STOCK_C25519_H

#include <stdint.h>

#include <openssl/evp.h>

/* An X25519 derive context for private key priv and peer value peer, set
 * up once as `openssl speed ecdhx25519` does; NULL on failure. */
EVP_PKEY_CTX *cli_stock_x25519_derive_ctx(const uint8_t priv[32], const uint8_t peer[32]);
/* An Ed25519 signing context (sign 1, key: the 32 private bytes) or
 * verifying one (sign 0, key: the public key), as `openssl speed ed25519`
 * sets up; NULL on failure. */
EVP_MD_CTX *cli_stock_ed25519_md_ctx(int sign, const uint8_t key[32]);
/* out = the public value of a 32-byte private key of type EVP_PKEY_X25519
 * or EVP_PKEY_ED25519, the way stock gets it (new raw private key, its raw
 * public key, free); 0 on failure. */
int cli_stock_public(int type, uint8_t out[32], const uint8_t key[32]);

#endif
