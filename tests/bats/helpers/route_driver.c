/* Drives the method route from an application's side (linked with the
 * system libcrypto). Usage: route_driver MODE KEY.pem, MODE one of
 *   plain      read the key, sign;                       prints the signature
 *   own-before set the application's own default RSA method, then read the
 *              key and sign; prints the signature and "own method calls N"
 *   own-after  OPENSSL_init_crypto first (the shim installs its methods),
 *              then the application's own method, then read and sign
 *   threads    8 threads race the first call (each reads the key and signs);
 *              prints each thread's signature
 *   fork       init, read, then fork: the child signs, then the parent;
 *              prints both signatures
 *   older      the first OpenSSL call is EVP_PKEY_Q_keygen (not a trigger):
 *              that key signs through EVP_PKEY_CTX_new (the trigger) and
 *              verifies ("older key ok"), then the key file is read and
 *              signed as in plain
 *   dup        as plain, but signs with EVP_PKEY_dup of the key read (libcrypto
 *              refuses to duplicate a key it takes for foreign)
 *   legacy     the first OpenSSL call is PEM_read_RSAPrivateKey, the
 *              signature RSA_sign over SHA-256 (same bytes as plain)
 * Signatures are RSA PKCS#1 v1.5 over SHA-256 of a fixed message: the same
 * key gives the same bytes, shim or not. Exit 0 when every step worked. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/obj_mac.h>
#include <openssl/rsa.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *key_path;
static int own_calls;
static int sign_with_dup; /* mode dup: sign with a duplicate of the key read */

/* The application's own RSA bn_mod_exp: counts, then does what stock does. */
static int own_exp(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx,
                   BN_MONT_CTX *mont)
{
    __atomic_add_fetch(&own_calls, 1, __ATOMIC_RELAXED);
    return BN_mod_exp_mont(r, a, p, m, ctx, mont);
}

static void set_own_method(void)
{
    RSA_METHOD *m = RSA_meth_dup(RSA_PKCS1_OpenSSL());
    RSA_meth_set_bn_mod_exp(m, own_exp);
    RSA_set_default_method(m);
}

/* A signer reads the key from an open PEM file and signs the fixed message:
 * sig has *len bytes of room, *len is set to the signature's length. */
typedef int signer(FILE *key, unsigned char *sig, size_t *len);

/* PEM_read_PrivateKey (mode dup: a duplicate of that key), then
 * EVP_DigestSign over SHA-256. */
static int sign_evp(FILE *f, unsigned char *sig, size_t *len)
{
    EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    if (k && sign_with_dup) {
        EVP_PKEY *d = EVP_PKEY_dup(k);
        EVP_PKEY_free(k);
        k = d;
    }
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = k && md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, k) > 0 &&
             EVP_DigestSign(md, sig, len, (const unsigned char *)"cryptoshim", 10) > 0;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(k);
    return ok;
}

/* The legacy API: PEM_read_RSAPrivateKey, then RSA_sign (sig must have room
 * for RSA_size bytes: 1024 covers every test key). */
static int sign_legacy(FILE *f, unsigned char *sig, size_t *len)
{
    RSA *rsa = PEM_read_RSAPrivateKey(f, NULL, NULL, NULL);
    unsigned char md[32];
    unsigned int n = 0;
    int ok = rsa && EVP_Digest("cryptoshim", 10, md, NULL, EVP_sha256(), NULL) &&
             RSA_sign(NID_sha256, md, sizeof md, sig, &n, rsa);
    RSA_free(rsa);
    *len = n;
    return ok;
}

/* Opens the key file and signs with sign; the signature in hex into out. 0
 * when a step failed or the hex does not fit. */
static int sign_hex(signer *sign, char *out, size_t outlen)
{
    FILE *f = fopen(key_path, "r");
    if (!f)
        return 0;
    unsigned char sig[1024];
    size_t len = sizeof sig;
    int ok = sign(f, sig, &len);
    fclose(f);
    if (!ok || len * 2 + 1 > outlen)
        return 0;
    for (size_t i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", sig[i]);
    return 1;
}

/* Signs with sign and prints one line, PREFIX then the hex signature or
 * FAILED; returns whether it signed. */
static int print_signature(const char *prefix, signer *sign)
{
    static char hex[2100];
    int ok = sign_hex(sign, hex, sizeof hex);
    printf("%s%s\n", prefix, ok ? hex : "FAILED");
    return ok;
}

static void *thread_main(void *arg)
{
    return sign_hex(sign_evp, arg, 2100) ? arg : NULL;
}

int main(int argc, char **argv)
{
    static char sig[8][2100];
    if (argc < 3)
        return 2;
    const char *mode = argv[1];
    key_path = argv[2];
    if (!strcmp(mode, "threads")) {
        pthread_t t[8];
        int bad = 0;
        for (int i = 0; i < 8; i++)
            pthread_create(&t[i], NULL, thread_main, sig[i]);
        for (int i = 0; i < 8; i++) {
            void *r;
            pthread_join(t[i], &r);
            bad += !r;
            printf("%s\n", r ? sig[i] : "FAILED");
        }
        return bad ? 1 : 0;
    }
    if (!strcmp(mode, "fork")) {
        OPENSSL_init_crypto(0, NULL);
        fflush(stdout);
        pid_t p = fork();
        if (p == 0) {
            int ok = print_signature("child ", sign_evp);
            fflush(stdout);
            _exit(ok ? 0 : 1);
        }
        int st = 0;
        waitpid(p, &st, 0);
        int ok = print_signature("parent ", sign_evp);
        return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
    }
    if (!strcmp(mode, "older")) {
        EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
        unsigned char md[32] = {7}, s2[512];
        size_t n = sizeof s2;
        EVP_PKEY_CTX *c = k ? EVP_PKEY_CTX_new(k, NULL) : NULL;
        int ok = c && EVP_PKEY_sign_init(c) > 0 && EVP_PKEY_sign(c, s2, &n, md, sizeof md) > 0 &&
                 EVP_PKEY_verify_init(c) > 0 && EVP_PKEY_verify(c, s2, n, md, sizeof md) == 1;
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(k);
        printf("older key %s\n", ok ? "ok" : "FAILED");
        int ok2 = print_signature("", sign_evp);
        return ok && ok2 ? 0 : 1;
    }
    if (!strcmp(mode, "legacy"))
        return print_signature("", sign_legacy) ? 0 : 1;
    if (!strcmp(mode, "own-before"))
        set_own_method();
    sign_with_dup = !strcmp(mode, "dup");
    if (!strcmp(mode, "own-after")) {
        OPENSSL_init_crypto(0, NULL);
        set_own_method();
    }
    if (!print_signature("", sign_evp))
        return 1;
    if (strcmp(mode, "plain") && strcmp(mode, "dup"))
        printf("own method calls %d\n", own_calls);
    return 0;
}
