/* A program that loads a libcrypto privately (dlopen RTLD_LOCAL) from the
 * path given, as a bundled Python wheel does with libcrypto-9a1b2c3d.so.3,
 * and uses it only through dlsym on its handle: RSA-2048 key generation,
 * an RSA signature verified, and P-256 key generation. Prints one line per
 * step ("rsa keygen ok", ...); exits 0 only when all worked. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/objects.h>
#include <stdio.h>

#define SYM(name) __typeof__(&name) p_##name = (__typeof__(&name))dlsym(h, #name)

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    SYM(EVP_PKEY_CTX_new_id);
    SYM(EVP_PKEY_CTX_new);
    SYM(EVP_PKEY_CTX_free);
    SYM(EVP_PKEY_keygen_init);
    SYM(EVP_PKEY_keygen);
    SYM(EVP_PKEY_CTX_set_rsa_keygen_bits);
    SYM(EVP_PKEY_CTX_set_ec_paramgen_curve_nid);
    SYM(EVP_PKEY_sign_init);
    SYM(EVP_PKEY_sign);
    SYM(EVP_PKEY_verify_init);
    SYM(EVP_PKEY_verify);
    SYM(EVP_PKEY_free);
    if (!p_EVP_PKEY_CTX_new_id || !p_EVP_PKEY_keygen || !p_EVP_PKEY_CTX_set_rsa_keygen_bits ||
        !p_EVP_PKEY_CTX_set_ec_paramgen_curve_nid || !p_EVP_PKEY_sign || !p_EVP_PKEY_verify)
        return 2;
    int fails = 0;
    EVP_PKEY *rsa = NULL, *ec = NULL;
    EVP_PKEY_CTX *c = p_EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    int ok = c && p_EVP_PKEY_keygen_init(c) > 0 && p_EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048) > 0 &&
             p_EVP_PKEY_keygen(c, &rsa) > 0;
    printf("rsa keygen %s\n", ok ? "ok" : "FAILED");
    fails += !ok;
    p_EVP_PKEY_CTX_free(c);
    if (ok) {
        unsigned char md[32] = {1, 2, 3}, sig[512];
        size_t siglen = sizeof sig;
        c = p_EVP_PKEY_CTX_new(rsa, NULL);
        ok = c && p_EVP_PKEY_sign_init(c) > 0 && p_EVP_PKEY_sign(c, sig, &siglen, md, sizeof md) > 0 &&
             p_EVP_PKEY_verify_init(c) > 0 && p_EVP_PKEY_verify(c, sig, siglen, md, sizeof md) == 1;
        printf("rsa sign and verify %s\n", ok ? "ok" : "FAILED");
        fails += !ok;
        p_EVP_PKEY_CTX_free(c);
    }
    c = p_EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
    ok = c && p_EVP_PKEY_keygen_init(c) > 0 &&
         p_EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, NID_X9_62_prime256v1) > 0 &&
         p_EVP_PKEY_keygen(c, &ec) > 0;
    printf("ec keygen %s\n", ok ? "ok" : "FAILED");
    fails += !ok;
    p_EVP_PKEY_CTX_free(c);
    p_EVP_PKEY_free(rsa);
    p_EVP_PKEY_free(ec);
    return fails ? 1 : 0;
}
