/* The ModExp blocks of OpenSSL's bnmod.txt (A^E mod M = ModExp) as BIGNUMs,
 * for the differential tests (read by vectors.h). Header-only: it needs
 * libcrypto's BIGNUM, which the support library does not link. */
#ifndef CRYPTOSHIM_TEST_BNMOD_MODEXP_H
#define CRYPTOSHIM_TEST_BNMOD_MODEXP_H

#include <openssl/bn.h>

#include "tap.h"
#include "vectors.h"

/* Called once per ModExp block; the four numbers become the callee's (it
 * frees them, or keeps them for a later call). */
typedef void bnmod_modexp_fn(BIGNUM *a, BIGNUM *e, BIGNUM *m, BIGNUM *want, void *arg);

/* Calls fn for every ModExp block of bnmod.txt, in file order, and returns
 * how many there were, or -1 (after a failed TAP line naming `who`) if the
 * file cannot be read. Blocks of other kinds are skipped. */
static long bnmod_modexp_each(const char *who, bnmod_modexp_fn *fn, void *arg)
{
    vec_kv f;
    if (vec_kv_open(&f, "openssl/bnmod.txt")) {
        tap_ok(0, "%s: read %s/openssl/bnmod.txt", who, vec_dir());
        return -1;
    }
    long blocks = 0;
    while (vec_kv_next(&f)) {
        const char *hex[4] = {vec_kv_get(&f, "ModExp"), vec_kv_get(&f, "A"), vec_kv_get(&f, "E"),
                              vec_kv_get(&f, "M")};
        if (!hex[0] || !hex[1] || !hex[2] || !hex[3])
            continue;
        BIGNUM *bn[4] = {NULL, NULL, NULL, NULL};
        for (int k = 0; k < 4; k++)
            BN_hex2bn(&bn[k], hex[k]);
        fn(bn[1], bn[2], bn[3], bn[0], arg);
        blocks++;
    }
    vec_kv_close(&f);
    return blocks;
}

#endif
