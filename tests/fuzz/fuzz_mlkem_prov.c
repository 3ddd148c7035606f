/* Fuzz target for the provider's ML-KEM decoding (provider/mlkem_keymgmt.c,
 * provider/mlkem_kem.c), called through their OSSL_DISPATCH tables as the
 * OpenSSL core calls them (no core here: no error queue, plain memory), on a
 * fixed key per parameter set edited where the input says, against the
 * outcome FIPS 203 and OpenSSL 3.5 give (tests/bats/mlkem_stock.bats checks
 * the same rules against stock itself):
 *  0 an ek imported as "pub": accepted exactly when it has ek's length and
 *    every 12-bit field is below q; an accepted one encapsulates ("ikme")
 *    to the portable kernel's bytes;
 *  1 a dk imported as "priv": accepted exactly when it has dk's length and
 *    only its last 32 bytes (z) differ from the key's (s, ek and H(ek) are
 *    checked; an s changed within range fails the pairwise test); an
 *    accepted one decapsulates to the portable kernel's secret;
 *  2 a ciphertext decapsulated: of ct's length, the portable kernel's
 *    secret (implicit rejection for an edited one); any other length fails;
 *  3 "seed" beside an edited dk (and the key's ek when the input says):
 *    accepted exactly when the dk is, whole, the one the seed gives (stock
 *    compares all of it: issue 34).
 * Input: mode and parameter set (byte), length adjustment (byte), edit count
 * (byte), then per edit an offset (2 bytes) and a value (byte). */
#include <openssl/core_dispatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "provider/mlkem_key.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/unit/support/mlkem_prov_calls.h"

#define Q 3329
#define MAX_DK 3168

static const int ps_list[3] = {512, 768, 1024};
static struct fixed {
    size_t ekb, dkb, ctb;
    uint8_t seed[64], ek[CS_MLKEM_MAX_EK_BYTES], dk[MAX_DK], ct[CS_MLKEM_MAX_CT_BYTES], m[32];
} fx[3];

/* Stops the run with what differed (a finding). */
static void check(int ok, int ps, const char *what)
{
    FUZZ_EXPECT(ok, what, "provider ML-KEM-%d", ps);
}

/* A new key imported from up to three parts (NULL: absent); NULL if the
 * import failed. */
static void *import(int ps, const uint8_t *seed, const uint8_t *dk, size_t dkn, const uint8_t *ek,
                    size_t ekn)
{
    OSSL_PARAM p[4];
    int n = 0;
    if (seed)
        p[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_SEED, (void *)seed, 64);
    if (dk)
        p[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PRIV, (void *)dk, dkn);
    if (ek)
        p[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PUB, (void *)ek, ekn);
    p[n] = (OSSL_PARAM)OSSL_PARAM_END;
    return import_params(ps, p);
}

/* FIPS 203 7.2's modulus check, written out: every 12-bit field below q. */
static int fields_below_q(const uint8_t *p, size_t polys)
{
    for (size_t i = 0; i < polys * 384; i += 3) {
        unsigned a = p[i] | (unsigned)(p[i + 1] & 15) << 8, b = p[i + 1] >> 4 | (unsigned)p[i + 2] << 4;
        if (a >= Q || b >= Q)
            return 0;
    }
    return 1;
}

static void init(void)
{
    for (int i = 0; i < 3; i++) {
        struct fixed *f = &fx[i];
        int ps = ps_list[i];
        uint8_t ss[32];
        f->ekb = cs_mlkem_ek_bytes(ps);
        f->dkb = cs_mlkem_dk_bytes(ps);
        f->ctb = cs_mlkem_ct_bytes(ps);
        for (int j = 0; j < 64; j++)
            f->seed[j] = (uint8_t)(17 * j + i);
        memset(f->m, 0x3c + i, 32);
        if (cs_mlkem_portable.keygen(ps, f->ek, f->dk, f->seed, f->seed + 32) ||
            cs_mlkem_portable.encaps(ps, f->ct, ss, f->ek, f->m))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        init();
        ready = 1;
    }
    if (size < 3)
        return 0;
    int mode = data[0] & 3, idx = (data[0] >> 2) % 3, ps = ps_list[idx];
    struct fixed *f = &fx[idx];
    int adjust = (int)(data[1] % 5) - 2; /* length -2..+2; mostly exact below */
    if (data[1] >= 128)
        adjust = 0;
    unsigned edits = data[2] % 8;
    data += 3;
    size -= 3;
    uint8_t buf[MAX_DK + 8], ss[32], ss2[32], ct[CS_MLKEM_MAX_CT_BYTES];
    const uint8_t *base = mode == 0 ? f->ek : mode == 2 ? f->ct : f->dk;
    size_t n = mode == 0 ? f->ekb : mode == 2 ? f->ctb : f->dkb;
    memset(buf, 0, sizeof buf);
    memcpy(buf, base, n);
    for (unsigned e = 0; e < edits && size >= 3; e++, data += 3, size -= 3)
        buf[((size_t)data[0] << 8 | data[1]) % n] = data[2];
    size_t len = (size_t)((long)n + adjust);

    if (mode == 0) {
        void *key = import(ps, NULL, NULL, 0, buf, len);
        int want = len == n && fields_below_q(buf, (size_t)ps / 256);
        check((key != NULL) == want, ps, "ek import outcome");
        if (key) {
            size_t cn = sizeof ct;
            uint8_t ref[CS_MLKEM_MAX_CT_BYTES];
            check(kem_encaps(key, f->m, ct, &cn, ss) && cn == f->ctb, ps, "encaps to an accepted ek");
            check(cs_mlkem_portable.encaps(ps, ref, ss2, buf, f->m) == 0, ps, "portable encaps");
            check(!memcmp(ct, ref, cn) && !memcmp(ss, ss2, 32), ps, "encaps bytes");
            key_free(ps, key);
        }
    } else if (mode == 1) {
        void *key = import(ps, NULL, buf, len, NULL, 0);
        int want = len == n && !memcmp(buf, f->dk, n - 32);
        check((key != NULL) == want, ps, "dk import outcome");
        if (key) {
            check(kem_decaps(key, f->ct, f->ctb, ss), ps, "decaps with an accepted dk");
            check(cs_mlkem_portable.decaps(ps, ss2, f->ct, buf) == 0 && !memcmp(ss, ss2, 32), ps,
                  "decaps secret");
            key_free(ps, key);
        }
    } else if (mode == 2) {
        void *key = import(ps, NULL, f->dk, f->dkb, NULL, 0);
        check(key != NULL, ps, "the fixed dk");
        int ok = kem_decaps(key, buf, len, ss);
        check(ok == (len == n), ps, "decaps outcome by length");
        if (ok)
            check(cs_mlkem_portable.decaps(ps, ss2, buf, f->dk) == 0 && !memcmp(ss, ss2, 32), ps,
                  "decaps secret (implicit rejection)");
        key_free(ps, key);
    } else {
        int with_ek = adjust != 0;
        len = n;
        void *key = import(ps, f->seed, buf, len, with_ek ? f->ek : NULL, f->ekb);
        int want = !memcmp(buf, f->dk, n);
        check((key != NULL) == want, ps, "seed beside dk outcome");
        if (key)
            key_free(ps, key);
    }
    return 0;
}
