/* The libcrypto functions the shim calls, resolved at run time (the library
 * never links libcrypto), one table per libcrypto ABI it serves. */
#ifndef CRYPTOSHIM_OSSL_H
#define CRYPTOSHIM_OSSL_H

#include <openssl/bn.h>

typedef int (*cs_mod_exp_fn)(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m,
                             BN_CTX *ctx, BN_MONT_CTX *in_mont);
typedef int (*cs_mod_exp_x2_fn)(BIGNUM *rr1, const BIGNUM *a1, const BIGNUM *p1,
                                const BIGNUM *m1, BN_MONT_CTX *in_mont1, BIGNUM *rr2,
                                const BIGNUM *a2, const BIGNUM *p2, const BIGNUM *m2,
                                BN_MONT_CTX *in_mont2, BN_CTX *ctx);
typedef int (*cs_mod_exp2_fn)(BIGNUM *rr, const BIGNUM *a1, const BIGNUM *p1, const BIGNUM *a2,
                              const BIGNUM *p2, const BIGNUM *m, BN_CTX *ctx,
                              BN_MONT_CTX *in_mont);

typedef struct cs_ossl {
    const char *version; /* symbol version node, "OPENSSL_3.0.0" */
    int ready;           /* 1 once every pointer below is set (atomic) */
    cs_mod_exp_fn mod_exp_mont;
    cs_mod_exp_fn mod_exp_mont_consttime;
    cs_mod_exp_x2_fn mod_exp_mont_consttime_x2; /* may be NULL (older ABI) */
    cs_mod_exp2_fn mod_exp2_mont; /* may be NULL */
    int (*num_bits)(const BIGNUM *a);
    int (*is_odd)(const BIGNUM *a);
    int (*is_negative)(const BIGNUM *a);
    int (*is_zero)(const BIGNUM *a);
    int (*get_flags)(const BIGNUM *a, int n);
    int (*ucmp)(const BIGNUM *a, const BIGNUM *b);
    int (*bn2lebinpad)(const BIGNUM *a, unsigned char *to, int tolen);
    BIGNUM *(*lebin2bn)(const unsigned char *s, int len, BIGNUM *ret);
    int (*nnmod)(BIGNUM *r, const BIGNUM *m, const BIGNUM *d, BN_CTX *ctx);
    void (*ctx_start)(BN_CTX *ctx);
    BIGNUM *(*ctx_get)(BN_CTX *ctx);
    void (*ctx_end)(BN_CTX *ctx);
    /* may be NULL: then a caller's BN_MONT_CTX cannot be checked (modexp) */
    int (*from_montgomery)(BIGNUM *r, const BIGNUM *a, BN_MONT_CTX *mont, BN_CTX *ctx);
    /* optional, for modexp's one-time check of BN_MONT_CTX's layout */
    BN_MONT_CTX *(*mont_ctx_new)(void);
    int (*mont_ctx_set)(BN_MONT_CTX *mont, const BIGNUM *mod, BN_CTX *ctx);
    void (*mont_ctx_free)(BN_MONT_CTX *mont);
    /* bn/modexp.c's finding on this library's BN_MONT_CTX layout (atomic):
     * 0 not yet checked, -1 unknown, else 1 + its index of known layouts. */
    int mont_layout;
    /* The library's family (runtime/family.h), set with the pointers: the
     * dispatch table a call reads is this family's. */
    int family;
} cs_ossl;

/* The tables per libcrypto ABI (version node of BN_mod_exp_mont): 3.x, 1.1.x
 * and 4.x. A process may hold more than one. */
extern cs_ossl cs_ossl30;
extern cs_ossl cs_ossl11;
extern cs_ossl cs_ossl40;

/* The table for a version node ("OPENSSL_4.0.0"), or NULL. */
cs_ossl *cs_ossl_for_node(const char *node);

/* Resolves api's functions from the libcrypto loaded in this process (the
 * next definition after the shim, or any loaded object defining them at the
 * table's version node, whatever its file name). Returns 1 when ready. Cheap
 * once resolved (one acquire load); thread-safe: fields are written once,
 * under a lock, before ready is released. */
int cs_ossl_resolve(cs_ossl *api);

/* As cs_ossl_resolve, but from a given dlopen handle or RTLD_DEFAULT (for
 * tests and the CLI, which link libcrypto themselves). */
int cs_ossl_resolve_from(cs_ossl *api, void *handle);

/* As cs_ossl_resolve, but from the loaded object at path first (a libcrypto
 * found by cs_route_scan); loads nothing. */
int cs_ossl_resolve_path(cs_ossl *api, const char *path);

#endif
