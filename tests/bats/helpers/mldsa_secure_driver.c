/* Secrets in the application's secure heap: enables it
 * (CRYPTO_secure_malloc_init), then for one ML-DSA parameter set reports
 * CRYPTO_secure_used() growth when a key is generated, imported from its
 * expanded private key, used to sign, and freed, plus who served it.
 * Prints TAP. Usage: mldsa_secure_driver ALG. Built against the 3.0
 * headers, run on 3.5's libcrypto (tests/bats/mldsa_secure.bats). */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

static int tests;
static const char *alg;

static void ok(int cond, const char *what, size_t a, size_t b)
{
    printf("%sok %d - %s %s (%zu -> %zu bytes)\n", cond ? "" : "not ", ++tests, alg, what, a, b);
}

int main(int argc, char **argv)
{
    alg = argc > 1 ? argv[1] : "ML-DSA-65";
    if (!CRYPTO_secure_malloc_init(1 << 20, 16)) {
        printf("not ok 1 - CRYPTO_secure_malloc_init\n1..1\n");
        return 1;
    }
    unsigned char seed[32] = {1, 2, 3}, sk[4896], sig[4627];
    size_t skb = 0, siglen = sizeof sig;
    /* the private DRBG takes its own secure memory on first use: before
     * the baseline, so only the keys' share is measured */
    RAND_priv_bytes(sig, 32);
    size_t base = CRYPTO_secure_used();
    OSSL_PARAM gp[] = {OSSL_PARAM_octet_string("seed", seed, 32), OSSL_PARAM_END};
    EVP_PKEY *key = NULL, *imported = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (!g || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_CTX_set_params(g, gp) != 1 ||
        EVP_PKEY_keygen(g, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(g);
    const OSSL_PROVIDER *prov = key ? EVP_PKEY_get0_provider(key) : NULL;
    printf("# provider %s\n", prov ? OSSL_PROVIDER_get0_name(prov) : "none");
    size_t gen = CRYPTO_secure_used();
    ok(key && gen >= base + 32, "generated key's seed and private key in the secure heap", base, gen);

    if (key)
        EVP_PKEY_get_octet_string_param(key, "priv", sk, sizeof sk, &skb);
    imported = EVP_PKEY_new_raw_private_key_ex(NULL, alg, NULL, sk, skb);
    size_t imp = CRYPTO_secure_used();
    ok(imported && imp >= gen + skb, "imported expanded private key in the secure heap", gen, imp);

    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int signed_ok = md && imported &&
                    EVP_DigestSignInit_ex(md, NULL, NULL, NULL, NULL, imported, NULL) == 1 &&
                    EVP_DigestSign(md, sig, &siglen, (const unsigned char *)"m", 1) == 1;
    EVP_MD_CTX_free(md);
    md = EVP_MD_CTX_new();
    signed_ok = signed_ok && md &&
                EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, key, NULL) == 1 &&
                EVP_DigestVerify(md, sig, siglen, (const unsigned char *)"m", 1) == 1;
    EVP_MD_CTX_free(md);
    size_t sgn = CRYPTO_secure_used();
    ok(signed_ok && sgn >= imp, "signing (prepared state in the secure heap) and verifying work",
       imp, sgn);

    EVP_PKEY_free(imported);
    EVP_PKEY_free(key);
    size_t end = CRYPTO_secure_used();
    ok(end == base, "everything given back when the keys are freed", base, end);
    printf("1..%d\n", tests);
    CRYPTO_secure_malloc_done();
    return 0;
}
