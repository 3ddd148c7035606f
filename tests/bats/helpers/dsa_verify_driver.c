/* Verifies the DSA signatures (SHA-256) of a Wycheproof DsaVerify file
 * (usage: dsa_verify_driver FILE.json; read with tests/unit/support/vectors.h).
 * Prints each case's outcome ("tcId 1" verified, "tcId 0" not) and a summary
 * line "N cases, N mismatch" counting valid cases not verified and invalid ones
 * verified (acceptable ones may go either way). Run with and without the
 * shim preloaded: the outcome lines must be the same. */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* 1 if sig verifies over msg under the DER public key, else 0. */
static int verify(const unsigned char *der, long derlen, const unsigned char *msg, long msglen,
                  const unsigned char *sig, long siglen)
{
    const unsigned char *p = der;
    EVP_PKEY *pk = d2i_PUBKEY(NULL, &p, derlen);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = pk && md && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pk) == 1 &&
             EVP_DigestVerify(md, sig, (size_t)siglen, msg, (size_t)msglen) == 1;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pk);
    ERR_clear_error();
    return ok;
}

int main(int argc, char **argv)
{
    vec_wyc w;
    long cases = 0, mismatch = 0;
    if (driver_wyc_open(&w, argc, argv))
        return 2;
    for (const json *g; (g = vec_wyc_group(&w));) {
        size_t dl;
        unsigned char *der = vec_json_hex(g, "publicKeyDer", &dl);
        for (const json *t; (t = vec_wyc_test(&w));) {
            const char *want = json_get_str(t, "result");
            size_t ml, sl;
            unsigned char *msg = vec_json_hex(t, "msg", &ml), *sig = vec_json_hex(t, "sig", &sl);
            if (!der || !msg || !sig || !want) {
                fprintf(stderr, "bad test %d\n", vec_wyc_id(t));
                return 2;
            }
            int got = verify(der, (long)dl, msg, (long)ml, sig, (long)sl);
            printf("%d %d\n", vec_wyc_id(t), got);
            if ((!strcmp(want, "valid") && !got) || (!strcmp(want, "invalid") && got))
                mismatch++;
            cases++;
            free(msg), free(sig);
        }
        free(der);
    }
    vec_wyc_close(&w);
    printf("%ld cases, %ld mismatch\n", cases, mismatch);
    return 0;
}
