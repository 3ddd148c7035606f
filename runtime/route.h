/* Which libcryptos a process holds and how the shim reaches each one's
 * modular exponentiation: read from the loaded objects themselves (their
 * dynamic sections in memory: version nodes, relocations, DT_SYMBOLIC), not
 * from file names or a version list. No file access, no system call, no
 * OpenSSL call: usable from the constructor. */
#ifndef CRYPTOSHIM_ROUTE_H
#define CRYPTOSHIM_ROUTE_H

#include <stdint.h>

#define CS_ROUTE_MAX 8

/* How the shim's modexp code is reached in one libcrypto. */
typedef enum cs_route_kind {
    CS_ROUTE_NONE = 0, /* not reachable: see why */
    CS_ROUTE_SYMBOLS,  /* libcrypto's own calls bind to the shim's exports */
    CS_ROUTE_METHOD,   /* RSA/DH/DSA default methods, installed lazily */
} cs_route_kind;

/* One libcrypto found in the link map. */
typedef struct cs_libcrypto {
    char path[256];     /* the loader's name for it */
    uintptr_t base;     /* load address (identifies it in the link map) */
    char abi[24];       /* version node of its BN_mod_exp_mont ("OPENSSL_3.0.0") */
    char newest[24];    /* newest OPENSSL_* node it defines ("OPENSSL_3.5.0") */
    int symbolic;       /* DT_SYMBOLIC or DF_SYMBOLIC: own calls stay inside */
    int modexp_relocs;  /* relocations naming BN_mod_exp_mont* */
    int reachable_relocs; /* ... at a version node the shim exports them at */
    cs_route_kind modexp; /* the route the shim takes */
    const char *why;    /* one line: why this route (or why none) */
    int mldsa;          /* 1: version nodes say 3.5 or later (ML-DSA in libcrypto) */
    int family;         /* enum cs_family (runtime/family.h), from newest */
} cs_libcrypto;

/* Walks the link map and fills out[0..max) with every libcrypto (an object
 * defining BN_mod_exp_mont, whatever its file name), in link-map order.
 * Returns how many were found. Decides each one's route (cs_route_force
 * applies). Loads, opens and calls nothing; while the link map is unchanged
 * (the loader's add/remove counters) it returns the previous scan's result. */
int cs_route_scan(cs_libcrypto *out, int max);

/* CRYPTOSHIM_ROUTE=method (read by the constructor): take the method route
 * wherever methods exist, even where symbols would reach libcrypto (to
 * measure one against the other). 0 = choose by what the library is. */
void cs_route_set_forced_method(int on);
int cs_route_forced_method(void);

/* Address of name@version (version NULL: the default version) defined by a
 * loaded object other than the shim, in link-map order; for libcryptos (or
 * libssls) opened RTLD_LOCAL under any file name. NULL if none. */
void *cs_route_find_sym(const char *name, const char *version);

/* dlsym(RTLD_DEFAULT, name) unless that is the shim's own definition: for a
 * program that exports OpenSSL's names unversioned from its own executable
 * (OpenSSL linked statically, symbols exported for plugins). NULL if none. */
void *cs_route_default_sym(const char *name);

/* Path (as the loader holds it, valid while the object stays loaded) of the
 * first loaded libcrypto whose BN_mod_exp_mont is at version node abi, or
 * NULL. */
const char *cs_route_libcrypto_path(const char *abi);

/* The family (runtime/family.h) of the loaded libcrypto at load address
 * base, or CS_FAMILY_NEWEST when none is there. */
int cs_route_family_at(uintptr_t base);

/* Human names: "symbols", "method", "none". */
const char *cs_route_kind_name(cs_route_kind k);

/* Writes one stats note per libcrypto in lc[0..n) ("route NAME" = "modexp
 * ...; ml-dsa ..."), or "route" = "dormant: ..." when n is 0. A no-op when
 * stats are off. */
void cs_route_note_all(const cs_libcrypto *lc, int n);

/* Writes c's stats note, with detail (e.g. "rsa dh dsa from SSL_CTX_new")
 * after its modexp route when not NULL. */
void cs_route_note_lib(const cs_libcrypto *c, const char *detail);

#endif
