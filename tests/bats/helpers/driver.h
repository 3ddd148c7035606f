/* The skeleton shared by the bats suites' C drivers (tests/bats/helpers/
 * *_driver.c, each one translation unit built against the system's 3.0
 * headers): the command line, the Wycheproof file named on it, and the
 * "# provider NAME" lines that say who serves a key. Header-only. */
#ifndef CRYPTOSHIM_BATS_DRIVER_H
#define CRYPTOSHIM_BATS_DRIVER_H

#include <stdio.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#include "tests/unit/support/vectors.h"

/* 1 when the command line has at least min words (the program's name
 * included); else prints "usage: PROGRAM ARGS" and returns 0. */
static inline int driver_args(int argc, char **argv, int min, const char *args)
{
    if (argc >= min)
        return 1;
    fprintf(stderr, "usage: %s %s\n", argv[0], args);
    return 0;
}

/* Opens the Wycheproof file that is the only argument into w: 0, or 2
 * (the usage printed) when there is none or it cannot be read. */
static inline int driver_wyc_open(vec_wyc *w, int argc, char **argv)
{
    if (argc == 2 && !vec_wyc_open(w, argv[1]))
        return 0;
    fprintf(stderr, "usage: %s FILE.json (a readable Wycheproof file)\n", argv[0]);
    return 2;
}

/* Who serves key: "# provider NAME", then " WHAT" when what is given. */
static inline void driver_provider(const EVP_PKEY *key, const char *what)
{
    const OSSL_PROVIDER *prov = key ? EVP_PKEY_get0_provider(key) : NULL;
    printf("# provider %s%s%s\n", prov ? OSSL_PROVIDER_get0_name(prov) : "none", what ? " " : "",
           what ? what : "");
}

#endif
