/* Exercises the provider's per-key prepared ML-DSA state through OpenSSL
 * 3.5's EVP API (run by tests/bats/mldsa_prepared.bats with and without the
 * shim): one key signs repeatedly, then its dup (with the original freed),
 * its exported-and-imported copy, and a public-only import verify; several
 * threads sign and verify with one fresh key at once. Signatures are
 * deterministic, so every one must equal the first. Prints TAP and, last,
 * "sig HEX" of the first signature for cross-run comparison.
 * Usage: mldsa_prepared_driver ALG (ML-DSA-44/65/87). Built against the
 * system's 3.0 headers: only 3.0 API calls (libcrypto.so.3 of 3.5 at run
 * time). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#define MAXSIG 4627
#define THREADS 4

static const char *alg;
static int tests;
static unsigned char first[MAXSIG];
static size_t firstlen;
static const unsigned char msg[] = "prepared keys must not change a single byte";
static const unsigned char ctxstr[] = "cs-prepared";

static void ok(int cond, const char *what)
{
    printf("%sok %d - %s %s\n", cond ? "" : "not ", ++tests, alg, what);
}

/* Deterministic signature of msg with context string; 0 on failure. */
static size_t sign(EVP_PKEY *pkey, unsigned char *sig)
{
    int det = 1;
    size_t len = MAXSIG;
    OSSL_PARAM params[] = {
        OSSL_PARAM_int("deterministic", &det),
        OSSL_PARAM_octet_string("context-string", (void *)ctxstr, sizeof ctxstr - 1),
        OSSL_PARAM_END,
    };
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md || EVP_DigestSignInit_ex(md, NULL, NULL, NULL, NULL, pkey, params) != 1 ||
        EVP_DigestSign(md, sig, &len, msg, sizeof msg - 1) != 1)
        len = 0;
    EVP_MD_CTX_free(md);
    return len;
}

/* 1 if sig verifies for msg under pkey. */
static int verify(EVP_PKEY *pkey, const unsigned char *sig, size_t len)
{
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string("context-string", (void *)ctxstr, sizeof ctxstr - 1),
        OSSL_PARAM_END,
    };
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = md && EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, pkey, params) == 1 &&
            EVP_DigestVerify(md, sig, len, msg, sizeof msg - 1) == 1;
    EVP_MD_CTX_free(md);
    return r;
}

/* 1 if pkey signs exactly the first signature (and it verifies). */
static int signs_first(EVP_PKEY *pkey)
{
    unsigned char sig[MAXSIG];
    size_t len = sign(pkey, sig);
    return len == firstlen && !memcmp(sig, first, len) && verify(pkey, sig, len);
}

/* A copy of pkey through todata/fromdata with the given selection. */
static EVP_PKEY *reimport(EVP_PKEY *pkey, int selection)
{
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (ctx && EVP_PKEY_todata(pkey, selection, &params) == 1 &&
        EVP_PKEY_fromdata_init(ctx) == 1)
        EVP_PKEY_fromdata(ctx, &out, selection, params);
    OSSL_PARAM_free(params);
    EVP_PKEY_CTX_free(ctx);
    return out;
}

static EVP_PKEY *shared_key;
static int thread_ok[THREADS];

/* Signs and verifies with the shared key a few times. */
static void *worker(void *arg)
{
    int *res = arg;
    *res = 1;
    for (int i = 0; i < 8; i++)
        *res &= signs_first(shared_key) && verify(shared_key, first, firstlen);
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned char seed[32], sig[MAXSIG];
    for (int i = 0; i < 32; i++)
        seed[i] = (unsigned char)(7 * i + 1);
    alg = argc > 1 ? argv[1] : "ML-DSA-65";
    OSSL_PARAM gp[] = {OSSL_PARAM_octet_string("seed", seed, sizeof seed), OSSL_PARAM_END};
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (!g || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_CTX_set_params(g, gp) != 1 ||
        EVP_PKEY_keygen(g, &pkey) != 1) {
        printf("not ok 1 - %s keygen\n1..1\n", alg);
        return 1;
    }
    EVP_PKEY_CTX_free(g);

    firstlen = sign(pkey, first);
    ok(firstlen > 0 && verify(pkey, first, firstlen), "first signature verifies");
    ok(signs_first(pkey) && signs_first(pkey), "the same key signs the same again");

    EVP_PKEY *dup = EVP_PKEY_dup(pkey);
    EVP_PKEY *copy = reimport(pkey, EVP_PKEY_KEYPAIR);
    EVP_PKEY *pub = reimport(pkey, EVP_PKEY_PUBLIC_KEY);
    EVP_PKEY_free(pkey);
    ok(dup && signs_first(dup), "dup (original freed) signs the same");
    ok(copy && signs_first(copy) && signs_first(copy), "export/import copy signs the same");
    ok(pub && verify(pub, first, firstlen) && verify(pub, first, firstlen),
       "public-only import verifies, twice");
    memcpy(sig, first, firstlen);
    sig[firstlen / 2] ^= 0x10;
    ok(pub && !verify(pub, sig, firstlen) && !verify(copy, sig, firstlen),
       "corrupted signature rejected by prepared keys");

    shared_key = reimport(copy, EVP_PKEY_KEYPAIR); /* fresh: nothing prepared yet */
    pthread_t th[THREADS];
    int started = 0, all = shared_key != NULL;
    for (; all && started < THREADS; started++)
        if (pthread_create(&th[started], NULL, worker, &thread_ok[started]) != 0)
            break;
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        all &= thread_ok[i];
    }
    ok(all && started == THREADS, "threads sharing one fresh key sign and verify the same");

    EVP_PKEY_free(shared_key);
    EVP_PKEY_free(dup);
    EVP_PKEY_free(copy);
    EVP_PKEY_free(pub);
    printf("1..%d\nsig ", tests);
    for (size_t i = 0; i < firstlen; i++)
        printf("%02x", first[i]);
    printf("\n");
    return 0;
}
