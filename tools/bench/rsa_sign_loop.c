/* RSA signing (or verification) end to end in thread CPU time: one process
 * signs a SHA-256 digest with EVP_PKEY_sign (PKCS#1 v1.5) under a PEM key,
 * 10 times untimed, then CALLS times, each call timed alone. Run it stock
 * and with the shim preloaded, alternating (tools/bench/bench-rsa-sign.sh):
 * the per-call minimum is the undisturbed cost, which on a shared machine
 * resolves what calibrate's batch medians and `openssl speed` cannot
 * (docs/benchmarks.md, "RSA signing end to end in CPU time on Zen 3").
 *
 * Build: make bench-tools (build/bench/rsa_sign_loop, the system's
 * libcrypto; rsa_sign_loop40 against build/openssl40's libcrypto.so.4, run
 * through build/openssl40/bin/run).
 * Usage: rsa_sign_loop [-n CALLS] [-V] KEY.pem  (-V: time EVP_PKEY_verify)
 * Prints one line: minimum, 10th and 25th percentile, median and mean, in
 * microseconds of thread CPU time per call. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/timer.h"

#define WARMUP 10

/* qsort order for doubles. */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A signing or verification context for pk with PKCS#1 v1.5 and SHA-256,
 * or NULL. */
static EVP_PKEY_CTX *pkcs1_ctx(EVP_PKEY *pk, int verify)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
    if (!c || (verify ? EVP_PKEY_verify_init(c) : EVP_PKEY_sign_init(c)) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0 ||
        EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0) {
        EVP_PKEY_CTX_free(c);
        return NULL;
    }
    return c;
}

int main(int argc, char **argv)
{
    int calls = 100, verify = 0, opt;
    while ((opt = getopt(argc, argv, "n:V")) != -1) {
        if (opt == 'n')
            calls = atoi(optarg);
        else if (opt == 'V')
            verify = 1;
        else
            return 2;
    }
    if (optind != argc - 1 || calls < 1) {
        fprintf(stderr, "usage: rsa_sign_loop [-n CALLS] [-V] KEY.pem\n");
        return 2;
    }
    FILE *f = fopen(argv[optind], "r");
    EVP_PKEY *pk = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
    if (f)
        fclose(f);
    EVP_PKEY_CTX *sc = pk ? pkcs1_ctx(pk, 0) : NULL, *vc = pk ? pkcs1_ctx(pk, 1) : NULL;
    unsigned char md[32], sig[1024];
    size_t siglen = sizeof sig;
    memset(md, 0x5a, sizeof md);
    double *t = malloc(sizeof *t * (size_t)calls), sum = 0;
    if (!sc || !vc || !t || EVP_PKEY_sign(sc, sig, &siglen, md, sizeof md) <= 0) {
        fprintf(stderr, "rsa_sign_loop: cannot sign with %s\n", argv[optind]);
        return 1;
    }
    for (int i = -WARMUP; i < calls; i++) {
        size_t len = sizeof sig;
        double t0 = cs_timer_thread_cpu();
        int ok = verify ? EVP_PKEY_verify(vc, sig, siglen, md, sizeof md) == 1
                        : EVP_PKEY_sign(sc, sig, &len, md, sizeof md) > 0;
        double dt = (cs_timer_thread_cpu() - t0) * 1e6;
        if (!ok) {
            fprintf(stderr, "rsa_sign_loop: call failed\n");
            return 1;
        }
        if (i >= 0)
            t[i] = dt, sum += dt;
    }
    qsort(t, (size_t)calls, sizeof *t, cmp_double);
    printf("%.1f %.1f %.1f %.1f %.1f\n", t[0], t[calls / 10], t[calls / 4], t[calls / 2],
           sum / calls);
    free(t);
    EVP_PKEY_CTX_free(sc);
    EVP_PKEY_CTX_free(vc);
    EVP_PKEY_free(pk);
    return 0;
}
