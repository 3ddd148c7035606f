/* `cryptoshim bench x25519 [-n N] [-r ROUNDS]`: in-process timings of
 * X25519 derive (the ladder on a peer's value) and keygen (x25519_base: a
 * private key's public value) for every curve implementation this CPU may
 * run (CPU features, CRYPTOSHIM_CPU, CRYPTOSHIM_KERNELS), beside the
 * system libcrypto's own: derive is EVP_PKEY_derive on a context set up
 * once (as `openssl speed ecdhx25519` does), keygen is
 * EVP_PKEY_new_raw_private_key + EVP_PKEY_get_raw_public_key (the public
 * value of a given private key, no RNG). Everything takes turns within
 * each round (interleaved, so a busy neighbour slows all alike); per
 * operation the median of the rounds' medians (TSC cycles on x86-64,
 * nanoseconds elsewhere), the rounds' range, operations per second of
 * thread CPU time, and the ratio to libcrypto's median. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "kernels/c25519/c25519.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "runtime/cpu.h"
#include "runtime/timer.h"
#include "cli.h"

#define MAX_ROUNDS 15
#define MAX_IMPLS 8

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

enum { OP_DERIVE, OP_KEYGEN, OPS };
static const char *const op_names[OPS] = {"derive", "keygen"};

/* The libcrypto side: a derive context with a fixed peer, built once. */
struct stock {
    EVP_PKEY_CTX *derive;
};

static int stock_init(struct stock *s, const uint8_t priv[32], const uint8_t peer[32])
{
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
    EVP_PKEY *p = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, 32);
    s->derive = k ? EVP_PKEY_CTX_new(k, NULL) : NULL;
    int ok = s->derive && p && EVP_PKEY_derive_init(s->derive) > 0 &&
             EVP_PKEY_derive_set_peer(s->derive, p) > 0;
    EVP_PKEY_free(k);
    EVP_PKEY_free(p);
    return ok;
}

/* One call of op; im NULL means libcrypto. Returns 0 on failure. */
static int call(const cs_c25519_impl *im, struct stock *s, int op, uint8_t out[32],
                const uint8_t priv[32], const uint8_t peer[32])
{
    if (im) {
        if (op == OP_DERIVE)
            return im->x25519(out, priv, peer);
        im->x25519_base(out, priv);
        return 1;
    }
    size_t len = 32;
    if (op == OP_DERIVE)
        return EVP_PKEY_derive(s->derive, out, &len) > 0;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
    int ok = k && EVP_PKEY_get_raw_public_key(k, out, &len) > 0;
    EVP_PKEY_free(k);
    return ok;
}

/* One round of n calls; the median ticks into *median, CPU seconds into
 * *secs. The private key varies per keygen call; derive keeps stock's
 * context's key and peer so every side computes the same secret. Returns
 * -1 when a call failed or an answer differs from want. */
static int run(const cs_c25519_impl *im, struct stock *s, int op, unsigned n, uint64_t *t,
               const uint8_t priv[32], const uint8_t peer[32], const uint8_t want[32],
               uint64_t *median, double *secs)
{
    uint8_t out[32], k[32];
    int bad = 0;
    memcpy(k, priv, 32);
    double c0 = cs_timer_thread_cpu();
    for (unsigned i = 0; i < n; i++) {
        if (op == OP_KEYGEN) {
            k[1] = (uint8_t)i;
            k[2] = (uint8_t)(i >> 8);
        }
        uint64_t t0 = cs_timer_ticks();
        bad |= !call(im, s, op, out, k, peer);
        t[i] = cs_timer_ticks() - t0;
    }
    *secs = cs_timer_thread_cpu() - c0;
    if (op == OP_DERIVE)
        bad |= memcmp(out, want, 32) != 0;
    qsort(t, n, sizeof t[0], cmp_u64);
    *median = t[n / 2];
    return bad ? -1 : 0;
}

int cli_bench_c25519(int argc, char **argv)
{
    unsigned n = 300, rounds = 5;
    for (int i = 1; i < argc; i++) {
        unsigned long v;
        if (!strcmp(argv[i], "-n") && i + 1 < argc && cli_parse_number(argv[i + 1], 1, 1000000, &v))
            n = (unsigned)v, i++;
        else if (!strcmp(argv[i], "-r") && i + 1 < argc &&
                 cli_parse_number(argv[i + 1], 1, MAX_ROUNDS, &v))
            rounds = (unsigned)v, i++;
        else {
            fprintf(stderr, "usage: cryptoshim bench x25519 [-n N] [-r ROUNDS (1-%d)]\n",
                    MAX_ROUNDS);
            return 2;
        }
    }
    /* use[0] is libcrypto (NULL) */
    const cs_c25519_impl *use[MAX_IMPLS + 1] = {NULL};
    unsigned nuse = 1;
    for (unsigned k = 0; cs_c25519_impls[k] && nuse <= MAX_IMPLS; k++) {
        const cs_c25519_impl *im = cs_c25519_impls[k];
        if (!cs_impl_usable(CS_IMPL_C25519, im))
            printf("%-12s (not usable here)\n", im->name);
        else
            use[nuse++] = im;
    }
    static const uint8_t priv[32] = {0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d,
                                     0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2, 0x66, 0x45,
                                     0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a,
                                     0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a};
    static const uint8_t peer[32] = {0xde, 0x9e, 0xdb, 0x7d, 0x7b, 0x7d, 0xc1, 0xb4,
                                     0xd3, 0x5b, 0x61, 0xc2, 0xec, 0xe4, 0x35, 0x37,
                                     0x3f, 0x83, 0x43, 0xc8, 0x5b, 0x78, 0x67, 0x4d,
                                     0xad, 0xfc, 0x7e, 0x14, 0x6f, 0x88, 0x2b, 0x4f};
    struct stock s;
    uint8_t want[32];
    size_t wl = 32;
    uint64_t *t = malloc(n * sizeof *t);
    if (!t || !stock_init(&s, priv, peer) || EVP_PKEY_derive(s.derive, want, &wl) <= 0) {
        fprintf(stderr, "bench x25519: libcrypto's X25519 is not available\n");
        free(t);
        return 1;
    }
    int status = 0;
    printf("%-12s %-8s %14s %22s %12s %10s\n", "kernel", "op", "median " CS_TIMER_TICK_UNIT,
           "range of rounds", "ops/s (cpu)", "vs stock");
    for (int op = 0; op < OPS; op++) {
        uint64_t med[MAX_IMPLS + 1][MAX_ROUNDS];
        double secs[MAX_IMPLS + 1] = {0};
        int failed[MAX_IMPLS + 1] = {0};
        for (unsigned r = 0; r < rounds; r++)
            for (unsigned k = 0; k < nuse; k++) {
                double sec;
                failed[k] |= run(use[k], &s, op, n, t, priv, peer, want, &med[k][r], &sec);
                secs[k] += sec;
            }
        for (unsigned k = 0; k < nuse; k++)
            qsort(med[k], rounds, sizeof med[k][0], cmp_u64);
        for (unsigned k = 0; k < nuse; k++) {
            const char *name = use[k] ? use[k]->name : "libcrypto";
            if (failed[k]) {
                printf("%-12s %-8s FAILED\n", name, op_names[op]);
                status = 1;
                continue;
            }
            char range[48];
            snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)med[k][0],
                     (unsigned long long)med[k][rounds - 1]);
            printf("%-12s %-8s %14llu %22s %12.0f %9.2fx\n", name, op_names[op],
                   (unsigned long long)med[k][rounds / 2], range,
                   secs[k] > 0 ? rounds * n / secs[k] : 0,
                   (double)med[0][rounds / 2] / (double)med[k][rounds / 2]);
        }
    }
    EVP_PKEY_CTX_free(s.derive);
    free(t);
    return status;
}
