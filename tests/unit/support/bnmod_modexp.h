/* Reader for the ModExp blocks of OpenSSL's bnmod.txt (A^E mod M = ModExp)
 * under the vectors directory, for the differential tests. Header-only: it
 * needs libcrypto's BIGNUM, which the support library does not link. */
#ifndef CRYPTOSHIM_TEST_BNMOD_MODEXP_H
#define CRYPTOSHIM_TEST_BNMOD_MODEXP_H

#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

/* Called once per ModExp block; the four numbers become the callee's (it
 * frees them, or keeps them for a later call). */
typedef void bnmod_modexp_fn(BIGNUM *a, BIGNUM *e, BIGNUM *m, BIGNUM *want, void *arg);

/* Calls fn for every ModExp block of bnmod.txt, in file order, and returns
 * how many there were, or -1 (after a failed TAP line naming `who`) if the
 * file cannot be read. Blocks of other kinds are skipped. */
static long bnmod_modexp_each(const char *who, bnmod_modexp_fn *fn, void *arg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/openssl/bnmod.txt", tap_vectors_dir());
    char *text = tap_read_file(path, NULL);
    if (!text) {
        tap_ok(0, "%s: read %s", who, path);
        return -1;
    }
    BIGNUM *want = NULL, *a = NULL, *e = NULL, *m = NULL;
    long blocks = 0;
    int in_block = 0;
    for (char *line = strtok(text, "\n");; line = strtok(NULL, "\n")) {
        if (line && line[0] == '#')
            continue;
        char key[32];
        int off = 0;
        if (line && sscanf(line, "%31s = %n", key, &off) == 1 && off > 0) {
            char *val = line + off;
            val[strcspn(val, " \r")] = 0;
            BIGNUM **slot = !strcmp(key, "ModExp") ? &want : !strcmp(key, "A") ? &a
                          : !strcmp(key, "E") ? &e : !strcmp(key, "M") ? &m : NULL;
            if (!strcmp(key, "ModExp"))
                in_block = 1;
            else if (!strcmp(key, "ModMul") || !strcmp(key, "ModSqr") || !strcmp(key, "Exp") ||
                     !strcmp(key, "ModInv") || !strcmp(key, "ModExpMont") || !strcmp(key, "ModSqrt"))
                in_block = 0;
            if (slot && in_block)
                BN_hex2bn(slot, val);
        }
        if (in_block && want && a && e && m) {
            fn(a, e, m, want, arg);
            blocks++;
            want = a = e = m = NULL;
            in_block = 0;
        }
        if (!line)
            break;
    }
    BN_free(want), BN_free(a), BN_free(e), BN_free(m);
    free(text);
    return blocks;
}

#endif
