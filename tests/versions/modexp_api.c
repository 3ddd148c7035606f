/* Modexp differential driver for every OpenSSL version (tests/versions):
 * RSA PKCS#1 v1.5 signing and verification, DH derivation and DSA signing and
 * verification through libcrypto's public EVP API, as an application does.
 * It uses only functions with the same name and ABI in 1.1.1, 3.x and 4.0,
 * so one source is built against 1.1.1, the system's 3.0 (run on 3.5 and 3.6
 * too) and 4.0 (mk/tests.mk).
 *
 * Usage: modexp_api [-c] [-n MSGS] [-o DSA_OUT] [-i DSA_IN] KEY...
 *   KEY is rsa:FILE, dh:FILE_A:FILE_B (two keys of one group) or dsa:FILE,
 *   PEM private keys. Prints a transcript on stdout that is the same for
 *   every correct libcrypto given the same keys and DSA_IN: the RSA
 *   signatures, the DH secrets (both directions), and every verification
 *   result (1 good, 0 bad, -1 error), on good, corrupted and wrong-message
 *   signatures. DSA signatures are randomized: they are written to DSA_OUT
 *   (one "KEY INDEX HEX" line each) and never printed; DSA_IN holds another
 *   run's, verified here as "peer" results, so two runs check each other.
 *   With -c, keys are also duplicated (EVP_PKEY_dup, 3.0 and later: built with
 *   -DMODEXP_API_DUP) and their parameters copied into an empty key
 *   (EVP_PKEY_copy_parameters, as a TLS 1.3 client does for an FFDHE key
 *   share), and the copies used: libcrypto refuses both for keys whose
 *   method is not its own, so a route must keep them working.
 *   Exit status 1 when a result is not the one a correct libcrypto gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "tests/unit/support/vectors.h"

enum { MAX_SIG = 1024, MAX_PEER = 256 };

static int failures;
static FILE *dsa_out;
static int with_copies; /* -c */

/* A DSA signature read from DSA_IN. */
struct peer_sig {
    char key[256];
    int index;
    unsigned char sig[MAX_SIG];
    size_t len;
};
static struct peer_sig peers[MAX_PEER];
static int npeers;

/* Records an unexpected result: the transcript line is still printed, the
 * exit status becomes 1. */
static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "modexp_api: %s: %d, expected %d\n", what, got, want);
        ERR_print_errors_fp(stderr);
        failures++;
    }
    ERR_clear_error();
}

/* Prints len bytes as lowercase hex to f. */
static void put_hex(FILE *f, const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        fprintf(f, "%02x", p[i]);
}

/* The key's file name without directories: the transcript's key label. */
static const char *label(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Reads a PEM private key; exits on failure (a broken set-up, not a result). */
static EVP_PKEY *load_key(const char *path)
{
    FILE *f = fopen(path, "r");
    EVP_PKEY *key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
    if (f)
        fclose(f);
    if (!key) {
        fprintf(stderr, "modexp_api: cannot read %s\n", path);
        ERR_print_errors_fp(stderr);
        exit(2);
    }
    return key;
}

/* Message number i: a few dozen bytes that differ per index. */
static size_t message(int i, unsigned char *buf, size_t cap)
{
    int n = snprintf((char *)buf, cap, "cryptoshim versions differential message %d", i);
    return (size_t)n;
}

/* Signs msg with SHA-256; returns the length, 0 on failure. */
static size_t sign(EVP_PKEY *key, const unsigned char *msg, size_t mlen, unsigned char *sig)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t len = MAX_SIG;
    int ok = ctx && EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
             EVP_DigestSign(ctx, sig, &len, msg, mlen) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? len : 0;
}

/* Verifies a SHA-256 signature: 1 good, 0 bad, -1 any error. */
static int verify(EVP_PKEY *key, const unsigned char *msg, size_t mlen,
                  const unsigned char *sig, size_t slen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int r = -1;
    if (ctx && EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, key) == 1)
        r = EVP_DigestVerify(ctx, sig, slen, msg, mlen);
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    return r == 1 ? 1 : r == 0 ? 0 : -1;
}

/* Prints and checks the verification of sig, of sig with one bit flipped, and
 * of sig against another message. kind is "own" or "peer" (DSA) or "" (RSA). */
static void verify_all(EVP_PKEY *key, const char *name, const char *kind, int i,
                       const unsigned char *sig, size_t slen)
{
    unsigned char msg[128], other[128], bad[MAX_SIG];
    size_t mlen = message(i, msg, sizeof msg), olen = message(i + 1000, other, sizeof other);
    int r;

    r = verify(key, msg, mlen, sig, slen);
    printf("%s verify%s %d %d\n", name, kind, i, r);
    expect(r, 1, "verify a good signature");

    memcpy(bad, sig, slen);
    bad[(size_t)(i * 7 + 3) % slen] ^= (unsigned char)(1u << (i % 8));
    r = verify(key, msg, mlen, bad, slen);
    printf("%s verify%s-corrupt %d %d\n", name, kind, i, r);
    expect(r != 1, 1, "a corrupted signature is rejected");

    r = verify(key, other, olen, sig, slen);
    printf("%s verify%s-othermsg %d %d\n", name, kind, i, r);
    expect(r, 0, "a signature of another message is rejected");
}

/* A duplicate of key (EVP_PKEY_dup where built with it), or NULL; prints
 * and checks whether duplication worked. */
static EVP_PKEY *duplicate(EVP_PKEY *key, const char *name)
{
#ifdef MODEXP_API_DUP
    if (!with_copies)
        return NULL;
    EVP_PKEY *dup = EVP_PKEY_dup(key);
    printf("%s dup %d\n", name, dup != NULL);
    expect(dup != NULL, 1, "EVP_PKEY_dup");
    return dup;
#else
    (void)key;
    (void)name;
    return NULL;
#endif
}

/* A fresh key generated from key's parameters copied into an empty key (the
 * TLS 1.3 FFDHE key-share path); prints and checks each step. */
static EVP_PKEY *from_copied_params(EVP_PKEY *key, const char *name)
{
    if (!with_copies)
        return NULL;
    EVP_PKEY *params = EVP_PKEY_new(), *fresh = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    int copied = params && EVP_PKEY_copy_parameters(params, key) == 1;
    printf("%s copy-parameters %d\n", name, copied);
    expect(copied, 1, "EVP_PKEY_copy_parameters");
    if (copied && (ctx = EVP_PKEY_CTX_new(params, NULL)) && EVP_PKEY_keygen_init(ctx) == 1)
        EVP_PKEY_keygen(ctx, &fresh);
    printf("%s keygen-from-copied-parameters %d\n", name, fresh != NULL);
    expect(fresh != NULL, 1, "key generation from copied parameters");
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(params);
    return fresh;
}

/* Signs messages 0 to msgs-1 with key, writes each signature as a line
 * "NAME sign INDEX HEX" on stdout (RSA: deterministic, in the transcript) or
 * "NAME INDEX HEX" to DSA_OUT if given (DSA: randomized, never printed), and
 * verifies it (verify_all, kind "" for RSA, "-own" for DSA). */
static void sign_all(EVP_PKEY *key, const char *name, int msgs, int dsa)
{
    FILE *out = dsa ? dsa_out : stdout;
    for (int i = 0; i < msgs; i++) {
        unsigned char msg[128], sig[MAX_SIG];
        size_t mlen = message(i, msg, sizeof msg), slen = sign(key, msg, mlen, sig);
        expect(slen > 0, 1, dsa ? "DSA sign" : "RSA sign");
        if (!slen)
            continue;
        if (out) {
            fprintf(out, dsa ? "%s %d " : "%s sign %d ", name, i);
            put_hex(out, sig, slen);
            fprintf(out, "\n");
        }
        verify_all(key, name, dsa ? "-own" : "", i, sig, slen);
    }
}

/* RSA: deterministic signatures printed, then verified. */
static void run_rsa(const char *path, int msgs)
{
    EVP_PKEY *key = load_key(path);
    const char *name = label(path);
    sign_all(key, name, msgs, 0);
    EVP_PKEY *dup = duplicate(key, name);
    if (dup) {
        unsigned char msg[128], a[MAX_SIG], b[MAX_SIG];
        size_t mlen = message(0, msg, sizeof msg), la = sign(key, msg, mlen, a),
               lb = sign(dup, msg, mlen, b);
        int same = la && la == lb && !memcmp(a, b, la);
        printf("%s dup-signs-the-same %d\n", name, same);
        expect(same, 1, "the duplicate signs like the key");
        EVP_PKEY_free(dup);
    }
    EVP_PKEY_free(key);
}

/* Derives the DH secret of own with peer's public key; returns its length. */
static size_t derive(EVP_PKEY *own, EVP_PKEY *peer, unsigned char *out)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(own, NULL);
    size_t len = MAX_SIG;
    int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
             EVP_PKEY_derive(ctx, out, &len) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok ? len : 0;
}

/* DH: both parties' secrets printed; they must agree. */
static void run_dh(const char *path_a, const char *path_b)
{
    EVP_PKEY *a = load_key(path_a), *b = load_key(path_b);
    unsigned char sab[MAX_SIG], sba[MAX_SIG];
    size_t lab = derive(a, b, sab), lba = derive(b, a, sba);
    expect(lab > 0 && lba > 0, 1, "DH derive");
    printf("%s derive %s ", label(path_a), label(path_b));
    put_hex(stdout, sab, lab);
    printf("\n%s derive %s ", label(path_b), label(path_a));
    put_hex(stdout, sba, lba);
    printf("\n");
    expect(lab == lba && !memcmp(sab, sba, lab), 1, "both DH parties derive the same secret");

    EVP_PKEY *dup = duplicate(a, label(path_a));
    if (dup) {
        size_t ld = derive(dup, b, sba);
        int same = ld && ld == lab && !memcmp(sab, sba, ld);
        printf("%s dup-derives-the-same %d\n", label(path_a), same);
        expect(same, 1, "the duplicate derives like the key");
        EVP_PKEY_free(dup);
    }
    /* A new party in the same group, as a TLS 1.3 client's key share. */
    EVP_PKEY *fresh = from_copied_params(b, label(path_b));
    if (fresh) {
        size_t lf = derive(fresh, a, sab), lg = derive(a, fresh, sba);
        int agree = lf && lf == lg && !memcmp(sab, sba, lf);
        printf("%s fresh-party-agrees %d\n", label(path_b), agree);
        expect(agree, 1, "a party from copied parameters agrees");
        EVP_PKEY_free(fresh);
    }
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

/* DSA: fresh signatures go to DSA_OUT and are verified here; DSA_IN's
 * signatures for this key are verified too. */
static void run_dsa(const char *path, int msgs)
{
    EVP_PKEY *key = load_key(path);
    const char *name = label(path);
    sign_all(key, name, msgs, 1);
    for (int p = 0; p < npeers; p++)
        if (!strcmp(peers[p].key, name))
            verify_all(key, name, "-peer", peers[p].index, peers[p].sig, peers[p].len);
    /* The duplicate's and a fresh key's (same domain) signatures verify. */
    EVP_PKEY *copies[2] = {duplicate(key, name), from_copied_params(key, name)};
    for (int c = 0; c < 2; c++) {
        unsigned char msg[128], sig[MAX_SIG];
        size_t mlen = message(0, msg, sizeof msg), slen;
        if (!copies[c])
            continue;
        slen = sign(copies[c], msg, mlen, sig);
        int ok = slen && verify(copies[c], msg, mlen, sig, slen) == 1 &&
                 (c == 1 || verify(key, msg, mlen, sig, slen) == 1);
        printf("%s %s-signs-and-verifies %d\n", name, c ? "fresh" : "dup", ok);
        expect(ok, 1, "a copied key signs and verifies");
        EVP_PKEY_free(copies[c]);
    }
    EVP_PKEY_free(key);
}

/* Reads DSA_IN ("KEY INDEX HEX" lines) into peers. */
static void read_peers(const char *path)
{
    FILE *f = fopen(path, "r");
    static char hex[2 * MAX_SIG + 2];
    if (!f) {
        fprintf(stderr, "modexp_api: cannot read %s\n", path);
        exit(2);
    }
    while (npeers < MAX_PEER) {
        struct peer_sig *p = &peers[npeers];
        if (fscanf(f, "%255s %d %2049s", p->key, &p->index, hex) != 3)
            break;
        long n = vec_unhex(p->sig, sizeof p->sig, hex, strlen(hex));
        if (n < 0)
            exit(2);
        p->len = (size_t)n;
        if (p->len)
            npeers++;
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int msgs = 3, a = 1;
    for (; a < argc && !strcmp(argv[a], "-c"); a++)
        with_copies = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (!strcmp(argv[a], "-n")) {
            msgs = atoi(argv[a + 1]);
        } else if (!strcmp(argv[a], "-o")) {
            if (!(dsa_out = fopen(argv[a + 1], "w")))
                return perror(argv[a + 1]), 2;
        } else if (!strcmp(argv[a], "-i")) {
            read_peers(argv[a + 1]);
        } else {
            break;
        }
    }
    if (a >= argc || msgs < 1 || msgs > 100) {
        fprintf(stderr, "usage: modexp_api [-c] [-n MSGS] [-o DSA_OUT] [-i DSA_IN] rsa:F|dh:A:B|dsa:F...\n");
        return 2;
    }
    for (; a < argc; a++) {
        char *arg = argv[a], *colon = strchr(arg, ':');
        if (!colon)
            return fprintf(stderr, "modexp_api: bad key %s\n", arg), 2;
        *colon = '\0';
        if (!strcmp(arg, "rsa")) {
            run_rsa(colon + 1, msgs);
        } else if (!strcmp(arg, "dsa")) {
            run_dsa(colon + 1, msgs);
        } else if (!strcmp(arg, "dh") && strchr(colon + 1, ':')) {
            char *b = strchr(colon + 1, ':');
            *b = '\0';
            run_dh(colon + 1, b + 1);
        } else {
            return fprintf(stderr, "modexp_api: bad key kind %s\n", arg), 2;
        }
    }
    if (dsa_out && fclose(dsa_out) != 0)
        return perror("DSA_OUT"), 2;
    return failures ? 1 : 0;
}
