/* `cryptoshim bench ed25519 [-n N] [-r ROUNDS] [-m BYTES] [-p]`: in-process
 * timings of Ed25519 and X25519 key generation, each of this CPU's curve
 * implementations (kernels/c25519) beside stock libcrypto's EVP calls in
 * the same program, taking turns within each round (interleaved, so a busy
 * neighbour slows all alike):
 *   pubkey    public key from a private key (stock: EVP_PKEY_new_raw_private_key,
 *             which derives it, and the key's release)
 *   sign      one signature of an M-byte message (stock: EVP_DigestSign on a
 *             context set up once, as `openssl speed ed25519` does)
 *   sign+key  a signature from the raw private key, as OpenSSH 10.3+ makes
 *             each host-key signature (stock: new raw key, DigestSignInit,
 *             DigestSign; ours: pubkey, then sign)
 *   verify    one verification (stock: EVP_DigestVerify on a set-up context)
 *   x25519kg  an X25519 key pair from 32 random bytes (stock: EVP_PKEY_keygen;
 *             ours: RAND_priv_bytes, then x25519_base)
 * Per operation the median of the rounds' medians in TSC cycles (ns off
 * x86-64), the rounds' range, and stock's median over ours. The kernels
 * hash with libcrypto's SHA512_Transform, as the provider has them do;
 * -p keeps their portable SHA-512. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA512_Transform, the kernels' hash hook */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_stock_c25519.h"
#include "cli.h"
#include "kernels/c25519/c25519.h"
#include "kernels/c25519/sha512.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "runtime/timer.h"

#define MAX_ROUNDS CLI_BENCH_MAX_ROUNDS
#define MAX_IMPLS (CLI_BENCH_MAX_IMPLS - 1)

enum { OP_PUBKEY, OP_SIGN, OP_SIGNKEY, OP_VERIFY, OP_X25519KG, OPS };
static const char *const op_names[OPS] = {"pubkey", "sign", "sign+key", "verify", "x25519kg"};

struct setup {
    uint8_t sk[32], pk[32], sig[64];
    uint8_t *msg;
    size_t mlen;
    EVP_MD_CTX *sctx, *vctx;
    EVP_PKEY_CTX *kctx;
};

/* One call of op by stock libcrypto; 0 on failure. */
static int stock_op(struct setup *s, int op)
{
    uint8_t sig[64], pk[32];
    size_t len = 64;
    int ok;
    switch (op) {
    case OP_PUBKEY:
        return cli_stock_public(EVP_PKEY_ED25519, pk, s->sk);
    case OP_SIGN:
        return EVP_DigestSign(s->sctx, sig, &len, s->msg, s->mlen) == 1;
    case OP_SIGNKEY: {
        EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, s->sk, 32);
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        ok = k && c && EVP_DigestSignInit(c, NULL, NULL, NULL, k) == 1 &&
             EVP_DigestSign(c, sig, &len, s->msg, s->mlen) == 1;
        EVP_MD_CTX_free(c);
        EVP_PKEY_free(k);
        return ok;
    }
    case OP_VERIFY:
        return EVP_DigestVerify(s->vctx, s->sig, 64, s->msg, s->mlen) == 1;
    default: {
        EVP_PKEY *k = NULL;
        ok = EVP_PKEY_keygen(s->kctx, &k) == 1;
        EVP_PKEY_free(k);
        return ok;
    }
    }
}

/* One call of op by implementation im; 0 on failure. */
static int our_op(const cs_c25519_impl *im, struct setup *s, int op)
{
    uint8_t sig[64], pk[32], xk[32], xp[32];
    switch (op) {
    case OP_PUBKEY:
        im->ed25519_pubkey(pk, s->sk);
        return 1;
    case OP_SIGN:
        im->ed25519_sign(sig, NULL, 0, s->msg, s->mlen, s->sk, s->pk);
        return 1;
    case OP_SIGNKEY:
        im->ed25519_pubkey(pk, s->sk);
        im->ed25519_sign(sig, NULL, 0, s->msg, s->mlen, s->sk, pk);
        return 1;
    case OP_VERIFY:
        return im->ed25519_verify(s->sig, NULL, 0, s->msg, s->mlen, s->pk) == 1;
    default:
        if (RAND_priv_bytes(xk, 32) != 1)
            return 0;
        im->x25519_base(xp, xk);
        return 1;
    }
}

/* Whether a curve implementation has the Ed25519 entries. */
static int has_ed25519(const void *impl)
{
    return ((const cs_c25519_impl *)impl)->ed25519_pubkey != NULL;
}

/* A table's implementations (use[0] NULL: stock), set-up and operation. */
struct bench {
    const void *use[MAX_IMPLS + 1];
    struct setup s;
    int op;
};

/* n calls of the operation by b->use[k] (cli_bench_fn); -1 on a failure. */
static int run(void *vb, unsigned k, unsigned n, uint64_t *t, double *secs)
{
    struct bench *b = vb;
    const cs_c25519_impl *im = b->use[k];
    struct setup *s = &b->s;
    int ok = 1, op = b->op;
    (void)secs;
    for (unsigned i = 0; i < n; i++) {
        s->sk[0] = (uint8_t)i; /* a different key each call: no caching anywhere */
        uint64_t t0 = cs_timer_ticks();
        ok &= im ? our_op(im, s, op) : stock_op(s, op);
        t[i] = cs_timer_ticks() - t0;
    }
    s->sk[0] = 0;
    return ok ? 0 : -1;
}

static int setup(struct setup *s, size_t mlen)
{
    size_t len = 64;
    memset(s, 0, sizeof *s);
    s->mlen = mlen;
    s->msg = malloc(mlen + 1);
    if (!s->msg || RAND_bytes(s->sk, 32) != 1 || RAND_bytes(s->msg, (int)mlen + 1) != 1 ||
        !cli_stock_public(EVP_PKEY_ED25519, s->pk, s->sk))
        return 0;
    s->sctx = cli_stock_ed25519_md_ctx(1, s->sk);
    s->vctx = cli_stock_ed25519_md_ctx(0, s->pk);
    s->kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
    return s->sctx && s->vctx && s->kctx &&
           EVP_DigestSign(s->sctx, s->sig, &len, s->msg, mlen) == 1 &&
           EVP_PKEY_keygen_init(s->kctx) == 1;
}

static void teardown(struct setup *s)
{
    EVP_MD_CTX_free(s->sctx);
    EVP_MD_CTX_free(s->vctx);
    EVP_PKEY_CTX_free(s->kctx);
    free(s->msg);
}

int cli_bench_ed25519(int argc, char **argv)
{
    unsigned n = 2000, rounds = 5;
    unsigned long mlen = 64;
    unsigned long portable_hash = 0;
    const cli_opt opts[] = {{"-m", 0, 1 << 20, &mlen}, {"-p", 0, 0, &portable_hash}};
    if (!cli_bench_args(argc, argv, &n, &rounds, MAX_ROUNDS, opts, 2)) {
        fprintf(stderr, "usage: cryptoshim bench ed25519 [-n N] [-r ROUNDS (1-%d)] "
                        "[-m MESSAGE_BYTES] [-p]\n", MAX_ROUNDS);
        return 2;
    }
    /* slot 0 is stock libcrypto */
    struct bench b = {.use = {NULL}};
    const void **use = b.use;
    unsigned nuse = 1 + cli_bench_impls(CS_IMPL_C25519, use + 1, MAX_IMPLS, 10, has_ed25519);
    uint64_t *t = malloc(n * sizeof *t);
    if (!t || !setup(&b.s, mlen)) {
        fprintf(stderr, "bench ed25519: libcrypto set-up failed\n");
        free(t);
        return 1;
    }
    cs_sha512_set_transform(portable_hash ? NULL : (cs_sha512_transform_fn)SHA512_Transform);
    printf("%s; message %lu bytes; kernels' SHA-512: %s\n", OpenSSL_version(OPENSSL_VERSION), mlen,
           portable_hash ? "portable C" : "libcrypto's SHA512_Transform");
    printf("%-10s %-9s %14s %22s %10s\n", "kernel", "op", "median " CS_TIMER_TICK_UNIT,
           "range of rounds", "stock/ours");
    int status = 0;
    for (b.op = 0; b.op < OPS; b.op++) {
        cli_bench_row row[MAX_IMPLS + 1];
        status |= cli_bench_rounds(run, &b, nuse, rounds, n, t, row);
        for (unsigned k = 0; k < nuse; k++) {
            const char *name = use[k] ? cs_impl_name(use[k]) : "libcrypto", *op = op_names[b.op];
            char ratio[16] = "";
            if (k)
                snprintf(ratio, sizeof ratio, "%.2fx",
                         (double)row[0].median / (double)row[k].median);
            if (row[k].failed)
                printf("%-10s %-9s FAILED\n", name, op);
            else
                printf("%-10s %-9s %14llu %22s %10s\n", name, op,
                       (unsigned long long)row[k].median, row[k].range, ratio);
        }
    }
    cs_sha512_set_transform(NULL);
    teardown(&b.s);
    free(t);
    return status;
}
