/* Signs Wycheproof RSASSA-PKCS1-v1_5 generation vectors through the system
 * libcrypto (and so through the shim when it is preloaded) and compares each
 * signature with the expected one byte for byte.
 * Usage: rsa_sign_driver FILE.json (a Wycheproof rsa_pkcs1_*_sig_gen file,
 * read with tests/unit/support/vectors.h; its invalid cases and those
 * without a signature are left out). Output: one line per mismatch, then
 * "N match, M mismatch"; exit status 0 only when every signature matched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "driver.h"

/* Maps Wycheproof's hash name ("SHA-256") to OpenSSL's digest, or NULL. */
static const EVP_MD *digest_by_name(const char *name)
{
    static const struct { const char *w, *o; } map[] = {
        {"SHA-1", "SHA1"}, {"SHA-224", "SHA224"}, {"SHA-256", "SHA256"},
        {"SHA-384", "SHA384"}, {"SHA-512", "SHA512"},
        {"SHA-512/224", "SHA512-224"}, {"SHA-512/256", "SHA512-256"},
        {"SHA3-224", "SHA3-224"}, {"SHA3-256", "SHA3-256"},
        {"SHA3-384", "SHA3-384"}, {"SHA3-512", "SHA3-512"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i].w))
            return EVP_get_digestbyname(map[i].o);
    return NULL;
}

/* Signs msg with the PKCS#8 key and compares with want; 1 on a match. */
static int sign_matches(const unsigned char *der, size_t derlen, const EVP_MD *md,
                        const unsigned char *msg, size_t msglen,
                        const unsigned char *want, size_t wantlen)
{
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_AutoPrivateKey(NULL, &p, (long)derlen);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char sig[1024];
    size_t siglen = sizeof sig;
    int ok = key && ctx && EVP_DigestSignInit(ctx, NULL, md, NULL, key) == 1 &&
             EVP_DigestSign(ctx, sig, &siglen, msg, msglen) == 1 &&
             siglen == wantlen && !memcmp(sig, want, wantlen);
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return ok;
}

int main(int argc, char **argv)
{
    vec_wyc w;
    unsigned match = 0, mismatch = 0;
    if (driver_wyc_open(&w, argc, argv))
        return 2;
    for (const json *g; (g = vec_wyc_group(&w));) {
        const char *sha = json_get_str(g, "sha");
        const EVP_MD *md = sha ? digest_by_name(sha) : NULL;
        size_t klen = 0;
        unsigned char *k = vec_json_hex(g, "privateKeyPkcs8", &klen);
        for (const json *t; (t = vec_wyc_test(&w));) {
            const char *res = json_get_str(t, "result"), *sighex = json_get_str(t, "sig");
            if (!res || !strcmp(res, "invalid") || !sighex || !*sighex)
                continue;
            size_t mlen = 0, slen = 0;
            unsigned char *m = vec_json_hex(t, "msg", &mlen), *s = vec_unhex_new(sighex, &slen);
            if (md && k && m && s && sign_matches(k, klen, md, m, mlen, s, slen)) {
                match++;
            } else {
                mismatch++;
                printf("mismatch tcId %d (%s)\n", vec_wyc_id(t), md ? sha : "unknown digest");
            }
            free(m), free(s);
        }
        free(k);
    }
    vec_wyc_close(&w);
    printf("%u match, %u mismatch\n", match, mismatch);
    return mismatch || !match;
}
