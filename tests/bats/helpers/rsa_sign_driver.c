/* Signs Wycheproof RSASSA-PKCS1-v1_5 generation vectors through the system
 * libcrypto (and so through the shim when it is preloaded) and compares each
 * signature with the expected one byte for byte.
 * Input lines on stdin: "tcId SHA-NAME PKCS8-HEX MSG-HEX SIG-HEX" (an empty
 * message is written "-"). Output: one line per mismatch, then
 * "N match, M mismatch"; exit status 0 only when every signature matched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/* Decodes hex text into a fresh buffer; "-" is the empty string. Returns NULL
 * on malformed input. */
static unsigned char *unhex(const char *s, size_t *len)
{
    size_t n = strcmp(s, "-") ? strlen(s) : 0;
    unsigned char *out = malloc(n / 2 + 1);
    if (!out || n % 2)
        return free(out), NULL;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return free(out), NULL;
        out[i] = (unsigned char)v;
    }
    *len = n / 2;
    return out;
}

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

int main(void)
{
    static char line[1 << 16];
    unsigned match = 0, mismatch = 0;
    while (fgets(line, sizeof line, stdin)) {
        char id[32], sha[32], *key = malloc(sizeof line), *msg = malloc(sizeof line),
             *sig = malloc(sizeof line);
        size_t klen = 0, mlen = 0, slen = 0;
        unsigned char *k = NULL, *m = NULL, *s = NULL;
        const EVP_MD *md = NULL;
        int good = key && msg && sig &&
                   sscanf(line, "%31s %31s %65535s %65535s %65535s", id, sha, key, msg, sig) == 5 &&
                   (md = digest_by_name(sha)) && (k = unhex(key, &klen)) &&
                   (m = unhex(msg, &mlen)) && (s = unhex(sig, &slen)) &&
                   sign_matches(k, klen, md, m, mlen, s, slen);
        if (good) {
            match++;
        } else {
            mismatch++;
            printf("mismatch tcId %s (%s)\n", key ? id : "?", md ? sha : "unknown digest");
        }
        free(k), free(m), free(s), free(key), free(msg), free(sig);
    }
    printf("%u match, %u mismatch\n", match, mismatch);
    return mismatch || !match;
}
