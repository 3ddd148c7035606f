/* Walks ML-DSA failure points and parameter edge cases through OpenSSL
 * 3.5's EVP API and prints one line per point:
 *     ALG NAME rc=R err=LIB:REASON|none [out=HASH]
 * R is 1 when the call succeeded; err is the first error left on the queue;
 * out is a short hash of a deterministic output (key, signature), so runs
 * with and without the shim can be compared line by line
 * (tests/bats/mldsa_stock.bats). Names start with the group they belong to:
 *   key.*    raw import of corrupted expanded keys, checks (issue 14 item 1)
 *   param.*  parameter edge cases (message-encoding, deterministic, seeds)
 *   err.*    other failure points (bad sizes, types, selections, signatures)
 * A line "# provider NAME" says who serves the algorithm.
 * Usage: mldsa_stock_driver ALG. Built against the system's 3.0 headers; the
 * 3.4+ message-signing calls are looked up at run time. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "pq_driver.h"

#define MAXSIG 4627
#define MAXPK 2592
#define MAXSK 4896

static const char *alg;
static unsigned k, l, eta, etab, omega;
static size_t pkb, skb, sigb;
static unsigned char PK[MAXPK], SK[MAXSK], PK2[MAXPK], SK2[MAXSK];
static unsigned char SEED[32], SEED2[32];
static EVP_PKEY *good, *other, *pubonly;
static const unsigned char msg[] = "failure points must fail alike";

typedef int (*msg_init_fn)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
typedef int (*msg_update_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);
typedef int (*sign_final_fn)(EVP_PKEY_CTX *, unsigned char *, size_t *);
typedef int (*verify_final_fn)(EVP_PKEY_CTX *);
typedef int (*set_sig_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);
static msg_init_fn sign_msg_init, verify_msg_init;
static msg_update_fn sign_msg_update, verify_msg_update;
static sign_final_fn sign_msg_final;
static verify_final_fn verify_msg_final;
static set_sig_fn set_signature;

/* Prints one point's line (any rc but 0 succeeded) and clears the error queue. */
static void point_out(const char *name, int rc, const unsigned char *out, size_t outlen)
{
    pq_point(alg, name, rc != 0, out, outlen);
}

static void point(const char *name, int rc)
{
    point_out(name, rc, NULL, 0);
}

/* ---- bit fields of the FIPS 204 encodings ---------------------------- */

static uint32_t get_bits(const unsigned char *b, size_t pos, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++, pos++)
        v |= (uint32_t)((b[pos / 8] >> (pos % 8)) & 1) << i;
    return v;
}

static void set_bits(unsigned char *b, size_t pos, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++, pos++) {
        b[pos / 8] &= (unsigned char)~(1u << (pos % 8));
        b[pos / 8] |= (unsigned char)(((v >> i) & 1) << (pos % 8));
    }
}

/* tr = SHAKE256(pk, 64) into sk. */
static void set_tr(unsigned char *sk, const unsigned char *pk)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    EVP_DigestInit_ex(c, EVP_shake256(), NULL);
    EVP_DigestUpdate(c, pk, pkb);
    EVP_DigestFinalXOF(c, sk + 64, 64);
    EVP_MD_CTX_free(c);
}

/* A key whose last s2 coefficient is outside [-eta, eta] but whose t1, t0
 * and tr are consistent with it: s2 enters t = A*s1 + s2 without an NTT,
 * so t moves by the same amount; only a range check can refuse it. */
static void s2_out_of_range(unsigned char *sk, unsigned char *pk)
{
    unsigned bits = eta == 2 ? 3 : 4;
    size_t s2pos = (128 + (size_t)(l + k - 1) * etab) * 8 + 255 * bits;
    size_t t0pos = (128 + (size_t)(l + k) * etab + (size_t)(k - 1) * 416) * 8 + 255 * 13;
    size_t t1pos = (32 + (size_t)(k - 1) * 320) * 8 + 255 * 10;
    int32_t old = (int32_t)eta - (int32_t)get_bits(sk, s2pos, bits);
    uint32_t field = (1u << bits) - 1;
    int32_t now = (int32_t)eta - (int32_t)field;
    int32_t t = (int32_t)get_bits(pk, t1pos, 10) * 8192 + (4096 - (int32_t)get_bits(sk, t0pos, 13));
    t = ((t + now - old) % 8380417 + 8380417) % 8380417;
    int32_t t1 = (t + 4095) >> 13, t0 = t - t1 * 8192;
    set_bits(sk, s2pos, bits, field);
    set_bits(sk, t0pos, 13, (uint32_t)(4096 - t0));
    set_bits(pk, t1pos, 10, (uint32_t)t1);
    set_tr(sk, pk);
}

/* ---- keys --------------------------------------------------------------- */

/* EVP_PKEY_fromdata of params with selection; *rc = success. */
static EVP_PKEY *import(int selection, const OSSL_PARAM *params, int *rc)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    EVP_PKEY *key = NULL;
    *rc = c && EVP_PKEY_fromdata_init(c) == 1 &&
          EVP_PKEY_fromdata(c, &key, selection, (OSSL_PARAM *)params) == 1;
    EVP_PKEY_CTX_free(c);
    return key;
}

/* Imports one octet-string parameter (len bytes of data) and reports. */
static void import1(const char *name, int selection, const char *key, const void *data,
                    size_t len)
{
    int rc;
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string(key, (void *)data, len), OSSL_PARAM_END};
    EVP_PKEY *pk = import(selection, p, &rc);
    point(name, rc);
    EVP_PKEY_free(pk);
}

/* Imports priv (and pub when given) from fromdata and from the raw API. */
static void import_sk(const char *name, const unsigned char *sk, const unsigned char *pk)
{
    char n[96];
    int rc;
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string("priv", (void *)sk, skb),
                      OSSL_PARAM_octet_string("pub", (void *)pk, pkb), OSSL_PARAM_END};
    if (!pk)
        p[1] = (OSSL_PARAM)OSSL_PARAM_END;
    EVP_PKEY *key = import(EVP_PKEY_KEYPAIR, p, &rc);
    snprintf(n, sizeof n, "%s.fromdata", name);
    point(n, rc);
    EVP_PKEY_free(key);
    if (pk)
        return;
    key = EVP_PKEY_new_raw_private_key_ex(NULL, alg, NULL, sk, skb);
    snprintf(n, sizeof n, "%s.raw", name);
    point(n, key != NULL);
    EVP_PKEY_free(key);
}

/* A key generated from a 32-byte seed. */
static EVP_PKEY *keygen(const unsigned char *seed)
{
    EVP_PKEY *key = NULL;
    OSSL_PARAM gp[] = {OSSL_PARAM_octet_string("seed", (void *)seed, 32), OSSL_PARAM_END};
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (!g || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_CTX_set_params(g, gp) != 1 ||
        EVP_PKEY_keygen(g, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(g);
    return key;
}

/* ---- signatures ------------------------------------------------------- */

/* One-shot DigestSign of msg with params at init; sigsize is the buffer
 * size offered. Returns the signature length, 0 on failure. */
static size_t dsign(EVP_PKEY *key, const char *md, const OSSL_PARAM *params,
                    unsigned char *sig, size_t sigsize, const unsigned char *m, size_t mlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    size_t len = sigsize;
    if (!c || EVP_DigestSignInit_ex(c, NULL, md, NULL, NULL, key, params) != 1 ||
        EVP_DigestSign(c, sig, &len, m, mlen) != 1)
        len = 0;
    EVP_MD_CTX_free(c);
    return len;
}

static int dverify(EVP_PKEY *key, const OSSL_PARAM *params, const unsigned char *sig,
                   size_t siglen, const unsigned char *m, size_t mlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int r = c && EVP_DigestVerifyInit_ex(c, NULL, NULL, NULL, NULL, key, params) == 1 &&
            EVP_DigestVerify(c, sig, siglen, m, mlen) == 1;
    EVP_MD_CTX_free(c);
    return r;
}

/* Reports a deterministic-or-not signing point: sign twice with params; out
 * is the signature's hash when the two are equal (deterministic). */
static void sign_point(const char *name, const OSSL_PARAM *params)
{
    unsigned char s1[MAXSIG], s2[MAXSIG];
    size_t n1 = dsign(good, NULL, params, s1, sizeof s1, msg, sizeof msg - 1);
    unsigned long e = ERR_peek_error();
    size_t n2 = n1 ? dsign(good, NULL, params, s2, sizeof s2, msg, sizeof msg - 1) : 0;
    int det = n1 && n1 == n2 && !memcmp(s1, s2, n1);
    if (!e)
        ERR_clear_error();
    char n[96];
    snprintf(n, sizeof n, "%s%s", name, n1 && !det ? ".hedged" : "");
    point_out(n, n1 != 0, det ? s1 : NULL, n1);
    if (n1) {
        snprintf(n, sizeof n, "%s.verify", name);
        point(n, dverify(good, params, s1, n1, msg, sizeof msg - 1));
    }
}

/* Message-API one-shot sign (EVP_PKEY_sign after sign_message_init: 3.5's
 * own ML-DSA has no update/final) of m with signature algorithm salg. */
static int msign(EVP_PKEY *key, const char *salg, const OSSL_PARAM *params, const unsigned char *m,
                 size_t mlen, unsigned char *sig, size_t *siglen)
{
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, salg, NULL);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int r = s && c && sign_msg_init(c, s, params) == 1 &&
            EVP_PKEY_sign(c, sig, siglen, m, mlen) == 1;
    EVP_PKEY_CTX_free(c);
    EVP_SIGNATURE_free(s);
    return r;
}

/* Corrupts a signature in its hint section: hint indices out of order in
 * row 0 (two ones, the second index smaller), or a count over omega. */
static void bad_hints(unsigned char *sig, int kind)
{
    unsigned char *h = sig + sigb - (omega + k);
    memset(h, 0, omega + k);
    if (kind == 0) {
        h[0] = 9, h[1] = 3;
        for (unsigned i = 0; i < k; i++)
            h[omega + i] = 2;
    } else {
        for (unsigned i = 0; i < k; i++)
            h[omega + i] = (unsigned char)(omega + 1);
    }
}

/* ---- the groups --------------------------------------------------------- */

static void key_points(void)
{
    unsigned char sk[MAXSK], pk[MAXPK];
    import_sk("key.priv-good", SK, NULL);
    import_sk("key.priv-pub-good", SK, PK);
    import_sk("key.priv-pub-mismatch", SK, PK2);

    memcpy(sk, SK, skb);
    sk[skb - 1] ^= 0x01; /* last t0 byte */
    import_sk("key.t0-flipped", sk, NULL);
    memcpy(sk, SK, skb);
    sk[128 + (k + l) * etab] ^= 0x10; /* first t0 byte */
    import_sk("key.t0-flipped-first", sk, NULL);

    memcpy(sk, SK, skb), memcpy(pk, PK, pkb);
    s2_out_of_range(sk, pk);
    import_sk("key.s2-range-consistent", sk, NULL);
    import_sk("key.s2-range-consistent-pub", sk, pk);

    memcpy(sk, SK, skb);
    sk[128] |= (unsigned char)(eta == 2 ? 0x07 : 0x0f); /* first s1 field */
    set_tr(sk, PK);
    import_sk("key.s1-range-tr", sk, NULL);

    memcpy(sk, SK, skb);
    sk[64] ^= 0x80;
    import_sk("key.tr-wrong", sk, NULL);
    memcpy(sk, SK, skb);
    sk[40] ^= 0x01; /* K: not checkable, the key imports and signs */
    import_sk("key.K-changed", sk, NULL);

    /* a good key imported from priv alone signs like the original */
    OSSL_PARAM pp[] = {OSSL_PARAM_octet_string("priv", SK, skb), OSSL_PARAM_END};
    int rc, det = 1;
    EVP_PKEY *privk = import(EVP_PKEY_KEYPAIR, pp, &rc);
    OSSL_PARAM dp[] = {OSSL_PARAM_int("deterministic", &det), OSSL_PARAM_END};
    unsigned char sig[MAXSIG];
    size_t n = privk ? dsign(privk, NULL, dp, sig, sizeof sig, msg, sizeof msg - 1) : 0;
    point_out("key.priv-import-signs", n && dverify(good, NULL, sig, n, msg, sizeof msg - 1), sig, n);

    OSSL_PARAM sp[] = {OSSL_PARAM_octet_string("seed", SEED, 32), OSSL_PARAM_END};
    EVP_PKEY *seedk = import(EVP_PKEY_KEYPAIR, sp, &rc);
    point("key.seed-import", rc);

    /* key checks on each kind of key */
    struct {
        const char *name;
        EVP_PKEY *key;
    } keys[] = {{"gen", good}, {"pub", pubonly}, {"priv", privk}, {"seed", seedk}};
    for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char nm[96];
        EVP_PKEY_CTX *c = keys[i].key ? EVP_PKEY_CTX_new_from_pkey(NULL, keys[i].key, NULL) : NULL;
        snprintf(nm, sizeof nm, "key.check-pairwise.%s", keys[i].name);
        point(nm, c && EVP_PKEY_pairwise_check(c) == 1);
        snprintf(nm, sizeof nm, "key.check-full.%s", keys[i].name);
        point(nm, c && EVP_PKEY_check(c) == 1);
        snprintf(nm, sizeof nm, "key.check-public.%s", keys[i].name);
        point(nm, c && EVP_PKEY_public_check(c) == 1);
        snprintf(nm, sizeof nm, "key.check-private.%s", keys[i].name);
        point(nm, c && EVP_PKEY_private_check(c) == 1);
        snprintf(nm, sizeof nm, "key.check-params.%s", keys[i].name);
        point(nm, c && EVP_PKEY_param_check(c) == 1);
        EVP_PKEY_CTX_free(c);
    }
    EVP_PKEY_free(privk);
    EVP_PKEY_free(seedk);
}

static void param_points(void)
{
    static const unsigned char empty[1];
    int rc;
    /* empty seed/priv/pub beside a valid other part */
    OSSL_PARAM a[] = {OSSL_PARAM_octet_string("seed", (void *)empty, 0),
                      OSSL_PARAM_octet_string("priv", SK, skb), OSSL_PARAM_END};
    EVP_PKEY *key = import(EVP_PKEY_KEYPAIR, a, &rc);
    point("param.empty-seed-with-priv", rc);
    EVP_PKEY_free(key);
    a[0] = (OSSL_PARAM)OSSL_PARAM_octet_string("seed", NULL, 0);
    key = import(EVP_PKEY_KEYPAIR, a, &rc);
    point("param.null-seed-with-priv", rc);
    EVP_PKEY_free(key);
    OSSL_PARAM b[] = {OSSL_PARAM_octet_string("seed", SEED, 32),
                      OSSL_PARAM_octet_string("priv", (void *)empty, 0),
                      OSSL_PARAM_octet_string("pub", (void *)empty, 0), OSSL_PARAM_END};
    key = import(EVP_PKEY_KEYPAIR, b, &rc);
    point("param.empty-priv-pub-with-seed", rc);
    EVP_PKEY_free(key);
    OSSL_PARAM c[] = {OSSL_PARAM_octet_string("seed", SEED, 32),
                      OSSL_PARAM_octet_string("priv", SK2, skb), OSSL_PARAM_END};
    key = import(EVP_PKEY_KEYPAIR, c, &rc);
    point("param.seed-priv-mismatch", rc);
    EVP_PKEY_free(key);
    OSSL_PARAM d[] = {OSSL_PARAM_octet_string("seed", SEED, 32),
                      OSSL_PARAM_octet_string("pub", PK2, pkb), OSSL_PARAM_END};
    key = import(EVP_PKEY_KEYPAIR, d, &rc);
    point("param.seed-pub-mismatch", rc);
    EVP_PKEY_free(key);
    OSSL_PARAM e[] = {OSSL_PARAM_octet_string("seed", SEED, 32), OSSL_PARAM_END};
    key = import(EVP_PKEY_PUBLIC_KEY, e, &rc);
    point("param.seed-public-selection", rc);
    EVP_PKEY_free(key);

    /* keygen seeds of other lengths and types */
    static const size_t lens[] = {0, 31, 33, 32};
    for (unsigned i = 0; i < 4; i++) {
        unsigned char seed[33] = {0};
        memcpy(seed, SEED, 32);
        for (int utf8 = 0; utf8 < 2; utf8++) {
            char nm[64];
            EVP_PKEY *gk = NULL;
            OSSL_PARAM gp[] = {OSSL_PARAM_octet_string("seed", seed, lens[i]), OSSL_PARAM_END};
            if (utf8)
                gp[0] = (OSSL_PARAM)OSSL_PARAM_utf8_string("seed", "abc", 3);
            if (utf8 && i)
                break;
            EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
            int init = g && EVP_PKEY_keygen_init(g) == 1;
            int set = init && EVP_PKEY_CTX_set_params(g, gp) == 1;
            snprintf(nm, sizeof nm, "param.gen-seed-%s%zu.set", utf8 ? "utf8-" : "", lens[i]);
            point(nm, set);
            int gen = init && EVP_PKEY_keygen(g, &gk) == 1;
            unsigned char pk[MAXPK];
            size_t pklen = 0;
            if (gk)
                EVP_PKEY_get_octet_string_param(gk, "pub", pk, sizeof pk, &pklen);
            snprintf(nm, sizeof nm, "param.gen-seed-%s%zu.gen", utf8 ? "utf8-" : "", lens[i]);
            /* a random key has no reproducible hash: only a seeded one */
            point_out(nm, gen, gen && set && lens[i] == 32 ? pk : NULL, pklen);
            EVP_PKEY_free(gk);
            EVP_PKEY_CTX_free(g);
        }
    }

    /* message-encoding values */
    static const int encs[] = {0, 1, 2, -1, 255};
    for (unsigned i = 0; i < 5; i++) {
        int det = 1, enc = encs[i];
        char nm[64];
        OSSL_PARAM p[] = {OSSL_PARAM_int("deterministic", &det),
                          OSSL_PARAM_int("message-encoding", &enc), OSSL_PARAM_END};
        snprintf(nm, sizeof nm, "param.message-encoding-%d", enc);
        sign_point(nm, p);
    }
    /* deterministic in other types and values */
    {
        int i1 = 1, i2 = 2, i0 = 0, im = -1;
        unsigned u1 = 1;
        int64_t l1 = 1;
        uint64_t ul1 = 1;
        double d1 = 1.0, d0 = 0.0, dh = 0.5, d2 = 2.0, dbig = 1e12;
        uint32_t ubig = 0x80000000u;
        int64_t lbig = (int64_t)1 << 40;
        int8_t c1 = 1;
        struct {
            const char *name;
            OSSL_PARAM p;
        } dets[] = {
            {"int-1", OSSL_PARAM_int("deterministic", &i1)},
            {"int-2", OSSL_PARAM_int("deterministic", &i2)},
            {"int-0", OSSL_PARAM_int("deterministic", &i0)},
            {"int--1", OSSL_PARAM_int("deterministic", &im)},
            {"uint-1", OSSL_PARAM_uint("deterministic", &u1)},
            {"int64-1", OSSL_PARAM_int64("deterministic", &l1)},
            {"uint64-1", OSSL_PARAM_uint64("deterministic", &ul1)},
            {"int8-1", {"deterministic", OSSL_PARAM_INTEGER, &c1, 1, OSSL_PARAM_UNMODIFIED}},
            {"double-1", OSSL_PARAM_double("deterministic", &d1)},
            {"double-0", OSSL_PARAM_double("deterministic", &d0)},
            {"double-0.5", OSSL_PARAM_double("deterministic", &dh)},
            {"double-2", OSSL_PARAM_double("deterministic", &d2)},
            {"double-1e12", OSSL_PARAM_double("deterministic", &dbig)},
            {"uint32-2^31", OSSL_PARAM_uint32("deterministic", &ubig)},
            {"int64-2^40", OSSL_PARAM_int64("deterministic", &lbig)},
            {"utf8-1", OSSL_PARAM_utf8_string("deterministic", "1", 1)},
        };
        for (unsigned i = 0; i < sizeof dets / sizeof dets[0]; i++) {
            char nm[64];
            OSSL_PARAM p[] = {dets[i].p, OSSL_PARAM_END};
            snprintf(nm, sizeof nm, "param.deterministic-%s", dets[i].name);
            sign_point(nm, p);
        }
    }
    /* context-string types and sizes */
    {
        static unsigned char big[256];
        const void *ptr = "ctx";
        int det = 1;
        struct {
            const char *name;
            OSSL_PARAM p;
        } ctxs[] = {
            {"octets", OSSL_PARAM_octet_string("context-string", (void *)"ctx", 3)},
            {"octet-ptr", OSSL_PARAM_octet_ptr("context-string", (void **)&ptr, 3)},
            {"utf8", OSSL_PARAM_utf8_string("context-string", "ctx", 3)},
            {"empty", OSSL_PARAM_octet_string("context-string", big, 0)},
            {"255", OSSL_PARAM_octet_string("context-string", big, 255)},
            {"256", OSSL_PARAM_octet_string("context-string", big, 256)},
        };
        for (unsigned i = 0; i < sizeof ctxs / sizeof ctxs[0]; i++) {
            char nm[64];
            OSSL_PARAM p[] = {OSSL_PARAM_int("deterministic", &det), ctxs[i].p, OSSL_PARAM_END};
            snprintf(nm, sizeof nm, "param.context-%s", ctxs[i].name);
            sign_point(nm, p);
        }
    }
    /* test-entropy sizes, mu */
    {
        unsigned char ent[33] = {1, 2, 3};
        static const size_t lens2[] = {0, 31, 32, 33};
        for (unsigned i = 0; i < 4; i++) {
            char nm[64];
            OSSL_PARAM p[] = {OSSL_PARAM_octet_string("test-entropy", ent, lens2[i]),
                              OSSL_PARAM_END};
            snprintf(nm, sizeof nm, "param.test-entropy-%zu", lens2[i]);
            sign_point(nm, p);
        }
        int mu = 1, det = 1;
        unsigned char m64[64] = {9}, sig[MAXSIG];
        OSSL_PARAM p[] = {OSSL_PARAM_int("mu", &mu), OSSL_PARAM_int("deterministic", &det),
                          OSSL_PARAM_END};
        for (size_t ml = 63; ml <= 65; ml++) {
            char nm[64];
            size_t n = dsign(good, NULL, p, sig, sizeof sig, m64, ml < 64 ? ml : 64);
            if (ml == 65) {
                size_t siglen = sizeof sig;
                n = sign_msg_init ? msign(good, alg, p, m64, 64, sig, &siglen) : 0;
                n = n ? siglen : 0;
                snprintf(nm, sizeof nm, "param.mu-message-api");
            } else {
                snprintf(nm, sizeof nm, "param.mu-%zu", ml);
            }
            point_out(nm, n != 0, n ? sig : NULL, n);
        }
    }
}

static void err_points(void)
{
    unsigned char buf[MAXSK + 1], sig[MAXSIG + 1];
    memcpy(buf, SK, skb);
    buf[skb] = 0;
    int rc;
    EVP_PKEY *key;

    /* import sizes, types, selections */
    import1("err.import-pub-short", EVP_PKEY_KEYPAIR, "pub", PK, pkb - 1);
    import1("err.import-pub-long", EVP_PKEY_KEYPAIR, "pub", buf, pkb + 1);
    import1("err.import-pub-1", EVP_PKEY_PUBLIC_KEY, "pub", PK, 1);
    import1("err.import-priv-short", EVP_PKEY_KEYPAIR, "priv", SK, skb - 1);
    import1("err.import-priv-long", EVP_PKEY_KEYPAIR, "priv", buf, skb + 1);
    import1("err.import-seed-31", EVP_PKEY_KEYPAIR, "seed", SEED, 31);
    import1("err.import-seed-33", EVP_PKEY_KEYPAIR, "seed", buf, 33);
    import1("err.import-priv-public-selection", EVP_PKEY_PUBLIC_KEY, "priv", SK, skb);
    import1("err.import-pub-params-selection", EVP_PKEY_KEY_PARAMETERS, "pub", PK, pkb);
    import1("err.import-pub-empty", EVP_PKEY_KEYPAIR, "pub", PK, 0);
    {
        OSSL_PARAM none[] = {OSSL_PARAM_END};
        key = import(EVP_PKEY_KEYPAIR, none, &rc);
        point("err.import-nothing", rc);
        EVP_PKEY_free(key);
        OSSL_PARAM u[] = {OSSL_PARAM_utf8_string("pub", "abc", 3), OSSL_PARAM_END};
        key = import(EVP_PKEY_KEYPAIR, u, &rc);
        point("err.import-pub-utf8", rc);
        EVP_PKEY_free(key);
        int x = 1;
        OSSL_PARAM v[] = {OSSL_PARAM_int("priv", &x), OSSL_PARAM_END};
        key = import(EVP_PKEY_KEYPAIR, v, &rc);
        point("err.import-priv-int", rc);
        EVP_PKEY_free(key);
        OSSL_PARAM w[] = {OSSL_PARAM_utf8_string("seed", "abc", 3), OSSL_PARAM_END};
        key = import(EVP_PKEY_KEYPAIR, w, &rc);
        point("err.import-seed-utf8", rc);
        EVP_PKEY_free(key);
    }
    key = EVP_PKEY_new_raw_private_key_ex(NULL, alg, NULL, SK, skb - 1);
    point("err.raw-priv-short", key != NULL);
    EVP_PKEY_free(key);
    key = EVP_PKEY_new_raw_public_key_ex(NULL, alg, NULL, PK, pkb + 1 > MAXPK ? pkb - 2 : pkb + 1);
    point("err.raw-pub-badlen", key != NULL);
    EVP_PKEY_free(key);
    {
        unsigned char out[MAXSK];
        size_t len;
        point("err.get-priv-small", EVP_PKEY_get_octet_string_param(good, "priv", out, skb - 1, &len));
        point("err.get-pub-small", EVP_PKEY_get_octet_string_param(good, "pub", out, pkb - 1, &len));
        point("err.get-seed-small", EVP_PKEY_get_octet_string_param(good, "seed", out, 31, &len));
        point("err.get-priv-of-public", EVP_PKEY_get_octet_string_param(pubonly, "priv", out, skb, &len));
        point("err.get-seed-of-public", EVP_PKEY_get_octet_string_param(pubonly, "seed", out, 32, &len));
        OSSL_PARAM *td = NULL;
        point("err.todata-private-of-public", EVP_PKEY_todata(pubonly, EVP_PKEY_KEYPAIR, &td) &&
                                                 td && OSSL_PARAM_locate(td, "priv"));
        OSSL_PARAM_free(td);
        td = NULL;
        point("err.todata-params", EVP_PKEY_todata(good, EVP_PKEY_KEY_PARAMETERS, &td));
        OSSL_PARAM_free(td);
        int bits = 0;
        point("err.get-bits", EVP_PKEY_get_int_param(good, "bits", &bits) && bits > 0);
    }

    /* signing failures */
    int det = 1;
    OSSL_PARAM dp[] = {OSSL_PARAM_int("deterministic", &det), OSSL_PARAM_END};
    point("err.sign-public-key", dsign(pubonly, NULL, dp, sig, sizeof sig, msg, 5) != 0);
    point("err.sign-with-md", dsign(good, "SHA256", dp, sig, sizeof sig, msg, 5) != 0);
    point("err.sign-buffer-small", dsign(good, NULL, dp, sig, sigb - 1, msg, 5) != 0);
    {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, good, NULL);
        point("err.pkey-sign-init", c && EVP_PKEY_sign_init(c) == 1);
        EVP_PKEY_CTX_free(c);
        c = EVP_PKEY_CTX_new_from_pkey(NULL, pubonly, NULL);
        point("err.pkey-verify-init", c && EVP_PKEY_verify_init(c) == 1);
        EVP_PKEY_CTX_free(c);
    }
    if (sign_msg_init) {
        size_t siglen = sizeof sig;
        const char *otheralg = strcmp(alg, "ML-DSA-44") ? "ML-DSA-44" : "ML-DSA-65";
        point("err.msg-sign-other-alg", msign(good, otheralg, dp, msg, 5, sig, &siglen));
        siglen = sizeof sig;
        point("err.msg-sign-public-key", msign(pubonly, alg, dp, msg, 5, sig, &siglen));
        siglen = sigb - 1;
        point("err.msg-sign-small", msign(good, alg, dp, msg, 5, sig, &siglen));
        int mu = 1;
        OSSL_PARAM mp[] = {OSSL_PARAM_int("mu", &mu), OSSL_PARAM_END};
        siglen = sizeof sig;
        point("err.msg-sign-mu-short", msign(good, alg, mp, msg, 5, sig, &siglen));
        /* streaming: 3.6 on only */
        EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, alg, NULL);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, good, NULL);
        int ok = s && c && sign_msg_init(c, s, dp) == 1;
        int up = ok && sign_msg_update(c, msg, 3) == 1;
        point("err.msg-sign-update", up);
        siglen = sizeof sig;
        int fin = ok && up && sign_msg_update(c, msg + 3, sizeof msg - 4) == 1 &&
                  sign_msg_final(c, sig, &siglen) == 1;
        point_out("err.msg-sign-final", fin, fin ? sig : NULL, fin ? siglen : 0);
        EVP_PKEY_CTX_free(c);
        c = EVP_PKEY_CTX_new_from_pkey(NULL, pubonly, NULL);
        ok = fin && c && verify_msg_init(c, s, NULL) == 1 && set_signature(c, sig, siglen) == 1 &&
             verify_msg_update(c, msg, sizeof msg - 1) == 1;
        point("err.msg-verify-final", ok && verify_msg_final(c) == 1);
        EVP_PKEY_CTX_free(c);
        EVP_SIGNATURE_free(s);
    }
    /* bad parameters set on a signing context after init */
    {
        static unsigned char big[300];
        int bad_enc = 7;
        struct {
            const char *name;
            OSSL_PARAM p;
        } bads[] = {
            {"context-256", OSSL_PARAM_octet_string("context-string", big, 256)},
            {"context-utf8", OSSL_PARAM_utf8_string("context-string", "x", 1)},
            {"entropy-31", OSSL_PARAM_octet_string("test-entropy", big, 31)},
            {"entropy-33", OSSL_PARAM_octet_string("test-entropy", big, 33)},
            {"entropy-utf8", OSSL_PARAM_utf8_string("test-entropy", "x", 1)},
            {"deterministic-utf8", OSSL_PARAM_utf8_string("deterministic", "1", 1)},
            {"encoding-utf8", OSSL_PARAM_utf8_string("message-encoding", "1", 1)},
            {"mu-utf8", OSSL_PARAM_utf8_string("mu", "1", 1)},
            {"encoding-7", OSSL_PARAM_int("message-encoding", &bad_enc)},
        };
        for (unsigned i = 0; i < sizeof bads / sizeof bads[0]; i++) {
            char nm[64];
            OSSL_PARAM p[] = {bads[i].p, OSSL_PARAM_END};
            snprintf(nm, sizeof nm, "err.sign-init-param-%s", bads[i].name);
            point(nm, dsign(good, NULL, p, sig, sizeof sig, msg, 5) != 0);
            EVP_MD_CTX *c = EVP_MD_CTX_new();
            EVP_PKEY_CTX *pc = NULL;
            int ok = c && EVP_DigestSignInit_ex(c, &pc, NULL, NULL, NULL, good, NULL) == 1;
            ERR_clear_error();
            snprintf(nm, sizeof nm, "err.sign-set-param-%s", bads[i].name);
            point(nm, ok && EVP_PKEY_CTX_set_params(pc, p) == 1);
            EVP_MD_CTX_free(c);
        }
    }

    /* verification failures */
    size_t n = dsign(good, NULL, dp, sig, sizeof sig, msg, sizeof msg - 1);
    unsigned char bad[MAXSIG + 1];
    static const unsigned char ctx2[] = "other";
    OSSL_PARAM cp[] = {OSSL_PARAM_octet_string("context-string", (void *)ctx2, 5), OSSL_PARAM_END};
    point("err.verify-good", dverify(pubonly, NULL, sig, n, msg, sizeof msg - 1));
    point("err.verify-wrong-context", dverify(pubonly, cp, sig, n, msg, sizeof msg - 1));
    point("err.verify-wrong-message", dverify(pubonly, NULL, sig, n, msg, 5));
    point("err.verify-short", dverify(pubonly, NULL, sig, n - 1, msg, sizeof msg - 1));
    memcpy(bad, sig, n);
    bad[n] = 0;
    point("err.verify-long", dverify(pubonly, NULL, bad, n + 1, msg, sizeof msg - 1));
    point("err.verify-empty", dverify(pubonly, NULL, bad, 0, msg, sizeof msg - 1));
    bad[3] ^= 1;
    point("err.verify-ctilde-flip", dverify(pubonly, NULL, bad, n, msg, sizeof msg - 1));
    memcpy(bad, sig, n);
    bad[n / 2] ^= 1;
    point("err.verify-z-flip", dverify(pubonly, NULL, bad, n, msg, sizeof msg - 1));
    memcpy(bad, sig, n);
    bad_hints(bad, 0);
    point("err.verify-hint-order", dverify(pubonly, NULL, bad, n, msg, sizeof msg - 1));
    memcpy(bad, sig, n);
    bad_hints(bad, 1);
    point("err.verify-hint-count", dverify(pubonly, NULL, bad, n, msg, sizeof msg - 1));
    memset(bad, 0xff, n);
    point("err.verify-all-ones", dverify(pubonly, NULL, bad, n, msg, sizeof msg - 1));
    point("err.verify-other-key", dverify(other, NULL, sig, n, msg, sizeof msg - 1));
    {
        int mu = 1;
        OSSL_PARAM mp[] = {OSSL_PARAM_int("mu", &mu), OSSL_PARAM_END};
        point("err.verify-mu-63", dverify(pubonly, mp, sig, n, msg, 30) != 0);
    }
    if (verify_msg_init) {
        EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, alg, NULL);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, pubonly, NULL);
        int ok = s && c && verify_msg_init(c, s, NULL) == 1;
        point("err.msg-verify-good", ok && EVP_PKEY_verify(c, sig, n, msg, sizeof msg - 1) == 1);
        EVP_PKEY_CTX_free(c);
        c = EVP_PKEY_CTX_new_from_pkey(NULL, pubonly, NULL);
        ok = s && c && verify_msg_init(c, s, NULL) == 1;
        point("err.msg-verify-short", ok && EVP_PKEY_verify(c, sig, n - 1, msg, sizeof msg - 1) == 1);
        EVP_PKEY_CTX_free(c);
        c = EVP_PKEY_CTX_new_from_pkey(NULL, good, NULL);
        const char *otheralg = strcmp(alg, "ML-DSA-44") ? "ML-DSA-44" : "ML-DSA-65";
        EVP_SIGNATURE *s2 = EVP_SIGNATURE_fetch(NULL, otheralg, NULL);
        point("err.msg-verify-other-alg", s2 && c && verify_msg_init(c, s2, NULL) == 1);
        EVP_SIGNATURE_free(s2);
        EVP_PKEY_CTX_free(c);
        EVP_SIGNATURE_free(s);
    }
}

int main(int argc, char **argv)
{
    alg = argc > 1 ? argv[1] : "ML-DSA-65";
    int ps = alg[7] == '4' ? 44 : alg[7] == '6' ? 65 : 87;
    k = ps == 44 ? 4 : ps == 65 ? 6 : 8;
    l = ps == 44 ? 4 : ps == 65 ? 5 : 7;
    eta = ps == 65 ? 4 : 2;
    etab = eta == 2 ? 96 : 128;
    omega = ps == 44 ? 80 : ps == 65 ? 55 : 75;
    sign_msg_init = (msg_init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_init");
    sign_msg_update = (msg_update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_update");
    sign_msg_final = (sign_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_final");
    verify_msg_init = (msg_init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_init");
    verify_msg_update = (msg_update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_update");
    verify_msg_final = (verify_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_final");
    set_signature = (set_sig_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_CTX_set_signature");
    if (!sign_msg_update || !sign_msg_final || !verify_msg_update || !verify_msg_final ||
        !set_signature)
        sign_msg_init = verify_msg_init = NULL;

    for (int i = 0; i < 32; i++)
        SEED[i] = (unsigned char)i, SEED2[i] = (unsigned char)(0xa5 ^ i);
    good = keygen(SEED);
    other = keygen(SEED2);
    if (!good || !other) {
        printf("# keygen failed\n");
        ERR_print_errors_fp(stdout);
        return 1;
    }
    EVP_PKEY_get_octet_string_param(good, "priv", SK, sizeof SK, &skb);
    EVP_PKEY_get_octet_string_param(good, "pub", PK, sizeof PK, &pkb);
    EVP_PKEY_get_octet_string_param(other, "priv", SK2, sizeof SK2, &skb);
    EVP_PKEY_get_octet_string_param(other, "pub", PK2, sizeof PK2, &pkb);
    sigb = (size_t)EVP_PKEY_get_size(good);
    pubonly = EVP_PKEY_new_raw_public_key_ex(NULL, alg, NULL, PK, pkb);
    driver_provider(good, NULL);
    ERR_clear_error();

    const char *only = argc > 2 ? argv[2] : "";
    if (!*only || !strcmp(only, "key"))
        key_points();
    if (!*only || !strcmp(only, "param"))
        param_points();
    if (!*only || !strcmp(only, "err"))
        err_points();
    EVP_PKEY_free(good);
    EVP_PKEY_free(other);
    EVP_PKEY_free(pubonly);
    return 0;
}
