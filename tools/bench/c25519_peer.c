/* Our curve tables (kernels/c25519: every one of cs_c25519_impls this CPU
 * may run) beside stock libcrypto's EVP calls and s2n-bignum's x86-64
 * curve25519/edwards25519 code, in one interleaved run: per operation,
 * ROUNDS rounds in which each side takes its turn at N calls; the median of
 * the round medians in TSC cycles, the lowest-highest round median, the
 * fastest single call, and stock's median (and best) over each side's.
 *   derive   X25519 with a fixed key and peer value (stock: EVP_PKEY_derive
 *            on a context set up once, as `openssl speed ecdhx25519` does)
 *   keygen   X25519 public value of a private key (ours: x25519_base; s2n:
 *            curve25519_x25519base; stock: EVP_PKEY_new_raw_private_key +
 *            EVP_PKEY_get_raw_public_key + free, as `bench x25519` does)
 *   pubkey   Ed25519 public key of a private key (stock: likewise)
 *   sign     Ed25519 signature of an M-byte message (stock: EVP_DigestSign
 *            on a context set up once, as `openssl speed ed25519` does)
 *   verify   Ed25519 verification (stock: EVP_DigestVerify, set up once)
 * s2n-bignum's side is a table of this file over its functions; its Ed25519
 * hashes with our SHA-512 (kernels/c25519/sha512.h) and reduces with our
 * scalar code (scalar25519.h), so the two sides differ only in curve code.
 * Both hash with libcrypto's SHA512_Transform, as the provider has the
 * kernels do (-p: the portable SHA-512 on both sides). Before timing it
 * checks that every side gives stock's bytes (secrets, public values,
 * signatures) and stock's verdicts on valid and altered signatures.
 *
 * The peer is linked in from outside the tree: objects exporting
 * s2n-bignum's x86-64 ABI for curve25519_x25519_byte, curve25519_x25519base_byte,
 * edwards25519_scalarmulbase, edwards25519_scalarmuldouble,
 * edwards25519_decode (each also as _alt: the MUL code beside the MULX/ADX
 * one) and edwards25519_encode (include/s2n-bignum.h has the prototypes).
 * `make bench-tools` compiles this file ($(BUILD)/bench/c25519_peer.o) and
 * `make` the CLI objects it shares; tools/bench/c25519-peer.sh links it:
 *   cc build/bench/c25519_peer.o build/obj/cli/bench_util.o build/obj/cli/args.o                  \
 *      build/obj/cli/bench_stock_c25519.o build/libcryptoshim_core.a PEER_OBJECTS                 \
 *      -lcrypto -ldl -pthread -o build/c25519_peer
 * Usage: c25519_peer [-n N] [-r ROUNDS] [-m BYTES] [-p]; under
 * flock /tmp/cryptoshim-bench.lock. x86-64 only. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA512_Transform, the kernels' hash hook */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench_stock_c25519.h"
#include "cli/cli.h"
#include "kernels/c25519/c25519.h"
#include "kernels/c25519/scalar25519.h"
#include "kernels/c25519/sha512.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "runtime/timer.h"

/* s2n-bignum (include/s2n-bignum.h): points are affine (x, y), four
 * little-endian 64-bit words each; decode returns 0 on success. */
#define S2N_DECL(SUF)                                                                              \
    void curve25519_x25519_byte##SUF(uint8_t res[32], const uint8_t scalar[32],                    \
                                     const uint8_t point[32]);                                     \
    void curve25519_x25519base_byte##SUF(uint8_t res[32], const uint8_t scalar[32]);               \
    void edwards25519_scalarmulbase##SUF(uint64_t res[8], const uint64_t scalar[4]);               \
    void edwards25519_scalarmuldouble##SUF(uint64_t res[8], const uint64_t scalar[4],              \
                                           const uint64_t point[8], const uint64_t bscalar[4]);    \
    uint64_t edwards25519_decode##SUF(uint64_t z[8], const uint8_t c[32]);
S2N_DECL()
S2N_DECL(_alt)
void edwards25519_encode(uint8_t z[32], const uint64_t p[8]);

typedef void (*s2n_base_fn)(uint64_t res[8], const uint64_t scalar[4]);
typedef void (*s2n_double_fn)(uint64_t res[8], const uint64_t scalar[4], const uint64_t point[8],
                              const uint64_t bscalar[4]);
typedef uint64_t (*s2n_decode_fn)(uint64_t z[8], const uint8_t c[32]);

/* out = SHA-512(dom || a || b || msg) mod L, with our hash and scalar code. */
static void hash_mod_l(uint8_t out[32], const uint8_t *dom, size_t domlen, const uint8_t *a,
                       const uint8_t *b, size_t blen, const uint8_t *msg, size_t msglen)
{
    cs_sha512_ctx c;
    uint8_t h[64];
    cs_sha512_init(&c);
    const void *part[4] = {dom, a, b, msg};
    const size_t len[4] = {domlen, 32, blen, msglen};
    for (unsigned i = 0; i < 4; i++)
        cs_sha512_update(&c, part[i], len[i]);
    cs_sha512_final(&c, h);
    cs_sc25519_reduce64(out, h);
}

/* az = SHA-512(sk), its first half clamped (RFC 8032 5.1.5). */
static void expand_key(uint8_t az[64], const uint8_t sk[32])
{
    cs_sha512(az, sk, 32);
    az[0] &= 248;
    az[31] = (uint8_t)((az[31] & 63) | 64);
}

/* enc = the encoding of base * scalar (32 little-endian bytes). */
static void s2n_base_encode(s2n_base_fn base, uint8_t enc[32], const uint8_t scalar[32])
{
    uint64_t n[4], p[8];
    memcpy(n, scalar, 32);
    base(p, n);
    edwards25519_encode(enc, p);
}

static void s2n_ed_pubkey(s2n_base_fn base, uint8_t pk[32], const uint8_t sk[32])
{
    uint8_t az[64];
    expand_key(az, sk);
    s2n_base_encode(base, pk, az);
}

static void s2n_ed_sign(s2n_base_fn base, uint8_t sig[64], const uint8_t *dom, size_t domlen,
                     const uint8_t *msg, size_t msglen, const uint8_t sk[32], const uint8_t pk[32])
{
    uint8_t az[64], r[32], k[32];
    expand_key(az, sk);
    hash_mod_l(r, dom, domlen, az + 32, NULL, 0, msg, msglen);
    s2n_base_encode(base, sig, r);
    hash_mod_l(k, dom, domlen, sig, pk, 32, msg, msglen);
    cs_sc25519_muladd(sig + 32, k, az, r);
}

/* R' = S B - k A through scalarmuldouble with -A, compared with R as bytes
 * (as our verify and OpenSSL's do). s2n's decode refuses a key with
 * y >= p, or x = 0 and the sign bit set, which OpenSSL accepts: no key
 * here is one of those. */
static int s2n_ed_verify(s2n_decode_fn decode, s2n_double_fn dbl, const uint8_t sig[64],
                      const uint8_t *dom, size_t domlen, const uint8_t *msg, size_t msglen,
                      const uint8_t pk[32])
{
    static const uint64_t p25519[4] = {0xffffffffffffffedu, ~0ull, ~0ull, 0x7fffffffffffffffu};
    uint64_t a[8], r[8], k[4], s[4];
    uint8_t kb[32], enc[32];
    if (!cs_sc25519_is_canonical(sig + 32) || decode(a, pk))
        return 0;
    if (a[0] | a[1] | a[2] | a[3]) { /* x = p - x */
        unsigned char borrow = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned __int128 d = (unsigned __int128)p25519[i] - a[i] - borrow;
            a[i] = (uint64_t)d;
            borrow = (unsigned char)((d >> 64) & 1);
        }
    }
    hash_mod_l(kb, dom, domlen, sig, pk, 32, msg, msglen);
    memcpy(k, kb, 32);
    memcpy(s, sig + 32, 32);
    dbl(r, k, a, s);
    edwards25519_encode(enc, r);
    return memcmp(enc, sig, 32) == 0;
}

/* A curve table of s2n-bignum's functions with suffix SUF (empty: the
 * MULX/ADX code; _alt: plain MUL); edwards25519_encode has one version. */
#define S2N_TABLE(SUF, NAME, FEATURES)                                                             \
    static int s2n_x25519##SUF(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])     \
    {                                                                                              \
        uint8_t any = 0;                                                                           \
        curve25519_x25519_byte##SUF(out, scalar, u);                                               \
        for (unsigned i = 0; i < 32; i++)                                                          \
            any |= out[i];                                                                         \
        return any != 0;                                                                           \
    }                                                                                              \
    static void s2n_pubkey##SUF(uint8_t pk[32], const uint8_t sk[32])                              \
    {                                                                                              \
        s2n_ed_pubkey(edwards25519_scalarmulbase##SUF, pk, sk);                                    \
    }                                                                                              \
    static void s2n_sign##SUF(uint8_t sig[64], const uint8_t *dom, size_t domlen,                  \
                              const uint8_t *msg, size_t msglen, const uint8_t sk[32],             \
                              const uint8_t pk[32])                                                \
    {                                                                                              \
        s2n_ed_sign(edwards25519_scalarmulbase##SUF, sig, dom, domlen, msg, msglen, sk, pk);       \
    }                                                                                              \
    static int s2n_verify##SUF(const uint8_t sig[64], const uint8_t *dom, size_t domlen,           \
                               const uint8_t *msg, size_t msglen, const uint8_t pk[32])            \
    {                                                                                              \
        return s2n_ed_verify(edwards25519_decode##SUF, edwards25519_scalarmuldouble##SUF, sig,     \
                             dom, domlen, msg, msglen, pk);                                        \
    }                                                                                              \
    static const cs_c25519_impl s2n_table##SUF = {                                                 \
        CS_IMPL_ROW(NAME, FEATURES), s2n_x25519##SUF, curve25519_x25519base_byte##SUF,             \
        s2n_pubkey##SUF, s2n_sign##SUF, s2n_verify##SUF};
S2N_TABLE(, "s2n-bignum", CS_CPU_BMI2 | CS_CPU_ADX)
S2N_TABLE(_alt, "s2n-bn-alt", 0)

#define MAX_ROUNDS CLI_BENCH_MAX_ROUNDS
#define MAX_SIDES CLI_BENCH_MAX_IMPLS

enum { OP_DERIVE, OP_KEYGEN, OP_PUBKEY, OP_SIGN, OP_VERIFY, OPS };
static const char *const op_names[OPS] = {"derive", "keygen", "pubkey", "sign", "verify"};

/* The fixed inputs, their answers, and stock's contexts set up once. */
struct setup {
    uint8_t xpriv[32], xpeer[32], secret[32];
    uint8_t sk[32], pk[32], sig[64];
    uint8_t *msg;
    size_t mlen;
    EVP_PKEY_CTX *derive;
    EVP_MD_CTX *sctx, *vctx;
};

/* One call of op by table im, or by stock when im is NULL: derive, sign and
 * verify on s's fixed inputs, keygen and pubkey on key. out: the secret,
 * public value or signature. 0 on failure or a refused signature. */
static int call(const cs_c25519_impl *im, struct setup *s, int op, uint8_t out[64],
                const uint8_t key[32])
{
    size_t len = op == OP_SIGN ? 64 : 32;
    switch (op) {
    case OP_DERIVE:
        return im ? im->x25519(out, s->xpriv, s->xpeer) : EVP_PKEY_derive(s->derive, out, &len) > 0;
    case OP_KEYGEN:
        return im ? (im->x25519_base(out, key), 1) : cli_stock_public(EVP_PKEY_X25519, out, key);
    case OP_PUBKEY:
        return im ? (im->ed25519_pubkey(out, key), 1)
                  : cli_stock_public(EVP_PKEY_ED25519, out, key);
    case OP_SIGN:
        if (!im)
            return EVP_DigestSign(s->sctx, out, &len, s->msg, s->mlen) == 1;
        im->ed25519_sign(out, NULL, 0, s->msg, s->mlen, s->sk, s->pk);
        return 1;
    default:
        return im ? im->ed25519_verify(s->sig, NULL, 0, s->msg, s->mlen, s->pk) == 1
                  : EVP_DigestVerify(s->vctx, s->sig, 64, s->msg, s->mlen) == 1;
    }
}

/* The sides of a table (use[0] NULL: stock), the inputs and the operation. */
struct bench {
    const cs_c25519_impl *use[MAX_SIDES];
    struct setup s;
    int op;
};

/* n calls by side k (cli_bench_fn); keygen and pubkey take a new key each
 * call. -1 when a call failed or the last fixed-input answer is not stock's. */
static int run(void *vb, unsigned k, unsigned n, uint64_t *t, double *secs)
{
    struct bench *b = vb;
    uint8_t key[32], out[64];
    int ok = 1;
    (void)secs;
    memcpy(key, b->s.sk, 32);
    for (unsigned i = 0; i < n; i++) {
        key[1] = (uint8_t)i, key[2] = (uint8_t)(i >> 8);
        uint64_t t0 = cs_timer_ticks();
        ok &= call(b->use[k], &b->s, b->op, out, key);
        t[i] = cs_timer_ticks() - t0;
    }
    if (b->op == OP_DERIVE)
        ok &= !memcmp(out, b->s.secret, 32);
    if (b->op == OP_SIGN)
        ok &= !memcmp(out, b->s.sig, 64);
    return ok ? 0 : -1;
}

/* Stock's verdict on (sig, msg, pk), a fresh context; -1 when it cannot say. */
static int stock_verdict(const uint8_t sig[64], const uint8_t *msg, size_t mlen,
                         const uint8_t pk[32])
{
    EVP_MD_CTX *c = cli_stock_ed25519_md_ctx(0, pk);
    int v = c ? EVP_DigestVerify(c, sig, 64, msg, mlen) : -1;
    EVP_MD_CTX_free(c);
    return v < 0 ? -1 : v == 1;
}

/* Adds L to the signature scalar S (< L, so no carry out): the same point,
 * a non-canonical S that must be refused. */
static void add_l(uint8_t s[32])
{
    static const uint8_t l[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                  0xa2, 0xde, 0xf9, 0xde, 0x14, [31] = 0x10};
    unsigned c = 0;
    for (unsigned i = 0; i < 32; i++) {
        c += (unsigned)s[i] + l[i];
        s[i] = (uint8_t)c;
        c >>= 8;
    }
}

/* Every side of use[1..nuse) against stock on random inputs: X25519
 * secrets and public values, Ed25519 public keys and signatures (message
 * lengths 0-310), and verdicts on each signature valid and altered (a
 * message bit, R, S, S + L, the key's sign bit). Prints the first
 * difference; 1 when all agree. */
static int agree(const cs_c25519_impl *const *use, unsigned nuse)
{
    uint8_t priv[32], peer[32], msg[320], want[64], got[64], sig[64], pk[32];
    for (unsigned trial = 0; trial < 32; trial++) {
        size_t mlen = trial * 10;
        if (RAND_bytes(priv, 32) != 1 || RAND_bytes(peer, 32) != 1 || RAND_bytes(msg, 320) != 1)
            return 0;
        EVP_MD_CTX *sc = cli_stock_ed25519_md_ctx(1, priv);
        EVP_PKEY_CTX *dc = cli_stock_x25519_derive_ctx(priv, peer);
        size_t slen = 64, dlen = 32;
        int ok = sc && dc && EVP_DigestSign(sc, sig, &slen, msg, mlen) == 1 &&
                 EVP_PKEY_derive(dc, want, &dlen) > 0 &&
                 cli_stock_public(EVP_PKEY_ED25519, pk, priv);
        EVP_MD_CTX_free(sc);
        EVP_PKEY_CTX_free(dc);
        if (!ok)
            return 0;
        for (unsigned k = 1; k < nuse; k++) {
            const cs_c25519_impl *im = use[k];
            const char *bad = NULL;
            if (!im->x25519(got, priv, peer) || memcmp(got, want, 32))
                bad = "X25519 secret";
            im->x25519_base(got, priv);
            if (!cli_stock_public(EVP_PKEY_X25519, got + 32, priv) || memcmp(got, got + 32, 32))
                bad = "X25519 public value";
            if (im->ed25519_pubkey) {
                im->ed25519_pubkey(got, priv);
                if (memcmp(got, pk, 32))
                    bad = "Ed25519 public key";
                im->ed25519_sign(got, NULL, 0, msg, mlen, priv, pk);
                if (memcmp(got, sig, 64))
                    bad = "Ed25519 signature";
                for (unsigned alt = 0; alt < 6 && !bad; alt++) {
                    uint8_t s2[64], m2[320], k2[32];
                    memcpy(s2, sig, 64), memcpy(m2, msg, 320), memcpy(k2, pk, 32);
                    if (alt == 1 && mlen)
                        m2[trial % mlen] ^= 1;
                    s2[0] ^= alt == 2;
                    s2[32] ^= alt == 3;
                    if (alt == 4)
                        add_l(s2 + 32);
                    k2[31] ^= alt == 5 ? 0x80 : 0;
                    int v = stock_verdict(s2, m2, mlen, k2);
                    if (v != (im->ed25519_verify(s2, NULL, 0, m2, mlen, k2) == 1))
                        bad = "Ed25519 verdict";
                }
            }
            if (bad) {
                printf("%s: %s differs from stock's (trial %u)\n", im->name, bad, trial);
                return 0;
            }
        }
    }
    return 1;
}

static int setup(struct setup *s, size_t mlen)
{
    size_t slen = 64, dlen = 32;
    memset(s, 0, sizeof *s);
    s->mlen = mlen;
    s->msg = malloc(mlen + 1);
    if (!s->msg || RAND_bytes(s->xpriv, 32) != 1 || RAND_bytes(s->xpeer, 32) != 1 ||
        RAND_bytes(s->sk, 32) != 1 || RAND_bytes(s->msg, (int)mlen + 1) != 1 ||
        !cli_stock_public(EVP_PKEY_ED25519, s->pk, s->sk))
        return 0;
    s->derive = cli_stock_x25519_derive_ctx(s->xpriv, s->xpeer);
    s->sctx = cli_stock_ed25519_md_ctx(1, s->sk);
    s->vctx = cli_stock_ed25519_md_ctx(0, s->pk);
    return s->derive && s->sctx && s->vctx && EVP_PKEY_derive(s->derive, s->secret, &dlen) > 0 &&
           EVP_DigestSign(s->sctx, s->sig, &slen, s->msg, mlen) == 1;
}

int main(int argc, char **argv)
{
    unsigned n = 300, rounds = 9;
    unsigned long mlen = 64, portable_hash = 0;
    const cli_opt opts[] = {{"-m", 0, 1 << 20, &mlen}, {"-p", 0, 0, &portable_hash}};
    if (!cli_bench_args(argc, argv, &n, &rounds, MAX_ROUNDS, opts, 2)) {
        fprintf(stderr, "usage: c25519_peer [-n N] [-r ROUNDS (1-%d)] [-m BYTES] [-p]\n",
                MAX_ROUNDS);
        return 2;
    }
    /* slot 0 stock, then s2n-bignum's tables this CPU runs, then ours */
    struct bench b = {.use = {NULL}};
    unsigned nuse = 1;
    cs_controls_load(); /* the CPU's features, CRYPTOSHIM_CPU and CRYPTOSHIM_KERNELS */
    uint32_t have = cs_cpu_features();
    const cs_c25519_impl *peers[2] = {&s2n_table, &s2n_table_alt};
    for (unsigned k = 0; k < 2; k++)
        if ((peers[k]->cpu_features & have) == peers[k]->cpu_features)
            b.use[nuse++] = peers[k];
    const void *ours[MAX_SIDES];
    unsigned nours = cli_bench_impls(CS_IMPL_C25519, ours, MAX_SIDES - nuse, 12, NULL);
    for (unsigned k = 0; k < nours; k++)
        b.use[nuse++] = ours[k];
    uint64_t *t = malloc(n * sizeof *t);
    cs_sha512_set_transform(portable_hash ? NULL : (cs_sha512_transform_fn)SHA512_Transform);
    if (!t || !setup(&b.s, mlen)) {
        fprintf(stderr, "c25519_peer: libcrypto set-up failed\n");
        return 1;
    }
    if (!agree(b.use, nuse))
        return 1;
    printf("%s; message %lu bytes; SHA-512 on both sides: %s; answers agree with stock's\n",
           OpenSSL_version(OPENSSL_VERSION), mlen,
           portable_hash ? "portable C" : "libcrypto's SHA512_Transform");
    printf("%-12s %-7s %14s %16s %10s %9s %9s\n", "side", "op", "median " CS_TIMER_TICK_UNIT,
           "rounds' range", "best", "stock/med", "stock/best");
    int status = 0;
    for (b.op = 0; b.op < OPS; b.op++) {
        struct bench ob = b; /* the sides this operation has: tables without Ed25519 skip it */
        unsigned nop = 1;
        for (unsigned k = 1; k < nuse; k++)
            if (b.op <= OP_KEYGEN || b.use[k]->ed25519_pubkey)
                ob.use[nop++] = b.use[k];
        cli_bench_row row[MAX_SIDES];
        status |= cli_bench_rounds(run, &ob, nop, rounds, n, t, row);
        for (unsigned k = 0; k < nop; k++) {
            const char *name = k ? ob.use[k]->name : "stock";
            if (row[k].failed)
                printf("%-12s %-7s FAILED\n", name, op_names[b.op]);
            else
                printf("%-12s %-7s %14llu %16s %10llu %8.2fx %8.2fx\n", name, op_names[b.op],
                       (unsigned long long)row[k].median, row[k].range,
                       (unsigned long long)row[k].best,
                       (double)row[0].median / (double)row[k].median,
                       (double)row[0].best / (double)row[k].best);
        }
    }
    cs_sha512_set_transform(NULL);
    EVP_PKEY_CTX_free(b.s.derive);
    EVP_MD_CTX_free(b.s.sctx);
    EVP_MD_CTX_free(b.s.vctx);
    free(b.s.msg);
    free(t);
    return status;
}
