/* Walks ML-KEM through OpenSSL 3.5+'s EVP API and prints one line per point:
 *     ALG NAME rc=R err=LIB:REASON|none [out=HASH]
 * R is 1 when the call succeeded; err is the first error left on the queue;
 * out is a short hash of a deterministic output (keys from seeds,
 * ciphertexts and secrets from "ikme", decapsulated secrets), so runs with
 * and without the shim compare line by line (tests/bats/mlkem_stock.bats).
 * Groups: "kat" keys and encapsulations from pseudo-random seeds and
 * messages (the run's seed argument), "key" hostile and mismatched keys and
 * key checks, "kem" hostile ciphertexts, buffer and parameter edge cases,
 * "mlx" the hybrid TLS groups (their ML-KEM half). Lines starting "#" say
 * who served what. Usage: mlkem_stock_driver ALG GROUP [SEED]. Built against
 * the system's 3.0 headers; run on 3.5, 3.6 or 4.0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "pq_driver.h"

#define MAXEK 1568
#define MAXDK 3168
#define MAXCT 1568

static const char *alg;
static int ps, k;
static size_t ekb, dkb, ctb;

/* Prints one point's line (rc > 0 succeeded) and clears the error queue. */
static void point_out(const char *name, int rc, const unsigned char *out, size_t outlen)
{
    pq_point(alg, name, rc > 0, out, outlen);
}

static void point(const char *name, int rc)
{
    point_out(name, rc, NULL, 0);
}

/* ---- keys ------------------------------------------------------------- */

/* A key from the 64-byte seed d || z through keygen's "seed" parameter, and
 * an import of parts, of the driver's algorithm (tests/bats/helpers/pq_driver.h). */
#define keygen_seed(name, seed, len) pq_keygen((name), (seed), (len))
#define fromdata(sel, s, sn, d, dn, e, en) pq_fromdata(alg, (sel), (s), (sn), (d), (dn), (e), (en))

/* A TLS peer's key: an empty key of the algorithm (paramgen, as libssl
 * makes one) given the encoded public key. */
static EVP_PKEY *peer_key(const char *name, const unsigned char *ek, size_t n, int *rc)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, name, NULL);
    *rc = 0;
    if (c && EVP_PKEY_paramgen_init(c) == 1 && EVP_PKEY_paramgen(c, &key) == 1)
        *rc = EVP_PKEY_set1_encoded_public_key(key, ek, n);
    EVP_PKEY_CTX_free(c);
    return key;
}

/* ---- KEM --------------------------------------------------------------- */

/* Encapsulates to key, with ikme when given (NULL: random), into ct/ss of
 * the given capacities; returns the EVP result. */
static int encaps(EVP_PKEY *key, const unsigned char *ikme, size_t ikmen, unsigned char *ct,
                  size_t *ctlen, unsigned char *ss, size_t *sslen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string("ikme", (void *)ikme, ikmen), OSSL_PARAM_END};
    int rc = c && EVP_PKEY_encapsulate_init(c, ikme ? p : NULL) == 1 &&
             EVP_PKEY_encapsulate(c, ct, ctlen, ss, sslen) == 1;
    EVP_PKEY_CTX_free(c);
    return rc;
}

/* Decapsulates ct with key into ss (capacity *sslen). */
static int decaps(EVP_PKEY *key, unsigned char *ss, size_t *sslen, const unsigned char *ct,
                  size_t ctlen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int rc = c && EVP_PKEY_decapsulate_init(c, NULL) == 1 &&
             EVP_PKEY_decapsulate(c, ss, sslen, ct, ctlen) == 1;
    EVP_PKEY_CTX_free(c);
    return rc;
}

/* ---- groups ------------------------------------------------------------ */

/* Keys from random seeds, their exports, deterministic encapsulations and
 * decapsulations (good and corrupted ciphertexts). */
static void group_kat(int rounds)
{
    unsigned char seed[64], m[32], ek[MAXEK], dk[MAXDK], ct[MAXCT], ss[32], ss2[32], s2[64];
    char name[64];
    for (int i = 0; i < rounds; i++) {
        rnd(seed, sizeof seed);
        EVP_PKEY *key = keygen_seed(alg, seed, sizeof seed);
        if (i == 0)
            driver_provider(key, "keygen");
        size_t en = get_octets(key, "pub", ek, sizeof ek), dn = get_octets(key, "priv", dk, sizeof dk);
        size_t sn = get_octets(key, "seed", s2, sizeof s2);
        snprintf(name, sizeof name, "kat.%d.keygen.pub", i);
        point_out(name, key != NULL && en == ekb, ek, en);
        snprintf(name, sizeof name, "kat.%d.keygen.priv", i);
        point_out(name, dn == dkb, dk, dn);
        snprintf(name, sizeof name, "kat.%d.keygen.seed", i);
        point_out(name, sn == 64 && memcmp(s2, seed, 64) == 0, s2, sn);
        for (int j = 0; j < 2; j++) {
            size_t cn = sizeof ct, ssn = sizeof ss;
            rnd(m, sizeof m);
            int rc = encaps(key, m, sizeof m, ct, &cn, ss, &ssn);
            snprintf(name, sizeof name, "kat.%d.%d.encaps.ct", i, j);
            point_out(name, rc && cn == ctb, ct, cn);
            snprintf(name, sizeof name, "kat.%d.%d.encaps.ss", i, j);
            point_out(name, rc && ssn == 32, ss, ssn);
            ssn = sizeof ss2;
            rc = decaps(key, ss2, &ssn, ct, cn);
            snprintf(name, sizeof name, "kat.%d.%d.decaps", i, j);
            point_out(name, rc && memcmp(ss, ss2, 32) == 0, ss2, ssn);
            /* one flipped bit anywhere: implicit rejection's secret */
            unsigned char r[2];
            rnd(r, 2);
            size_t at = ((size_t)r[0] << 8 | r[1]) % cn;
            ct[at] ^= 1u << (r[0] & 7);
            ssn = sizeof ss2;
            rc = decaps(key, ss2, &ssn, ct, cn);
            snprintf(name, sizeof name, "kat.%d.%d.decaps.reject", i, j);
            point_out(name, rc && memcmp(ss, ss2, 32) != 0, ss2, ssn);
        }
        /* the same key from its dk alone, and from ek alone, encapsulating */
        EVP_PKEY *kd = fromdata(OSSL_KEYMGMT_SELECT_KEYPAIR, NULL, 0, dk, dn, NULL, 0);
        EVP_PKEY *ke = fromdata(OSSL_KEYMGMT_SELECT_PUBLIC_KEY, NULL, 0, NULL, 0, ek, en);
        size_t cn = sizeof ct, ssn = sizeof ss;
        rnd(m, sizeof m);
        int rc = encaps(ke, m, sizeof m, ct, &cn, ss, &ssn);
        snprintf(name, sizeof name, "kat.%d.pubonly.encaps", i);
        point_out(name, rc, ct, cn);
        ssn = sizeof ss2;
        rc = decaps(kd, ss2, &ssn, ct, cn);
        snprintf(name, sizeof name, "kat.%d.privonly.decaps", i);
        point_out(name, rc && memcmp(ss, ss2, 32) == 0, ss2, ssn);
        EVP_PKEY_free(kd);
        EVP_PKEY_free(ke);
        EVP_PKEY_free(key);
    }
}

/* H(ek) into the dk's hash field, so only what the test changed differs. */
static void rehash(unsigned char *dk)
{
    unsigned int n = 32;
    EVP_Digest(dk + 384 * k, ekb, dk + dkb - 64, &n, EVP_sha3_256(), NULL);
}

/* An import of (seed, dk, ek) with the given selection: one point. */
static void import_point(const char *name, int selection, const unsigned char *seed, size_t sn,
                         const unsigned char *dk, size_t dn, const unsigned char *ek, size_t en)
{
    EVP_PKEY *key = fromdata(selection, seed, sn, dk, dn, ek, en);
    unsigned char out[MAXEK];
    size_t on = get_octets(key, "pub", out, sizeof out);
    point_out(name, key != NULL, key ? out : NULL, on);
    EVP_PKEY_free(key);
}

/* Key checks on one key: pairwise, whole, public, private, parameters. */
static void check_points(const char *what, EVP_PKEY *key)
{
    char name[64];
    static const char *const kinds[] = {"pairwise", "check", "public", "private", "param"};
    for (int i = 0; i < 5; i++) {
        EVP_PKEY_CTX *c = key ? EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL) : NULL;
        int rc = 0;
        if (c) {
            switch (i) {
            case 0: rc = EVP_PKEY_pairwise_check(c); break;
            case 1: rc = EVP_PKEY_check(c); break;
            case 2: rc = EVP_PKEY_public_check(c); break;
            case 3: rc = EVP_PKEY_private_check(c); break;
            default: rc = EVP_PKEY_param_check(c); break;
            }
        }
        snprintf(name, sizeof name, "key.%s.%s", what, kinds[i]);
        point(name, rc);
        EVP_PKEY_CTX_free(c);
    }
}

/* Hostile and mismatched keys through every import path; key checks, dup,
 * match, raw accessors, export of empty keys. */
static void group_key(void)
{
    unsigned char seed[64], ek[MAXEK], dk[MAXDK], ek2[MAXEK], dk2[MAXDK], bad[MAXDK];
    unsigned char seed2[64], raw[MAXDK];
    size_t rawn;
    int rc;
    rnd(seed, sizeof seed);
    rnd(seed2, sizeof seed2);
    EVP_PKEY *key = keygen_seed(alg, seed, 64), *key2 = keygen_seed(alg, seed2, 64);
    driver_provider(key, "keygen");
    get_octets(key, "pub", ek, sizeof ek);
    get_octets(key, "priv", dk, sizeof dk);
    get_octets(key2, "pub", ek2, sizeof ek2);
    get_octets(key2, "priv", dk2, sizeof dk2);
    const int KP = OSSL_KEYMGMT_SELECT_KEYPAIR, PUB = OSSL_KEYMGMT_SELECT_PUBLIC_KEY;

    /* sizes and absent parts */
    import_point("key.none", KP, NULL, 0, NULL, 0, NULL, 0);
    import_point("key.seed.63", KP, seed, 63, NULL, 0, NULL, 0);
    import_point("key.seed.65", KP, seed, 65, NULL, 0, NULL, 0);
    import_point("key.seed.0", KP, seed, 0, NULL, 0, NULL, 0);
    import_point("key.priv.short", KP, NULL, 0, dk, dkb - 1, NULL, 0);
    import_point("key.priv.long", KP, NULL, 0, dk, dkb + 1, NULL, 0);
    import_point("key.pub.short", KP, NULL, 0, NULL, 0, ek, ekb - 1);
    import_point("key.pub.long", KP, NULL, 0, NULL, 0, ek, ekb + 1);
    import_point("key.pub.short.pubsel", PUB, NULL, 0, NULL, 0, ek, ekb - 1);
    /* good combinations */
    import_point("key.seed", KP, seed, 64, NULL, 0, NULL, 0);
    import_point("key.seed.pubsel", PUB, seed, 64, NULL, 0, NULL, 0);
    import_point("key.seed+priv", KP, seed, 64, dk, dkb, NULL, 0);
    import_point("key.seed+priv+pub", KP, seed, 64, dk, dkb, ek, ekb);
    import_point("key.priv", KP, NULL, 0, dk, dkb, NULL, 0);
    import_point("key.priv+pub", KP, NULL, 0, dk, dkb, ek, ekb);
    import_point("key.pub", KP, NULL, 0, NULL, 0, ek, ekb);
    import_point("key.priv.pubsel", PUB, NULL, 0, dk, dkb, NULL, 0);
    /* mismatches */
    import_point("key.priv+otherpub", KP, NULL, 0, dk, dkb, ek2, ekb);
    import_point("key.seed+otherpriv", KP, seed, 64, dk2, dkb, NULL, 0);
    import_point("key.seed+otherpub", KP, seed, 64, NULL, 0, ek2, ekb);
    memcpy(bad, dk2, dkb);
    memcpy(bad + dkb - 32, seed + 32, 32); /* same z, other key */
    import_point("key.seed+otherpriv.samez", KP, seed, 64, bad, dkb, NULL, 0);
    /* FIPS 203 7.2: a coefficient of t at or above q */
    static const unsigned vals[] = {3329, 4095};
    static const size_t at[] = {0, 1, 255, 256};
    char name[64];
    for (size_t v = 0; v < 2; v++)
        for (size_t a = 0; a < 4; a++) {
            size_t i = at[a] == 256 ? (size_t)k * 256 - 1 : at[a];
            memcpy(bad, ek, ekb);
            set_coeff(bad, i, vals[v]);
            snprintf(name, sizeof name, "key.ek.coeff%zu=%u", i, vals[v]);
            import_point(name, KP, NULL, 0, NULL, 0, bad, ekb);
            snprintf(name, sizeof name, "key.ek.coeff%zu=%u.raw", i, vals[v]);
            EVP_PKEY *r = EVP_PKEY_new_raw_public_key_ex(NULL, alg, NULL, bad, ekb);
            point(name, r != NULL);
            EVP_PKEY_free(r);
            r = peer_key(alg, bad, ekb, &rc);
            snprintf(name, sizeof name, "key.ek.coeff%zu=%u.encoded", i, vals[v]);
            point(name, rc);
            EVP_PKEY_free(r);
        }
    set_coeff(memcpy(bad, ek, ekb), 0, 3328);
    import_point("key.ek.coeff0=3328", KP, NULL, 0, NULL, 0, bad, ekb);
    /* FIPS 203 7.3: H(ek) inside dk */
    memcpy(bad, dk, dkb);
    bad[dkb - 64] ^= 1;
    import_point("key.dk.hash", KP, NULL, 0, bad, dkb, NULL, 0);
    EVP_PKEY *r = EVP_PKEY_new_raw_private_key_ex(NULL, alg, NULL, bad, dkb);
    point("key.dk.hash.raw", r != NULL);
    EVP_PKEY_free(r);
    /* s with a coefficient >= q */
    set_coeff(memcpy(bad, dk, dkb), 5, 3329);
    import_point("key.dk.s.coeff", KP, NULL, 0, bad, dkb, NULL, 0);
    /* the embedded ek with a coefficient >= q, hash recomputed */
    memcpy(bad, dk, dkb);
    set_coeff(bad + 384 * k, 7, 4000);
    rehash(bad);
    import_point("key.dk.ek.coeff", KP, NULL, 0, bad, dkb, NULL, 0);
    /* the embedded ek of another key, hash recomputed: s no longer fits */
    memcpy(bad, dk, dkb);
    memcpy(bad + 384 * k, ek2, ekb);
    rehash(bad);
    import_point("key.dk.otherek", KP, NULL, 0, bad, dkb, NULL, 0);
    /* s changed within range: the pairwise test's business */
    memcpy(bad, dk, dkb);
    set_coeff(bad, 9, 17);
    import_point("key.dk.s.changed", KP, NULL, 0, bad, dkb, NULL, 0);
    /* z changed: a valid key with another rejection secret */
    memcpy(bad, dk, dkb);
    bad[dkb - 1] ^= 0x80;
    import_point("key.dk.z.changed", KP, NULL, 0, bad, dkb, NULL, 0);

    /* raw accessors */
    rawn = sizeof raw;
    rc = EVP_PKEY_get_raw_private_key(key, raw, &rawn);
    snprintf(name, sizeof name, "key.raw.priv.%zu", rawn);
    point_out(name, rc, raw, rawn < dkb ? rawn : dkb);
    rawn = sizeof raw;
    rc = EVP_PKEY_get_raw_public_key(key, raw, &rawn);
    snprintf(name, sizeof name, "key.raw.pub.%zu", rawn);
    point_out(name, rc, raw, rawn < ekb ? rawn : ekb);
    rawn = 10;
    point("key.raw.pub.small", EVP_PKEY_get_raw_public_key(key, raw, &rawn));
    unsigned char *enc = NULL;
    size_t encn = EVP_PKEY_get1_encoded_public_key(key, &enc);
    point_out("key.encoded", encn == ekb, enc, encn);
    OPENSSL_free(enc);
    rawn = 0;
    point("key.get.seed.small", EVP_PKEY_get_octet_string_param(key, "seed", raw, 10, &rawn));
    int iv = 0;
    point("key.get.pub.asint", EVP_PKEY_get_int_param(key, "pub", &iv));
    static const char *const ints[] = {"bits", "security-bits", "max-size", "security-category",
                                       "ri-type"};
    for (int i = 0; i < 5; i++) {
        iv = -1;
        rc = EVP_PKEY_get_int_param(key, ints[i], &iv);
        snprintf(name, sizeof name, "key.get.%s=%d", ints[i], rc ? iv : -1);
        point(name, rc);
    }
    rawn = 0;
    rc = EVP_PKEY_get_octet_string_param(key, "kemri-kdf-alg", raw, sizeof raw, &rawn);
    point_out("key.get.kemri-kdf-alg", rc, rc ? raw : NULL, rawn);
    /* the parameter lists */
    for (int t = 0; t < 2; t++) {
        const OSSL_PARAM *p = t ? EVP_PKEY_settable_params(key) : EVP_PKEY_gettable_params(key);
        printf("%s key.%s", alg, t ? "settable" : "gettable");
        for (; p && p->key; p++)
            printf(" %s/%u", p->key, p->data_type);
        printf("\n");
    }
    EVP_PKEY_CTX *gc = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (gc && EVP_PKEY_keygen_init(gc) == 1) {
        const OSSL_PARAM *p = EVP_PKEY_CTX_settable_params(gc);
        printf("%s key.gen.settable", alg);
        for (; p && p->key; p++)
            printf(" %s/%u", p->key, p->data_type);
        printf("\n");
    }
    EVP_PKEY_CTX_free(gc);
    /* generation seeds of other lengths and types */
    static const size_t seedlens[] = {0, 32, 63, 65, 128};
    for (int i = 0; i < 5; i++) {
        EVP_PKEY *g = keygen_seed(alg, seed, seedlens[i]);
        snprintf(name, sizeof name, "key.gen.seed%zu", seedlens[i]);
        point(name, g != NULL);
        EVP_PKEY_free(g);
    }
    {
        EVP_PKEY *g = NULL;
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
        OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("seed", "0123456789abcdef0123456789abcdef"
                                                         "0123456789abcdef0123456789abcdef", 64),
                          OSSL_PARAM_END};
        rc = c && EVP_PKEY_keygen_init(c) == 1 && EVP_PKEY_CTX_set_params(c, p) == 1 &&
             EVP_PKEY_keygen(c, &g) == 1;
        point("key.gen.seed.utf8", rc);
        EVP_PKEY_free(g);
        EVP_PKEY_CTX_free(c);
    }
    /* checks, dup, match */
    EVP_PKEY *pub = fromdata(PUB, NULL, 0, NULL, 0, ek, ekb);
    EVP_PKEY *priv = fromdata(OSSL_KEYMGMT_SELECT_KEYPAIR, NULL, 0, dk, dkb, NULL, 0);
    check_points("gen", key);
    check_points("pub", pub);
    check_points("priv", priv);
    EVP_PKEY *d = EVP_PKEY_dup(key);
    rawn = sizeof raw;
    point_out("key.dup", d && EVP_PKEY_get_raw_private_key(d, raw, &rawn), raw, dkb);
    rawn = sizeof raw;
    point_out("key.dup.seed", get_octets(d, "seed", raw, sizeof raw) == 64, raw, 64);
    EVP_PKEY_free(d);
    d = EVP_PKEY_dup(pub);
    rawn = sizeof raw;
    point_out("key.dup.pub", d && EVP_PKEY_get_raw_public_key(d, raw, &rawn), raw, ekb);
    EVP_PKEY_free(d);
    point("key.eq.self", EVP_PKEY_eq(key, priv));
    point("key.eq.pub", EVP_PKEY_eq(key, pub));
    point("key.eq.other", EVP_PKEY_eq(key, key2));
    /* export of a key without material (TLS's paramgen key) */
    EVP_PKEY *empty = NULL;
    {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
        rc = c && EVP_PKEY_paramgen_init(c) == 1 && EVP_PKEY_paramgen(c, &empty) == 1;
        point("key.paramgen", rc);
        EVP_PKEY_CTX_free(c);
    }
    OSSL_PARAM *out = NULL;
    point("key.empty.todata", empty && EVP_PKEY_todata(empty, EVP_PKEY_KEYPAIR, &out));
    OSSL_PARAM_free(out);
    out = NULL;
    point("key.pub.todata.priv", EVP_PKEY_todata(pub, EVP_PKEY_KEYPAIR, &out));
    OSSL_PARAM_free(out);
    point("key.empty.encoded.short", EVP_PKEY_set1_encoded_public_key(empty, ek, ekb - 1));
    point("key.empty.encoded", EVP_PKEY_set1_encoded_public_key(empty, ek, ekb));
    point("key.empty.encoded.again", EVP_PKEY_set1_encoded_public_key(empty, ek, ekb));
    point("key.pub.encoded.mutate", EVP_PKEY_set1_encoded_public_key(pub, ek2, ekb));
    EVP_PKEY_free(empty);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
    EVP_PKEY_free(key);
    EVP_PKEY_free(key2);
}

/* Ciphertexts of every wrong length, buffers too small or absent, ikme of
 * other lengths and types, operations on keys lacking a part. */
static void group_kem(void)
{
    unsigned char seed[64], ek[MAXEK], m[40], ct[MAXCT + 8], ss[64], ss2[64];
    char name[64];
    rnd(seed, sizeof seed);
    rnd(m, sizeof m);
    EVP_PKEY *key = keygen_seed(alg, seed, 64);
    get_octets(key, "pub", ek, sizeof ek);
    EVP_PKEY *pub = fromdata(OSSL_KEYMGMT_SELECT_PUBLIC_KEY, NULL, 0, NULL, 0, ek, ekb);
    size_t cn = sizeof ct, sn = sizeof ss;
    int rc = encaps(key, m, 32, ct, &cn, ss, &sn);
    point_out("kem.encaps", rc, ct, cn);
    driver_provider(key, "encaps");
    /* lengths */
    static const long dl[] = {-1, 1, -(long)MAXCT, 8};
    for (int i = 0; i < 4; i++) {
        size_t len = dl[i] == -(long)MAXCT ? 0 : (size_t)((long)ctb + dl[i]);
        sn = sizeof ss2;
        rc = decaps(key, ss2, &sn, ct, len);
        snprintf(name, sizeof name, "kem.decaps.ctlen%zu", len);
        point(name, rc);
    }
    /* all-zero and all-ones ciphertexts: rejection secrets */
    unsigned char fill[MAXCT];
    memset(fill, 0, ctb);
    sn = sizeof ss2;
    rc = decaps(key, ss2, &sn, fill, ctb);
    point_out("kem.decaps.zeros", rc, ss2, sn);
    memset(fill, 0xff, ctb);
    sn = sizeof ss2;
    rc = decaps(key, ss2, &sn, fill, ctb);
    point_out("kem.decaps.ones", rc, ss2, sn);
    /* output sizes and small buffers */
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    OSSL_PARAM ikme[] = {OSSL_PARAM_octet_string("ikme", m, 32), OSSL_PARAM_END};
    size_t qc = 0, qs = 0;
    rc = EVP_PKEY_encapsulate_init(c, NULL) == 1 && EVP_PKEY_encapsulate(c, NULL, &qc, NULL, &qs) == 1;
    snprintf(name, sizeof name, "kem.encaps.query.%zu.%zu", qc, qs);
    point(name, rc);
    qc = 0;
    rc = EVP_PKEY_encapsulate(c, NULL, &qc, NULL, NULL);
    snprintf(name, sizeof name, "kem.encaps.query.ctonly.%zu", qc);
    point(name, rc);
    cn = ctb - 1;
    sn = 32;
    point("kem.encaps.ct.small", EVP_PKEY_CTX_set_params(c, ikme) == 1 &&
                                     EVP_PKEY_encapsulate(c, ct, &cn, ss, &sn) == 1);
    cn = ctb;
    sn = 31;
    point("kem.encaps.ss.small", EVP_PKEY_encapsulate(c, ct, &cn, ss, &sn));
    cn = ctb;
    point("kem.encaps.ss.null", EVP_PKEY_encapsulate(c, ct, &cn, NULL, &sn));
    cn = ctb + 5;
    sn = 40;
    rc = EVP_PKEY_CTX_set_params(c, ikme) == 1 && EVP_PKEY_encapsulate(c, ct, &cn, ss, &sn) == 1;
    snprintf(name, sizeof name, "kem.encaps.big.%zu.%zu", cn, sn);
    point_out(name, rc, ct, cn);
    /* ikme used once: the next call is random (so differs) */
    unsigned char ct2[MAXCT];
    size_t cn2 = sizeof ct2;
    sn = 32;
    rc = EVP_PKEY_encapsulate(c, ct2, &cn2, ss2, &sn);
    point("kem.encaps.ikme.once", rc && memcmp(ct, ct2, ctb) != 0);
    static const size_t il[] = {0, 31, 33, 40};
    for (int i = 0; i < 4; i++) {
        OSSL_PARAM p[] = {OSSL_PARAM_octet_string("ikme", m, il[i]), OSSL_PARAM_END};
        snprintf(name, sizeof name, "kem.ikme.%zu", il[i]);
        point(name, EVP_PKEY_CTX_set_params(c, p));
    }
    {
        OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("ikme", "0123456789abcdef0123456789abcdef", 32),
                          OSSL_PARAM_END};
        point("kem.ikme.utf8", EVP_PKEY_CTX_set_params(c, p));
    }
    EVP_PKEY_CTX_free(c);
    c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    rc = EVP_PKEY_decapsulate_init(c, NULL) == 1;
    qs = 0;
    rc = rc && EVP_PKEY_decapsulate(c, NULL, &qs, ct, ctb) == 1;
    snprintf(name, sizeof name, "kem.decaps.query.%zu", qs);
    point(name, rc);
    sn = 31;
    point("kem.decaps.ss.small", EVP_PKEY_decapsulate(c, ss2, &sn, ct, ctb));
    sn = 64;
    rc = EVP_PKEY_decapsulate(c, ss2, &sn, ct, ctb);
    snprintf(name, sizeof name, "kem.decaps.ss.big.%zu", sn);
    point_out(name, rc, ss2, 32);
    point("kem.decaps.ikme", EVP_PKEY_CTX_set_params(c, ikme));
    EVP_PKEY_CTX_free(c);
    /* keys lacking a part */
    c = EVP_PKEY_CTX_new_from_pkey(NULL, pub, NULL);
    point("kem.pub.decaps_init", EVP_PKEY_decapsulate_init(c, NULL));
    EVP_PKEY_CTX_free(c);
    EVP_PKEY *empty = NULL;
    c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (c && EVP_PKEY_paramgen_init(c) == 1)
        EVP_PKEY_paramgen(c, &empty);
    EVP_PKEY_CTX_free(c);
    c = empty ? EVP_PKEY_CTX_new_from_pkey(NULL, empty, NULL) : NULL;
    point("kem.empty.encaps_init", c && EVP_PKEY_encapsulate_init(c, NULL));
    point("kem.empty.decaps_init", c && EVP_PKEY_decapsulate_init(c, NULL));
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(empty);
    /* another parameter set's ciphertext length */
    sn = sizeof ss2;
    point("kem.decaps.other", decaps(key, ss2, &sn, ct, ctb == 1088 ? 768 : 1088));
    EVP_PKEY_free(pub);
    EVP_PKEY_free(key);
}

/* A hybrid's encoding into dst: the ML-KEM part m then the classical x when
 * mlkem_first, else x then m; returns the length. */
static size_t hybrid_cat(unsigned char *dst, int mlkem_first, const unsigned char *m, size_t mn,
                         const unsigned char *x, size_t xn)
{
    memcpy(dst + (mlkem_first ? 0 : xn), m, mn);
    memcpy(dst + (mlkem_first ? mn : 0), x, xn);
    return mn + xn;
}

/* The hybrid groups whose ML-KEM half is this parameter set: generation and
 * a round trip (random, so only outcomes), a peer share with a bad ML-KEM
 * half, and decapsulation with a key imported from fixed bytes (the same
 * secret with and without the shim). */
static void group_mlx(void)
{
    static const struct {
        const char *name, *xalg;
        int ps, mlkem_first;
        size_t xpub, xpriv;
    } groups[] = {
        {"X25519MLKEM768", "X25519", 768, 1, 32, 32},
        {"SecP256r1MLKEM768", "EC", 768, 0, 65, 32},
        {"SecP384r1MLKEM1024", "EC", 1024, 0, 97, 48},
        {"X448MLKEM1024", "X448", 1024, 1, 56, 56},
    };
    char name[96];
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        if (groups[g].ps != ps)
            continue;
        const char *gn = groups[g].name;
        unsigned char pub[MAXEK + 100], ct[MAXCT + 100], ss[128], ss2[128];
        EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, gn);
        snprintf(name, sizeof name, "mlx.%s.keygen", gn);
        point(name, key != NULL);
        unsigned char *enc = NULL;
        size_t encn = key ? EVP_PKEY_get1_encoded_public_key(key, &enc) : 0;
        snprintf(name, sizeof name, "mlx.%s.encoded.%zu", gn, encn);
        point(name, encn == ekb + groups[g].xpub);
        int rc;
        EVP_PKEY *peer = peer_key(gn, enc, encn, &rc);
        snprintf(name, sizeof name, "mlx.%s.peer", gn);
        point(name, rc);
        size_t cn = sizeof ct, sn = sizeof ss, sn2 = sizeof ss2;
        rc = encaps(peer, NULL, 0, ct, &cn, ss, &sn);
        snprintf(name, sizeof name, "mlx.%s.encaps.%zu.%zu", gn, cn, sn);
        point(name, rc);
        rc = decaps(key, ss2, &sn2, ct, cn);
        snprintf(name, sizeof name, "mlx.%s.decaps", gn);
        point(name, rc && sn2 == sn && memcmp(ss, ss2, sn) == 0);
        /* a flipped bit in the ML-KEM ciphertext: the secret differs */
        size_t mct = groups[g].mlkem_first ? 10 : groups[g].xpub + 10;
        ct[mct] ^= 4;
        sn2 = sizeof ss2;
        rc = decaps(key, ss2, &sn2, ct, cn);
        snprintf(name, sizeof name, "mlx.%s.decaps.reject", gn);
        point(name, rc && memcmp(ss, ss2, sn) != 0);
        /* the peer's ML-KEM half with a coefficient >= q */
        if (enc) {
            memcpy(pub, enc, encn);
            set_coeff(pub + (groups[g].mlkem_first ? 0 : groups[g].xpub), 3, 3500);
            EVP_PKEY *bad = peer_key(gn, pub, encn, &rc);
            snprintf(name, sizeof name, "mlx.%s.peer.badcoeff", gn);
            point(name, rc);
            EVP_PKEY_free(bad);
        }
        /* decapsulation with fixed key bytes */
        unsigned char seed[64], dk[MAXDK], priv[MAXDK + 100];
        rnd(seed, 64);
        EVP_PKEY *mk = keygen_seed(alg, seed, 64);
        size_t dn = get_octets(mk, "priv", dk, sizeof dk);
        /* the classical half from fixed bytes too (X25519/X448: raw keys;
         * EC: a generated key, whose import stock refuses anyway) */
        unsigned char xpriv[64], xpub[128];
        size_t xn = 0, xpn = 0;
        EVP_PKEY *xk;
        if (groups[g].xalg[0] == 'X') {
            rnd(xpriv, groups[g].xpriv);
            xk = EVP_PKEY_new_raw_private_key_ex(NULL, groups[g].xalg, NULL, xpriv,
                                                 groups[g].xpriv);
            xn = groups[g].xpriv;
            xpn = sizeof xpub;
            if (!xk || EVP_PKEY_get_raw_public_key(xk, xpub, &xpn) != 1)
                xpn = 0;
        } else {
            xk = EVP_PKEY_Q_keygen(NULL, NULL, "EC", ps == 768 ? "P-256" : "P-384");
            BIGNUM *b = NULL;
            EVP_PKEY_get_bn_param(xk, "priv", &b);
            xn = b ? (size_t)BN_bn2binpad(b, xpriv, (int)groups[g].xpriv) : 0;
            BN_free(b);
            xpn = xk ? EVP_PKEY_get_octet_string_param(xk, "encoded-pub-key", xpub, sizeof xpub,
                                                       &xpn) == 1 ? xpn : 0 : 0;
        }
        size_t pn = hybrid_cat(priv, groups[g].mlkem_first, dk, dn, xpriv, xn);
        EVP_PKEY *hk = NULL;
        {
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, gn, NULL);
            OSSL_PARAM p[] = {OSSL_PARAM_octet_string("priv", priv, pn), OSSL_PARAM_END};
            rc = c && EVP_PKEY_fromdata_init(c) == 1 &&
                 EVP_PKEY_fromdata(c, &hk, EVP_PKEY_KEYPAIR, p) == 1;
            EVP_PKEY_CTX_free(c);
        }
        snprintf(name, sizeof name, "mlx.%s.import", gn);
        point(name, rc);
        /* a ciphertext: our ML-KEM ct from ikme, then the classical share of
         * the generated key above (a valid point) */
        unsigned char m[32], mct2[MAXCT], mss[32];
        size_t mcn = sizeof mct2, msn = sizeof mss;
        rnd(m, 32);
        encaps(mk, m, 32, mct2, &mcn, mss, &msn);
        hybrid_cat(ct, groups[g].mlkem_first, mct2, mcn, xpub, xpn);
        sn2 = sizeof ss2;
        rc = hk && decaps(hk, ss2, &sn2, ct, mcn + xpn);
        snprintf(name, sizeof name, "mlx.%s.decaps.fixed", gn);
        point_out(name, rc, rc ? ss2 : NULL, sn2);
        if (hk) {
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, hk, NULL);
            point("mlx.fixed.pairwise", c && EVP_PKEY_pairwise_check(c));
            EVP_PKEY_CTX_free(c);
        }
        if (g == 0 || groups[g].ps == 1024)
            driver_provider(mk, gn);
        EVP_PKEY_free(hk);
        EVP_PKEY_free(xk);
        EVP_PKEY_free(mk);
        OPENSSL_free(enc);
        EVP_PKEY_free(peer);
        EVP_PKEY_free(key);
    }
}

int main(int argc, char **argv)
{
    if (!driver_args(argc, argv, 3, "ML-KEM-512|768|1024 kat|key|kem|mlx [SEED]"))
        return 2;
    alg = argv[1];
    ps = atoi(alg + 7);
    k = ps / 256;
    ekb = 384 * (size_t)k + 32;
    dkb = 768 * (size_t)k + 96;
    ctb = ps == 1024 ? 1568 : ps == 768 ? 1088 : 768;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) | 1 : 0x9e3779b97f4a7c15ULL;
    rnd((unsigned char[8]){0}, 8);
    if (!strcmp(argv[2], "kat"))
        group_kat(argc > 4 ? atoi(argv[4]) : 8);
    else if (!strcmp(argv[2], "key"))
        group_key();
    else if (!strcmp(argv[2], "kem"))
        group_kem();
    else if (!strcmp(argv[2], "mlx"))
        group_mlx();
    else
        return 2;
    return 0;
}
