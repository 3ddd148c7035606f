/* The operations `openssl speed` times, N times in one process, through the
 * public EVP calls speed makes, for counting guest instructions per
 * operation under qemu (scripts/oldhw/s390x-e2e.sh): a run with N = 0 does
 * the same set-up, so (count(N) - count(0)) / N is one operation. Every
 * input is fixed, so a shimmed and a stock run do the same work and must
 * print the same digest of their outputs: ML-DSA keys come from seeds and
 * signatures are deterministic (FIPS 204's hedged signing would make the
 * number of rejection rounds differ between runs), messages are a counter,
 * RSA and DH keys are read from PEM files. Built for the target against
 * the host's OpenSSL headers (only 3.0 API names; the 3.5 parameters by
 * their strings) and linked with the target's libcrypto.
 * Usage: ossl_ops ALG OP N [KEY.pem [PEER.pem]]
 *   ALG ML-DSA-44|65|87: OP keygen|sign|verify
 *   ALG ML-KEM-512|768|1024: OP keygen|encaps|decaps (encapsulation with
 *     fixed randomness, OpenSSL's "ikme" parameter)
 *   ALG RSA (KEY.pem): OP sign (PKCS#1 v1.5 over a 32-byte digest, as speed)
 *   ALG DH (KEY.pem, PEER.pem): OP derive
 * Prints "ALG OP N digest HEX" (FNV-1a over every output). */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 3.5 API (the message-signing calls `openssl speed` makes for ML-DSA). */
int EVP_PKEY_sign_message_init(EVP_PKEY_CTX *ctx, EVP_SIGNATURE *algo, const OSSL_PARAM params[]);
int EVP_PKEY_verify_message_init(EVP_PKEY_CTX *ctx, EVP_SIGNATURE *algo,
                                 const OSSL_PARAM params[]);

static uint64_t digest = 1469598103934665603ULL;

/* Folds an output into the digest (a few instructions per byte, the same
 * on both sides). */
static void fold(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        digest = (digest ^ p[i]) * 1099511628211ULL;
}

static void die(const char *what)
{
    fprintf(stderr, "ossl_ops: %s failed\n", what);
    exit(1);
}

/* Key of algorithm alg from a 32- or 64-byte seed made from i. */
static EVP_PKEY *keygen_seed(const char *alg, unsigned i, size_t seedlen)
{
    unsigned char seed[64];
    for (size_t j = 0; j < seedlen; j++)
        seed[j] = (unsigned char)(i * 131 + j * 7 + 1);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string("seed", seed, seedlen), OSSL_PARAM_END};
    if (!c || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, p) ||
        EVP_PKEY_keygen(c, &k) <= 0)
        die("keygen");
    EVP_PKEY_CTX_free(c);
    return k;
}

/* Encapsulates to c's key with randomness made from i. */
static size_t encaps(EVP_PKEY_CTX *c, unsigned i, unsigned char *ct, size_t ctcap,
                     unsigned char *ss, size_t *sslen)
{
    unsigned char m[32];
    for (size_t j = 0; j < sizeof m; j++)
        m[j] = (unsigned char)(i * 29 + j * 3 + 5);
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string("ikme", m, sizeof m), OSSL_PARAM_END};
    size_t ctlen = ctcap;
    if (EVP_PKEY_encapsulate_init(c, p) <= 0 || EVP_PKEY_encapsulate(c, ct, &ctlen, ss, sslen) <= 0)
        die("encapsulate");
    return ctlen;
}

static EVP_PKEY *read_key(const char *path)
{
    FILE *f = fopen(path, "r");
    EVP_PKEY *k = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
    if (f)
        fclose(f);
    if (!k)
        die(path);
    return k;
}

/* Signs msg (the counter i) with k; returns the signature length. For
 * ML-DSA deterministically (pure ML-DSA, empty context). */
static size_t sign(EVP_PKEY *k, int mldsa, unsigned i, unsigned char *sig, size_t cap)
{
    unsigned char msg[32] = {0};
    memcpy(msg, &i, sizeof i);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
    size_t len = cap;
    int det = 1;
    OSSL_PARAM p[] = {OSSL_PARAM_int("deterministic", &det), OSSL_PARAM_END};
    if (!c)
        die("sign context");
    if (mldsa) {
        EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, EVP_PKEY_get0_type_name(k), NULL);
        if (!s || EVP_PKEY_sign_message_init(c, s, p) <= 0)
            die("ML-DSA sign init");
        EVP_SIGNATURE_free(s);
    } else if (EVP_PKEY_sign_init(c) <= 0 || EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0 ||
               EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0) {
        die("RSA sign init");
    }
    if (EVP_PKEY_sign(c, sig, &len, msg, sizeof msg) <= 0)
        die("sign");
    EVP_PKEY_CTX_free(c);
    return len;
}

static void verify(EVP_PKEY *k, unsigned i, const unsigned char *sig, size_t len)
{
    unsigned char msg[32] = {0};
    memcpy(msg, &i, sizeof i);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, EVP_PKEY_get0_type_name(k), NULL);
    if (!c || !s || EVP_PKEY_verify_message_init(c, s, NULL) <= 0 ||
        EVP_PKEY_verify(c, sig, len, msg, sizeof msg) != 1)
        die("verify");
    EVP_SIGNATURE_free(s);
    EVP_PKEY_CTX_free(c);
    unsigned char ok = 1;
    fold(&ok, 1);
}

/* A key of alg from seed i (seedlen bytes) whose public key is folded in
 * (buf: scratch of size bytes). */
static void keygen_fold(const char *alg, unsigned i, size_t seedlen, unsigned char *buf,
                        size_t size)
{
    EVP_PKEY *k = keygen_seed(alg, i, seedlen);
    size_t len = size;
    if (!EVP_PKEY_get_raw_public_key(k, buf, &len))
        die("public key");
    fold(buf, len);
    EVP_PKEY_free(k);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *alg = argv[1], *op = argv[2];
    unsigned n = (unsigned)strtoul(argv[3], NULL, 10);
    static unsigned char buf[8192], ct[2048], ss[64];
    if (!strncmp(alg, "ML-DSA-", 7)) {
        if (!strcmp(op, "keygen")) {
            for (unsigned i = 0; i < n; i++)
                keygen_fold(alg, i, 32, buf, sizeof buf);
        } else {
            EVP_PKEY *k = keygen_seed(alg, 1000, 32);
            size_t len = sign(k, 1, 0, buf, sizeof buf);
            for (unsigned i = 0; i < n; i++) {
                if (!strcmp(op, "sign")) {
                    len = sign(k, 1, i + 1, buf, sizeof buf);
                    fold(buf, len);
                } else {
                    verify(k, 0, buf, len);
                }
            }
            EVP_PKEY_free(k);
        }
    } else if (!strncmp(alg, "ML-KEM-", 7)) {
        EVP_PKEY *k = keygen_seed(alg, 1000, 64);
        size_t sslen = sizeof ss;
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
        if (!c)
            die("context");
        size_t ctlen = encaps(c, 1000, ct, sizeof ct, ss, &sslen);
        for (unsigned i = 0; i < n; i++) {
            if (!strcmp(op, "keygen")) {
                keygen_fold(alg, i, 64, buf, sizeof buf);
            } else if (!strcmp(op, "encaps")) {
                unsigned char ct2[2048];
                size_t sl = sizeof ss, cl = encaps(c, i, ct2, sizeof ct2, ss, &sl);
                fold(ct2, cl);
                fold(ss, sl);
            } else {
                EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
                sslen = sizeof ss;
                if (!d || EVP_PKEY_decapsulate_init(d, NULL) <= 0 ||
                    EVP_PKEY_decapsulate(d, ss, &sslen, ct, ctlen) <= 0)
                    die("decapsulate");
                fold(ss, sslen);
                EVP_PKEY_CTX_free(d);
            }
        }
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(k);
    } else if (!strcmp(alg, "RSA") && argc > 4) {
        EVP_PKEY *k = read_key(argv[4]);
        for (unsigned i = 0; i < n; i++) {
            size_t len = sign(k, 0, i, buf, sizeof buf);
            fold(buf, len);
        }
        EVP_PKEY_free(k);
    } else if (!strcmp(alg, "DH") && argc > 5) {
        EVP_PKEY *k = read_key(argv[4]), *peer = read_key(argv[5]);
        for (unsigned i = 0; i < n; i++) {
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
            size_t len = sizeof buf;
            if (!c || EVP_PKEY_derive_init(c) <= 0 || EVP_PKEY_derive_set_peer(c, peer) <= 0 ||
                EVP_PKEY_derive(c, buf, &len) <= 0)
                die("derive");
            fold(buf, len);
            EVP_PKEY_CTX_free(c);
        }
        EVP_PKEY_free(k);
        EVP_PKEY_free(peer);
    } else {
        return 2;
    }
    printf("%s %s %u digest %016llx\n", alg, op, n, (unsigned long long)digest);
    return 0;
}
