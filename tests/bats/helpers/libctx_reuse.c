/* ML-DSA-65 key generation in a fresh library context, 20 times in a row,
 * each context freed before the next is made (so a new one often lands at a
 * freed one's address). Prints, per round, the provider that generated the
 * key and whether the context's address was seen before:
 * "round N provider NAME reused 0|1". Exits 0 when every key was made.
 * With "default" as argument, one key in the default context only (for the
 * leak check). */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <string.h>

static int keygen(OSSL_LIB_CTX *libctx, const char **prov)
{
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, "ML-DSA-65", NULL);
    int ok = c && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_generate(c, &k) > 0;
    *prov = ok ? OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(k)) : "none";
    EVP_PKEY_free(k);
    EVP_PKEY_CTX_free(c);
    return ok;
}

int main(int argc, char **argv)
{
    const char *prov;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a leak checker may end the process */
    if (argc > 1 && !strcmp(argv[1], "default")) {
        int ok = keygen(NULL, &prov);
        printf("default provider %s\n", prov);
        return ok ? 0 : 1;
    }
    void *seen[20];
    int bad = 0;
    for (int i = 0; i < 20; i++) {
        OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
        int reused = 0;
        for (int j = 0; j < i; j++)
            reused |= seen[j] == (void *)ctx;
        seen[i] = ctx;
        bad += !keygen(ctx, &prov);
        printf("round %d provider %s reused %d\n", i, prov, reused);
        OSSL_LIB_CTX_free(ctx);
    }
    return bad ? 1 : 0;
}
