/* Verifies DSA signatures (SHA-256) read from stdin, one case a line:
 * "tcId pubkey-DER-hex msg-hex sig-hex expected" ("-" for empty hex). Prints
 * each case's outcome ("tcId 1" verified, "tcId 0" not) and a summary line
 * "N cases, N mismatch" counting valid cases not verified and invalid ones
 * verified (acceptable ones may go either way). Run with and without the
 * shim preloaded: the outcome lines must be the same. */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decodes hex (or "-" as empty) into a new buffer; returns its length, or
 * -1 on bad input. */
static long unhex(const char *hex, unsigned char **out)
{
    size_t n = strcmp(hex, "-") ? strlen(hex) : 0;
    *out = malloc(n / 2 + 1);
    if (!*out || n % 2)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        (*out)[i] = (unsigned char)v;
    }
    return (long)(n / 2);
}

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

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    long cases = 0, mismatch = 0;
    while (getline(&line, &cap, stdin) > 0) {
        char *save = NULL, *id = strtok_r(line, " \n", &save), *dh = strtok_r(NULL, " \n", &save),
             *mh = strtok_r(NULL, " \n", &save), *sh = strtok_r(NULL, " \n", &save),
             *want = strtok_r(NULL, " \n", &save);
        unsigned char *der = NULL, *msg = NULL, *sig = NULL;
        long dl, ml, sl;
        if (!want || (dl = unhex(dh, &der)) < 0 || (ml = unhex(mh, &msg)) < 0 ||
            (sl = unhex(sh, &sig)) < 0) {
            fprintf(stderr, "bad input line\n");
            return 2;
        }
        int got = verify(der, dl, msg, ml, sig, sl);
        printf("%s %d\n", id, got);
        if ((!strcmp(want, "valid") && !got) || (!strcmp(want, "invalid") && got))
            mismatch++;
        cases++;
        free(der), free(msg), free(sig);
    }
    free(line);
    printf("%ld cases, %ld mismatch\n", cases, mismatch);
    return 0;
}
