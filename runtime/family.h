/* libcrypto families: the groups of OpenSSL releases whose own modular
 * exponentiation code is the same where the shim's decisions are concerned,
 * so that a measured policy rule can say which libcrypto it was measured
 * against. A family is read from what the loaded library is (the newest
 * OPENSSL_* version node it defines), never from a version string:
 *   1.1   OpenSSL 1.1.x (nodes OPENSSL_1_1_*): no paired exponentiation;
 *   3.0   3.0 and 3.1: paired AVX-512 IFMA code for 1024-bit halves only;
 *   3.2+  3.2 and later, 4.0 included: paired IFMA code for 1024-, 1536- and
 *         2048-bit halves (RSA-2048, -3072, -4096 CRT).
 * A library whose family cannot be read (a program exporting OpenSSL's names
 * unversioned) counts as the newest family: its rules assume the most of
 * what stock does. */
#ifndef CRYPTOSHIM_FAMILY_H
#define CRYPTOSHIM_FAMILY_H

#include <stddef.h>

enum cs_family { CS_FAMILY_11, CS_FAMILY_30, CS_FAMILY_32, CS_FAMILY_COUNT };
#define CS_FAMILY_NEWEST CS_FAMILY_32
/* Bit set of families in policy rules; 0 means every family. */
#define CS_FAMILY_BIT(f) (1u << (f))
#define CS_FAMILY_ALL ((1u << CS_FAMILY_COUNT) - 1)

/* Orders OpenSSL version node names: OPENSSL_1_1_0 < OPENSSL_1_1_1 <
 * OPENSSL_3.0.0 < OPENSSL_3.10.0 (major * 10^6 + minor * 10^3 + patch). */
long cs_node_rank(const char *node);

/* The family of a libcrypto whose newest OPENSSL_* node is `newest` (NULL or
 * "" when unknown: CS_FAMILY_NEWEST). */
int cs_family_of_node(const char *newest);

/* "1.1", "3.0", "3.2+"; NULL for anything else. */
const char *cs_family_name(int family);

/* The family named by the len bytes at s, or -1. */
int cs_family_by_name(const char *s, size_t len);

#endif
