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
#include "bench_stock_c25519.h"
#include "cli.h"

#define MAX_ROUNDS CLI_BENCH_MAX_ROUNDS
#define MAX_IMPLS (CLI_BENCH_MAX_IMPLS - 1)

enum { OP_DERIVE, OP_KEYGEN, OPS };
static const char *const op_names[OPS] = {"derive", "keygen"};

/* One call of op; im NULL means libcrypto (derive: on the context set up
 * once with priv and peer). Returns 0 on failure. */
static int call(const cs_c25519_impl *im, EVP_PKEY_CTX *derive, int op, uint8_t out[32],
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
        return EVP_PKEY_derive(derive, out, &len) > 0;
    return cli_stock_public(EVP_PKEY_X25519, out, priv);
}

/* A table's set-up: the implementations (use[0] NULL: libcrypto), the
 * operation, the key, the peer and the secret derive must give. */
struct bench {
    const void *use[MAX_IMPLS + 1];
    EVP_PKEY_CTX *derive;
    int op;
    const uint8_t *priv, *peer, *want;
};

/* One round of n calls by b->use[ik] (cli_bench_fn). The private key
 * varies per keygen call; derive keeps stock's context's key and peer so
 * every side computes the same secret. -1 when a call failed or an answer
 * differs from want. */
static int run(void *vb, unsigned ik, unsigned n, uint64_t *t, double *secs)
{
    struct bench *b = vb;
    const cs_c25519_impl *im = b->use[ik];
    int op = b->op;
    const uint8_t *peer = b->peer;
    uint8_t out[32], k[32];
    int bad = 0;
    memcpy(k, b->priv, 32);
    double c0 = cs_timer_thread_cpu();
    for (unsigned i = 0; i < n; i++) {
        if (op == OP_KEYGEN) {
            k[1] = (uint8_t)i;
            k[2] = (uint8_t)(i >> 8);
        }
        uint64_t t0 = cs_timer_ticks();
        bad |= !call(im, b->derive, op, out, k, peer);
        t[i] = cs_timer_ticks() - t0;
    }
    *secs = cs_timer_thread_cpu() - c0;
    if (op == OP_DERIVE)
        bad |= memcmp(out, b->want, 32) != 0;
    return bad ? -1 : 0;
}

int cli_bench_c25519(int argc, char **argv)
{
    unsigned n = 300, rounds = 5;
    if (!cli_bench_args(argc, argv, &n, &rounds, MAX_ROUNDS, NULL, 0)) {
        fprintf(stderr, "usage: cryptoshim bench x25519 [-n N] [-r ROUNDS (1-%d)]\n", MAX_ROUNDS);
        return 2;
    }
    /* use[0] is libcrypto (NULL) */
    struct bench b = {.use = {NULL}};
    const void **use = b.use;
    unsigned nuse = 1 + cli_bench_impls(CS_IMPL_C25519, use + 1, MAX_IMPLS, 12, NULL);
    static const uint8_t priv[32] = {0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d,
                                     0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2, 0x66, 0x45,
                                     0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a,
                                     0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a};
    static const uint8_t peer[32] = {0xde, 0x9e, 0xdb, 0x7d, 0x7b, 0x7d, 0xc1, 0xb4,
                                     0xd3, 0x5b, 0x61, 0xc2, 0xec, 0xe4, 0x35, 0x37,
                                     0x3f, 0x83, 0x43, 0xc8, 0x5b, 0x78, 0x67, 0x4d,
                                     0xad, 0xfc, 0x7e, 0x14, 0x6f, 0x88, 0x2b, 0x4f};
    uint8_t want[32];
    size_t wl = 32;
    uint64_t *t = malloc(n * sizeof *t);
    b.priv = priv, b.peer = peer, b.want = want;
    b.derive = cli_stock_x25519_derive_ctx(priv, peer);
    if (!t || !b.derive || EVP_PKEY_derive(b.derive, want, &wl) <= 0) {
        fprintf(stderr, "bench x25519: libcrypto's X25519 is not available\n");
        EVP_PKEY_CTX_free(b.derive);
        free(t);
        return 1;
    }
    int status = 0;
    printf("%-12s %-8s %14s %22s %12s %10s\n", "kernel", "op", "median " CS_TIMER_TICK_UNIT,
           "range of rounds", "ops/s (cpu)", "vs stock");
    for (b.op = 0; b.op < OPS; b.op++) {
        cli_bench_row row[MAX_IMPLS + 1];
        status |= cli_bench_rounds(run, &b, nuse, rounds, n, t, row);
        for (unsigned k = 0; k < nuse; k++) {
            const char *name = use[k] ? cs_impl_name(use[k]) : "libcrypto", *op = op_names[b.op];
            if (row[k].failed)
                printf("%-12s %-8s FAILED\n", name, op);
            else
                printf("%-12s %-8s %14llu %22s %12.0f %9.2fx\n", name, op,
                       (unsigned long long)row[k].median, row[k].range, row[k].per_sec,
                       (double)row[0].median / (double)row[k].median);
        }
    }
    EVP_PKEY_CTX_free(b.derive);
    free(t);
    return status;
}
