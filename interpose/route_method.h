/* The method route: where a libcrypto's own calls never reach the shim's
 * exports (linked DT_SYMBOLIC, or its functions at a version node the shim
 * does not interpose), the shim installs process-wide default RSA, DH and DSA
 * methods: copies of the stock ones whose modular exponentiation hooks call
 * the shim's modexp entry logic. Installed lazily, from the application's
 * first call into one of a set of entry points every program reaches before
 * it has a key (interpose/triggers.c), never from the constructor. */
#ifndef CRYPTOSHIM_ROUTE_METHOD_H
#define CRYPTOSHIM_ROUTE_METHOD_H

/* Called by every trigger entry point exported at version node `node`
 * ("OPENSSL_3.0.0", "OPENSSL_4.0.0") before it forwards to libcrypto or
 * libssl; `entry` names it (for the stats note). Cheap after the first call
 * (one acquire load); thread-safe; a no-op on re-entry from the shim's own
 * OpenSSL calls, under CRYPTOSHIM_DISABLE=1, and where the libcrypto at that
 * node takes the symbol route. */
void cs_route_trigger(const char *node, const char *entry);

/* What the method route did for the libcrypto at node: 0 not (yet) tried,
 * else a bit set of CS_METHOD_* (for tests and the CLI). */
#define CS_METHOD_TRIED 1
#define CS_METHOD_RSA 2 /* shim's RSA method installed */
#define CS_METHOD_DH 4
#define CS_METHOD_DSA 8
#define CS_METHOD_RSA_KEPT 16 /* the application's own default kept */
#define CS_METHOD_DH_KEPT 32
#define CS_METHOD_DSA_KEPT 64
int cs_route_method_state(const char *node);

#endif
