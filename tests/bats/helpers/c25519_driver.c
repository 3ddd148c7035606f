/* X25519 and Ed25519 through EVP, printing every answer and first error,
 * for tests/bats/c25519_stock.bats: run once on stock OpenSSL and once
 * with the shim preloaded, the lines (those not starting with '#') must be
 * the same. Keys come from a seeded generator (imported as raw keys) so
 * both runs see the same inputs; generated keys are checked against the
 * default provider's derivation and print only their verdicts.
 *
 *   c25519_driver GROUP SEED
 * GROUP: x25519 (derive, special peer values), xgen (generation, group and
 * DHKEM ikm), ed25519 (signatures, non-canonical and S >= L signatures,
 * instances and context strings on 3.5+), import (key import checks and
 * errors, params, validation), pem (PEM/DER of keys the provider holds,
 * PEM keys decoded by the default provider used with our operations),
 * vectors (Wycheproof's X25519 and Ed25519 files, read from $VECTORS).
 * Lines "# provider NAME" say which provider holds each key. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

#include "driver.h"

static uint64_t rng_state;

/* The 3.4+ message-signing calls, looked up at run time (the driver is
 * built against 3.0's headers). */
typedef int (*msg_init_fn)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
static msg_init_fn sign_msg_init, verify_msg_init, sign_init_ex2;

/* splitmix64: the runs' shared pseudo-random inputs. */
static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rnd(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd64();
}

static void hex(const char *label, const uint8_t *p, size_t n)
{
    printf("%s ", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

/* The outcome: "ok" or "fail" with the first error's library and reason
 * (the queue is cleared). */
static void outcome(const char *what, int ok)
{
    unsigned long e = ERR_peek_error();
    if (ok)
        printf("%s ok\n", what);
    else
        printf("%s fail %d:%d\n", what, ERR_GET_LIB(e), ERR_GET_REASON(e));
    ERR_clear_error();
}

static int v35(void)
{
    return OpenSSL_version_num() >= 0x30500000UL;
}

static EVP_PKEY *raw_priv(const char *alg, const uint8_t *k)
{
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key_ex(NULL, alg, NULL, k, 32);
    if (key)
        driver_provider(key, NULL);
    return key;
}

static EVP_PKEY *raw_pub(const char *alg, const uint8_t *k)
{
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key_ex(NULL, alg, NULL, k, 32);
    if (key)
        driver_provider(key, NULL);
    return key;
}

static void print_pub(const char *label, EVP_PKEY *key)
{
    uint8_t pub[32];
    size_t n = sizeof pub;
    int ok = EVP_PKEY_get_raw_public_key(key, pub, &n);
    if (ok)
        hex(label, pub, n);
    else
        outcome(label, 0);
}

/* A raw private key of alg from 32 fresh pseudo-random bytes (into k), its
 * public key printed as "NAME pub"; NULL after printing "NAME import" failed. */
static EVP_PKEY *random_key(const char *alg, const char *name, uint8_t k[32])
{
    char label[32];
    rnd(k, 32);
    EVP_PKEY *key = raw_priv(alg, k);
    snprintf(label, sizeof label, "%s %s", name, key ? "pub" : "import");
    if (key)
        print_pub(label, key);
    else
        outcome(label, 0);
    return key;
}

/* Derives X25519(priv, peer) through EVP, printing the secret or error. */
static void derive(const char *label, EVP_PKEY *priv, EVP_PKEY *peer)
{
    uint8_t ss[64];
    size_t n = sizeof ss;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, priv, NULL);
    int ok = ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
             EVP_PKEY_derive(ctx, ss, &n) > 0;
    if (ok)
        hex(label, ss, n);
    else
        outcome(label, 0);
    EVP_PKEY_CTX_free(ctx);
}

/* Peer values stock treats specially: low-order points, u >= p, top bit. */
static void special_peers(uint8_t out[][32], int *count)
{
    static const char *const hexes[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "cdeb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880",
        "4c9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7",
        "d9ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "daffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "dbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "0900000000000000000000000000000000000000000000000000000000000080",
        "efffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "f0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    };
    int n = 0;
    for (size_t i = 0; i < sizeof hexes / sizeof *hexes; i++, n++)
        for (int j = 0; j < 32; j++) {
            unsigned v;
            sscanf(hexes[i] + 2 * j, "%2x", &v);
            out[n][j] = (uint8_t)v;
        }
    *count = n;
}

static void group_x25519(void)
{
    uint8_t k[32], peer[32], special[32][32];
    int nspecial;
    special_peers(special, &nspecial);
    for (int i = 0; i < 40; i++) {
        EVP_PKEY *a = random_key("X25519", "x25519", k);
        if (!a)
            continue;
        rnd(peer, 32);
        if (i % 2)
            peer[31] |= 0x80; /* top bit: ignored */
        EVP_PKEY *b = raw_pub("X25519", peer);
        derive("x25519 derive random", a, b);
        EVP_PKEY_free(b);
        if (i < 4)
            for (int s = 0; s < nspecial; s++) {
                char label[64];
                snprintf(label, sizeof label, "x25519 derive special %d", s);
                b = raw_pub("X25519", special[s]);
                derive(label, a, b);
                EVP_PKEY_free(b);
            }
        /* against a key pair: the peer's public value */
        rnd(k, 32);
        b = raw_priv("X25519", k);
        derive("x25519 derive pair", a, b);
        derive("x25519 derive pair reverse", b, a);
        EVP_PKEY_free(b);
        EVP_PKEY_free(a);
    }
    /* 3.5+: DHKEM(X25519) (the default provider's KEM, taking our keys by
     * export) with a fixed ephemeral ikm: deterministic */
    for (int i = 0; v35() && i < 6; i++) {
        uint8_t ikme[32], ct[64], ss[64], ss2[64];
        size_t ctlen = sizeof ct, sslen = sizeof ss, ss2len = sizeof ss2;
        rnd(k, 32);
        rnd(ikme, 32);
        EVP_PKEY *a = raw_priv("X25519", k);
        EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_pkey(NULL, a, NULL);
        OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("operation", "DHKEM", 5),
                          OSSL_PARAM_octet_string("ikme", ikme, i == 5 ? 16 : 32), OSSL_PARAM_END};
        int ok = kc && EVP_PKEY_encapsulate_init(kc, p) > 0 &&
                 EVP_PKEY_encapsulate(kc, ct, &ctlen, ss, &sslen) > 0;
        EVP_PKEY_CTX_free(kc);
        if (!ok) {
            outcome("dhkem encapsulate", 0);
        } else {
            hex("dhkem ct", ct, ctlen);
            hex("dhkem ss", ss, sslen);
            kc = EVP_PKEY_CTX_new_from_pkey(NULL, a, NULL);
            ok = kc && EVP_PKEY_decapsulate_init(kc, p) > 0 &&
                 EVP_PKEY_decapsulate(kc, ss2, &ss2len, ct, ctlen) > 0;
            EVP_PKEY_CTX_free(kc);
            if (ok)
                hex("dhkem decapsulated", ss2, ss2len);
            else
                outcome("dhkem decapsulate", 0);
        }
        EVP_PKEY_free(a);
    }
    /* a public-only key cannot derive; a short output buffer */
    rnd(k, 32);
    EVP_PKEY *pub = raw_pub("X25519", k), *priv = raw_priv("X25519", k);
    derive("x25519 derive public-only", pub, priv);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, priv, NULL);
    uint8_t ss[32];
    size_t n = 16;
    outcome("x25519 derive short buffer",
            ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer(ctx, pub) > 0 &&
                EVP_PKEY_derive(ctx, ss, &n) > 0);
    n = 0;
    outcome("x25519 derive size query", ctx && EVP_PKEY_derive(ctx, NULL, &n) > 0);
    printf("x25519 derive size %zu\n", n);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
}

/* A generated key's verdict: the private key as stock stores it (clamped
 * for X25519) and the public key the default provider derives from it. */
static void check_generated(const char *alg, EVP_PKEY *key)
{
    uint8_t priv[32], pub[32];
    size_t pn = 32, qn = 32;
    driver_provider(key, NULL);
    if (!key || !EVP_PKEY_get_raw_private_key(key, priv, &pn) ||
        !EVP_PKEY_get_raw_public_key(key, pub, &qn)) {
        outcome("gen", 0);
        return;
    }
    EVP_PKEY *ref = EVP_PKEY_new_raw_private_key_ex(NULL, alg, "provider=default", priv, 32);
    uint8_t rpub[32];
    size_t rn = 32;
    int same = ref && EVP_PKEY_get_raw_public_key(ref, rpub, &rn) && !memcmp(rpub, pub, 32);
    int clamped = (priv[0] & 7) == 0 && (priv[31] & 0xc0) == 0x40;
    printf("gen %s pub-matches %d clamped %d\n", alg, same, !strcmp(alg, "X25519") ? clamped : -1);
    EVP_PKEY_free(ref);
}

/* EVP_PKEY_keygen for alg with params (may be NULL). */
static EVP_PKEY *gen(const char *alg, const OSSL_PARAM *params, const char *label)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    int ok = ctx && EVP_PKEY_keygen_init(ctx) > 0 &&
             (!params || EVP_PKEY_CTX_set_params(ctx, params) > 0) &&
             EVP_PKEY_generate(ctx, &key) > 0;
    outcome(label, ok);
    EVP_PKEY_CTX_free(ctx);
    return key;
}

static void group_xgen(void)
{
    for (int i = 0; i < 10; i++) {
        EVP_PKEY *k = gen("X25519", NULL, "gen X25519");
        check_generated("X25519", k);
        EVP_PKEY_free(k);
        k = gen("ED25519", NULL, "gen ED25519");
        check_generated("ED25519", k);
        EVP_PKEY_free(k);
    }
    static const char *const groups[] = {"x25519", "X25519", "x448", "", "ed25519"};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("group", (char *)groups[i], 0), OSSL_PARAM_END};
        char label[64];
        snprintf(label, sizeof label, "gen X25519 group '%s'", groups[i]);
        EVP_PKEY_free(gen("X25519", p, label));
        snprintf(label, sizeof label, "gen ED25519 group '%s'", groups[i]);
        EVP_PKEY_free(gen("ED25519", p, label));
    }
    int ival = 1;
    OSSL_PARAM pint[] = {OSSL_PARAM_int("group", &ival), OSSL_PARAM_END};
    EVP_PKEY_free(gen("X25519", pint, "gen X25519 group int"));
    OSSL_PARAM pprop[] = {OSSL_PARAM_int("properties", &ival), OSSL_PARAM_END};
    EVP_PKEY_free(gen("X25519", pprop, "gen X25519 properties int"));
    if (!v35())
        return;
    /* DHKEM(X25519) DeriveKeyPair: deterministic */
    uint8_t ikm[80];
    size_t lens[] = {32, 33, 64, 80, 31, 1};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        rnd(ikm, sizeof ikm);
        OSSL_PARAM p[] = {OSSL_PARAM_octet_string("dhkem-ikm", ikm, lens[i]), OSSL_PARAM_END};
        char label[64];
        snprintf(label, sizeof label, "gen X25519 dhkem-ikm %zu", lens[i]);
        EVP_PKEY *k = gen("X25519", p, label);
        if (k) {
            uint8_t priv[32];
            size_t n = 32;
            driver_provider(k, NULL);
            if (EVP_PKEY_get_raw_private_key(k, priv, &n))
                hex("dhkem priv", priv, n);
            print_pub("dhkem pub", k);
        }
        EVP_PKEY_free(k);
        snprintf(label, sizeof label, "gen ED25519 dhkem-ikm %zu", lens[i]);
        EVP_PKEY_free(gen("ED25519", p, label));
    }
}

/* One-shot EVP_DigestSign with params (3.5+: instance, context string). */
static void dsign(const char *label, EVP_PKEY *key, const OSSL_PARAM *params, const uint8_t *msg,
                  size_t len, uint8_t sig[64])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t n = 64;
    int ok = md && EVP_DigestSignInit_ex(md, NULL, NULL, NULL, NULL, key, params) > 0 &&
             EVP_DigestSign(md, sig, &n, msg, len) > 0;
    if (ok)
        hex(label, sig, n);
    else {
        outcome(label, 0);
        memset(sig, 0, 64);
    }
    EVP_MD_CTX_free(md);
}

static void dverify(const char *label, EVP_PKEY *key, const OSSL_PARAM *params, const uint8_t *sig,
                    size_t siglen, const uint8_t *msg, size_t len)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = -2;
    if (md && EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, key, params) > 0)
        r = EVP_DigestVerify(md, sig, siglen, msg, len);
    printf("%s %d\n", label, r);
    ERR_clear_error();
    EVP_MD_CTX_free(md);
}

/* S + L (little-endian 256-bit addition into sig[32..63]). */
static void add_l(uint8_t sig[64])
{
    static const uint8_t l[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                  0xa2, 0xde, 0xf9, 0xde, 0x14, 0,    0,    0,    0,    0,    0,
                                  0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};
    unsigned c = 0;
    for (int i = 0; i < 32; i++) {
        c += sig[32 + i] + l[i];
        sig[32 + i] = (uint8_t)c;
        c >>= 8;
    }
}

/* EVP_PKEY_sign with the signature alg fetched and set up by init (3.5+:
 * sign_msg_init, or sign_init_ex2 where the caller prehashed), printing the
 * signature or the failure; with vinit, the signature verified again through
 * a fresh context set up by vinit, and the verdict printed. */
static void fetched_sign(const char *label, EVP_PKEY *key, const char *alg, msg_init_fn init,
                         msg_init_fn vinit, const OSSL_PARAM *params, const uint8_t *msg, size_t len)
{
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, alg, NULL);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    uint8_t sig[64];
    size_t n = sizeof sig;
    int ok = s && ctx && init(ctx, s, params) > 0 && EVP_PKEY_sign(ctx, sig, &n, msg, len) > 0;
    if (ok)
        hex(label, sig, n);
    else
        outcome(label, 0);
    if (ok && vinit) {
        int r = -2;
        EVP_PKEY_CTX_free(ctx);
        ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        if (ctx && vinit(ctx, s, params) > 0)
            r = EVP_PKEY_verify(ctx, sig, n, msg, len);
        printf("%s verify %d\n", label, r);
        ERR_clear_error();
    }
    EVP_SIGNATURE_free(s);
    EVP_PKEY_CTX_free(ctx);
}

/* EVP_PKEY_sign_message_init with a fetched signature, and verified again. */
static void msg_sign(const char *label, EVP_PKEY *key, const char *alg, const OSSL_PARAM *params,
                     const uint8_t *msg, size_t len)
{
    fetched_sign(label, key, alg, sign_msg_init, verify_msg_init, params, msg, len);
}

/* EVP_PKEY_sign_init_ex2 (the caller prehashes). */
static void pre_sign(const char *label, EVP_PKEY *key, const OSSL_PARAM *params, const uint8_t *tbs,
                     size_t len)
{
    fetched_sign(label, key, "ED25519", sign_init_ex2, NULL, params, tbs, len);
}

static void group_ed25519(void)
{
    uint8_t k[32], msg[300], sig[64], bad[64];
    for (int i = 0; i < 30; i++) {
        EVP_PKEY *key = random_key("ED25519", "ed25519", k);
        if (!key)
            continue;
        size_t len = (size_t)(rnd64() % sizeof msg);
        if (i < 3)
            len = (size_t)i;
        rnd(msg, len);
        dsign("ed25519 sign", key, NULL, msg, len, sig);
        dverify("ed25519 verify", key, NULL, sig, 64, msg, len);
        EVP_PKEY *pub = NULL;
        uint8_t pk[32];
        size_t pn = 32;
        if (EVP_PKEY_get_raw_public_key(key, pk, &pn))
            pub = raw_pub("ED25519", pk);
        dverify("ed25519 verify public-only", pub, NULL, sig, 64, msg, len);
        memcpy(bad, sig, 64);
        bad[i % 64] ^= (uint8_t)(1u << (i % 8));
        dverify("ed25519 verify flipped", pub, NULL, bad, 64, msg, len);
        memcpy(bad, sig, 64);
        add_l(bad);
        dverify("ed25519 verify S+L", pub, NULL, bad, 64, msg, len);
        dverify("ed25519 verify short", pub, NULL, sig, 63, msg, len);
        if (len)
            dverify("ed25519 verify other message", pub, NULL, sig, 64, msg, len - 1);
        /* R replaced by a non-canonical encoding, pub by y >= p */
        memcpy(bad, sig, 64);
        memset(bad, 0xff, 31);
        bad[31] = 0x7f;
        bad[0] = (uint8_t)(0xed + i % 19);
        dverify("ed25519 verify R non-canonical", pub, NULL, bad, 64, msg, len);
        if (v35() && sign_msg_init && verify_msg_init && sign_init_ex2) {
            static const char *const inst[] = {"Ed25519", "Ed25519ctx", "Ed25519ph", "ed25519PH",
                                               "Ed448", "bogus"};
            uint8_t ctxs[256];
            rnd(ctxs, sizeof ctxs);
            size_t clens[] = {0, 1, 255, 256};
            for (size_t a = 0; a < sizeof inst / sizeof *inst; a++)
                for (size_t c = 0; c < 4; c++) {
                    if (c && (a == 4 || a == 5) && i)
                        continue;
                    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("instance", (char *)inst[a], strlen(inst[a])),
                                      OSSL_PARAM_octet_string("context-string", ctxs, clens[c]),
                                      OSSL_PARAM_END};
                    char label[96];
                    snprintf(label, sizeof label, "ed25519 %s ctx %zu sign", inst[a], clens[c]);
                    dsign(label, key, p, msg, len, sig);
                    snprintf(label, sizeof label, "ed25519 %s ctx %zu verify", inst[a], clens[c]);
                    dverify(label, pub, p, sig, 64, msg, len);
                }
            OSSL_PARAM ctx1[] = {OSSL_PARAM_octet_string("context-string", ctxs, 5), OSSL_PARAM_END};
            OSSL_PARAM inst1[] = {OSSL_PARAM_utf8_string("instance", "Ed25519ph", 9), OSSL_PARAM_END};
            msg_sign("msg ED25519", key, "ED25519", NULL, msg, len);
            msg_sign("msg ED25519 instance", key, "ED25519", inst1, msg, len);
            msg_sign("msg ED25519ctx", key, "ED25519ctx", ctx1, msg, len);
            msg_sign("msg ED25519ph", key, "ED25519ph", NULL, msg, len);
            uint8_t md[64];
            rnd(md, 64);
            pre_sign("pre ED25519 plain", key, NULL, md, 64);
            pre_sign("pre ED25519 ph", key, inst1, md, 64);
            pre_sign("pre ED25519 ph short", key, inst1, md, 63);
        }
        /* a public-only key cannot sign; a digest cannot be named */
        dsign("ed25519 sign public-only", pub, NULL, msg, len, sig);
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        outcome("ed25519 sign with SHA256",
                EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, key, NULL) > 0);
        EVP_MD_CTX_free(md);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(key);
    }
}

/* EVP_PKEY_fromdata for alg with params: outcome, then its public key. */
static void fromdata(const char *label, const char *alg, int selection, OSSL_PARAM *params)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    int ok = ctx && EVP_PKEY_fromdata_init(ctx) > 0 &&
             EVP_PKEY_fromdata(ctx, &key, selection, params) > 0;
    outcome(label, ok);
    if (key) {
        driver_provider(key, NULL);
        print_pub("  pub", key);
        uint8_t priv[32];
        size_t n = 32;
        if (EVP_PKEY_get_raw_private_key(key, priv, &n))
            hex("  priv", priv, n);
        ERR_clear_error();
    }
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(ctx);
}

/* Key parameters through EVP_PKEY_get_params and the parameter lists. */
static void params_of(const char *label, EVP_PKEY *key)
{
    int bits = -1, sec = -1, max = -1, cat = -1;
    char md[32] = "?";
    uint8_t enc[64];
    size_t enclen = 0;
    printf("%s bits %d\n", label, EVP_PKEY_get_int_param(key, "bits", &bits) ? bits : -1);
    printf("%s security-bits %d\n", label,
           EVP_PKEY_get_int_param(key, "security-bits", &sec) ? sec : -1);
    printf("%s max-size %d\n", label, EVP_PKEY_get_int_param(key, "max-size", &max) ? max : -1);
    printf("%s security-category %d\n", label,
           EVP_PKEY_get_int_param(key, "security-category", &cat) ? cat : -1);
    printf("%s mandatory-digest %d %s\n", label,
           EVP_PKEY_get_utf8_string_param(key, "mandatory-digest", md, sizeof md, NULL), md);
    int ok = EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", enc, sizeof enc, &enclen);
    printf("%s encoded-pub-key %d %zu\n", label, ok, enclen);
    ok = EVP_PKEY_get_octet_string_param(key, "pub", enc, 16, &enclen);
    printf("%s pub short buffer %d\n", label, ok);
    ERR_clear_error();
    const OSSL_PARAM *p = EVP_PKEY_gettable_params(key);
    printf("%s gettable", label);
    for (; p && p->key; p++)
        printf(" %s", p->key);
    printf("\n%s settable", label);
    for (p = EVP_PKEY_settable_params(key); p && p->key; p++)
        printf(" %s", p->key);
    printf("\n");
    printf("%s size %d bits %d security %d\n", label, EVP_PKEY_get_size(key), EVP_PKEY_get_bits(key),
           EVP_PKEY_get_security_bits(key));
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    printf("%s check %d public_check %d pairwise %d private_check %d\n", label, EVP_PKEY_check(ctx),
           EVP_PKEY_public_check(ctx), EVP_PKEY_pairwise_check(ctx), EVP_PKEY_private_check(ctx));
    ERR_clear_error();
    EVP_PKEY_CTX_free(ctx);
}

static void group_import(void)
{
    static const char *const algs[] = {"X25519", "ED25519"};
    uint8_t priv[64], pub[64], other[32];
    rnd(priv, sizeof priv);
    rnd(pub, sizeof pub);
    rnd(other, sizeof other);
    for (int a = 0; a < 2; a++) {
        const char *alg = algs[a];
        char label[96];
        size_t lens[] = {32, 31, 33, 0, 57, 58};
        for (size_t i = 0; i < 6; i++) {
            OSSL_PARAM p[] = {OSSL_PARAM_octet_string("priv", priv, lens[i]), OSSL_PARAM_END};
            snprintf(label, sizeof label, "%s import priv %zu", alg, lens[i]);
            fromdata(label, alg, EVP_PKEY_KEYPAIR, p);
            OSSL_PARAM q[] = {OSSL_PARAM_octet_string("pub", pub, lens[i]), OSSL_PARAM_END};
            snprintf(label, sizeof label, "%s import pub %zu", alg, lens[i]);
            fromdata(label, alg, EVP_PKEY_PUBLIC_KEY, q);
        }
        OSSL_PARAM both[] = {OSSL_PARAM_octet_string("priv", priv, 32),
                             OSSL_PARAM_octet_string("pub", other, 32), OSSL_PARAM_END};
        snprintf(label, sizeof label, "%s import priv+mismatched pub", alg);
        fromdata(label, alg, EVP_PKEY_KEYPAIR, both);
        snprintf(label, sizeof label, "%s import priv+pub public selection", alg);
        fromdata(label, alg, EVP_PKEY_PUBLIC_KEY, both);
        OSSL_PARAM privonly[] = {OSSL_PARAM_octet_string("priv", priv, 32), OSSL_PARAM_END};
        snprintf(label, sizeof label, "%s import priv public selection", alg);
        /* 3.6 and 4.0 crash here (ossl_ecx_key_fromdata derives a public
         * key from the private key it did not read); the shim refuses */
        if (OpenSSL_version_num() < 0x30600000UL)
            fromdata(label, alg, EVP_PKEY_PUBLIC_KEY, privonly);
        OSSL_PARAM none[] = {OSSL_PARAM_END};
        snprintf(label, sizeof label, "%s import nothing", alg);
        fromdata(label, alg, EVP_PKEY_KEYPAIR, none);
        const void *ptr = priv;
        OSSL_PARAM optr[] = {OSSL_PARAM_octet_ptr("priv", (void **)&ptr, 32), OSSL_PARAM_END};
        snprintf(label, sizeof label, "%s import priv as octet pointer", alg);
        fromdata(label, alg, EVP_PKEY_KEYPAIR, optr);
        int iv = 5;
        OSSL_PARAM pint[] = {OSSL_PARAM_int("pub", &iv), OSSL_PARAM_END};
        snprintf(label, sizeof label, "%s import pub as int", alg);
        fromdata(label, alg, EVP_PKEY_KEYPAIR, pint);

        /* parameters and checks of a key pair, a public-only key and a
         * mismatched pair */
        EVP_PKEY *key = raw_priv(alg, priv);
        snprintf(label, sizeof label, "%s pair", alg);
        params_of(label, key);
        EVP_PKEY *pk = raw_pub(alg, pub);
        snprintf(label, sizeof label, "%s public", alg);
        params_of(label, pk);
        EVP_PKEY *mm = NULL;
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
        if (ctx && EVP_PKEY_fromdata_init(ctx) > 0 &&
            EVP_PKEY_fromdata(ctx, &mm, EVP_PKEY_KEYPAIR, both) > 0) {
            snprintf(label, sizeof label, "%s mismatched", alg);
            params_of(label, mm);
        }
        EVP_PKEY_CTX_free(ctx);
        printf("%s eq pair/public %d pair/pair %d public/mismatched %d\n", alg,
               EVP_PKEY_eq(key, pk), EVP_PKEY_eq(key, key), EVP_PKEY_eq(pk, mm));
        ERR_clear_error();
        /* the encoded public key a TLS peer sets */
        EVP_PKEY *fresh = EVP_PKEY_Q_keygen(NULL, NULL, alg);
        if (fresh) {
            uint8_t before[32], after[32];
            size_t bn = 32, an = 32;
            driver_provider(fresh, NULL);
            EVP_PKEY_get_raw_public_key(fresh, before, &bn);
            size_t enc_lens[] = {32, 31, 33};
            for (int e = 0; e < 3; e++) {
                snprintf(label, sizeof label, "%s set1_encoded_public_key %zu", alg, enc_lens[e]);
                outcome(label, EVP_PKEY_set1_encoded_public_key(fresh, pub, enc_lens[e]) > 0);
            }
            EVP_PKEY_get_raw_public_key(fresh, after, &an);
            printf("  pub after: unchanged %d encoded %d\n", !memcmp(before, after, 32),
                   !memcmp(pub, after, 32));
            uint8_t d[32];
            size_t dn = 32;
            snprintf(label, sizeof label, "%s private after set1_encoded", alg);
            outcome(label, EVP_PKEY_get_raw_private_key(fresh, d, &dn));
        }
        EVP_PKEY_free(fresh);
        EVP_PKEY_free(mm);
        EVP_PKEY_free(pk);
        EVP_PKEY_free(key);
    }
}

/* The PEM and DER stock's encoders write for a key the provider holds, and
 * a PEM key decoded by the default provider used for our operations. */
static void group_pem(void)
{
    static const char *const algs[] = {"X25519", "ED25519"};
    uint8_t k[32];
    for (int i = 0; i < 6; i++)
        for (int a = 0; a < 2; a++) {
            rnd(k, 32);
            EVP_PKEY *key = raw_priv(algs[a], k);
            BIO *b = BIO_new(BIO_s_mem());
            char *data;
            PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL, NULL);
            PEM_write_bio_PUBKEY(b, key);
            long n = BIO_get_mem_data(b, &data);
            printf("%s pem %.*s", algs[a], (int)n, data);
            unsigned char *der = NULL;
            int dn = i2d_PrivateKey(key, &der);
            if (dn > 0)
                hex("der priv", der, (size_t)dn);
            OPENSSL_free(der);
            der = NULL;
            dn = i2d_PUBKEY(key, &der);
            if (dn > 0)
                hex("der pub", der, (size_t)dn);
            OPENSSL_free(der);
            /* decoded back (by the default provider's decoder) */
            (void)BIO_reset(b);
            PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL, NULL);
            EVP_PKEY *back = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
            if (back) {
                printf("%s decoded eq %d\n", algs[a], EVP_PKEY_eq(back, key));
                if (a == 1) {
                    uint8_t msg[40], sig[64];
                    rnd(msg, sizeof msg);
                    dsign("decoded sign", back, NULL, msg, sizeof msg, sig);
                    dverify("decoded verify", back, NULL, sig, 64, msg, sizeof msg);
                } else {
                    derive("decoded derive", back, key);
                }
            } else {
                outcome("decode", 0);
            }
            EVP_PKEY_free(back);
            BIO_free(b);
            EVP_PKEY_free(key);
        }
    /* an X.509 certificate signed with Ed25519 and verified (its key
     * decoded by the default provider) */
    rnd(k, 32);
    EVP_PKEY *ca = raw_priv("ED25519", k);
    X509 *x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
    ASN1_TIME_set(X509_getm_notBefore(x), 1700000000);
    ASN1_TIME_set(X509_getm_notAfter(x), 1900000000);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
                               (const unsigned char *)"c25519", -1, -1, 0);
    X509_set_issuer_name(x, X509_get_subject_name(x));
    X509_set_pubkey(x, ca);
    outcome("x509 sign", X509_sign(x, ca, NULL) > 0);
    unsigned char *der = NULL;
    int dn = i2d_X509(x, &der);
    if (dn > 0)
        hex("x509 der", der, (size_t)dn);
    OPENSSL_free(der);
    printf("x509 verify %d\n", X509_verify(x, X509_get0_pubkey(x)));
    ERR_clear_error();
    X509_free(x);
    EVP_PKEY_free(ca);
}

/* The hex string member key of obj into out (exactly n bytes): 1, else 0. */
static int hex_member(const json *obj, const char *key, uint8_t *out, size_t n)
{
    const char *h = json_get_str(obj, key);
    return h && strlen(h) == 2 * n && vec_unhex(out, n, h, 2 * n) == (long)n;
}

/* Wycheproof's x25519_test.json (X25519: the shared secret or the refusal)
 * and ed25519_test.json (Ed25519 verification), read from the vectors
 * directory ($VECTORS) with tests/unit/support/vectors.h; then "# vectors N". */
static void group_vectors(void)
{
    static uint8_t a[32], b[32];
    char label[64];
    unsigned n = 0;
    vec_wyc w;
    if (vec_wyc_open(&w, "wycheproof/x25519_test.json") == 0) {
        while (vec_wyc_group(&w))
            for (const json *t; (t = vec_wyc_test(&w)); n++) {
                if (!hex_member(t, "private", a, 32) || !hex_member(t, "public", b, 32))
                    continue;
                EVP_PKEY *priv = raw_priv("X25519", a), *pub = raw_pub("X25519", b);
                snprintf(label, sizeof label, "x25519 tc %d", vec_wyc_id(t));
                derive(label, priv, pub);
                EVP_PKEY_free(priv);
                EVP_PKEY_free(pub);
            }
        vec_wyc_close(&w);
    }
    if (vec_wyc_open(&w, "wycheproof/ed25519_test.json") == 0) {
        for (const json *g; (g = vec_wyc_group(&w));) {
            int have_pk = hex_member(json_get(g, "publicKey"), "pk", a, 32);
            for (const json *t; (t = vec_wyc_test(&w)); n++) {
                size_t mlen, slen;
                uint8_t *msg = vec_json_hex(t, "msg", &mlen), *sig = vec_json_hex(t, "sig", &slen);
                EVP_PKEY *pub = have_pk ? raw_pub("ED25519", a) : NULL;
                snprintf(label, sizeof label, "ed25519 tc %d", vec_wyc_id(t));
                if (!pub || !msg || !sig)
                    outcome(label, 0);
                else
                    dverify(label, pub, NULL, sig, slen, msg, mlen);
                EVP_PKEY_free(pub);
                free(msg), free(sig);
            }
        }
        vec_wyc_close(&w);
    }
    printf("# vectors %u\n", n);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s x25519|xgen|ed25519|import|pem SEED\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a crash keeps what was printed */
    rng_state = strtoull(argv[2], NULL, 10);
    sign_msg_init = (msg_init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_init");
    verify_msg_init = (msg_init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_init");
    sign_init_ex2 = (msg_init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_init_ex2");
    printf("# %s\n", OpenSSL_version(OPENSSL_VERSION));
    const char *g = argv[1];
    if (!strcmp(g, "x25519"))
        group_x25519();
    else if (!strcmp(g, "xgen"))
        group_xgen();
    else if (!strcmp(g, "ed25519"))
        group_ed25519();
    else if (!strcmp(g, "import"))
        group_import();
    else if (!strcmp(g, "pem"))
        group_pem();
    else if (!strcmp(g, "vectors"))
        group_vectors();
    else
        return 2;
    return 0;
}
