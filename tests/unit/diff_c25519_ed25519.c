/* Ed25519 kernels against the system's libcrypto (EVP raw keys), every
 * implementation in cs_c25519_impls this CPU runs: public keys and
 * signatures byte for byte over random keys and messages (0 to 2000
 * bytes), X25519 public values (x25519_base), and verification verdicts on
 * valid and corrupted signatures, S >= L, non-canonical R and A, the
 * small-order A and R encodings, and random bytes as keys. The verdict
 * must be libcrypto's every time; then the key and signature checks again
 * with libcrypto's SHA512_Transform installed as the kernels' SHA-512
 * compression (cs_sha512_set_transform). Case count: argv[1]
 * (CS_DIFF_COUNT) / 10 within [200, 1000]. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA512_Transform, the hook's function */
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

#include "kernels/c25519/c25519.h"
#include "kernels/c25519/sha512.h"
#include "kernels/c25519/scalar25519.h"
#include "runtime/cpu.h"
#include "support/diff_common.h"
#include "support/c25519_runs.h"
#include "support/c25519_stock.h"
#include "support/tap.h"
#include "support/vectors.h"

/* The eight points of order dividing 8, canonical, then encodings of
 * y >= p (y = p + k, k < 19, either sign bit) and x = 0 with the sign bit
 * set: the inputs stock decodes without complaint although they are not
 * canonical. */
static const char *const small_order[8] = {
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"};

#define N_SPECIAL (8 + 38 + 2)

/* Special encoding number i < N_SPECIAL. */
static void special(uint8_t e[32], unsigned i)
{
    if (i < 8) {
        vec_unhex(e, 32, small_order[i], 64);
    } else if (i < 8 + 38) { /* p + k = 0x7fff...ffed + k */
        unsigned k = (i - 8) / 2;
        memset(e, 0xff, 32);
        e[0] = (uint8_t)(0xed + k);
        e[31] = (i - 8) % 2 ? 0xff : 0x7f;
    } else if (i == 46) {
        memset(e, 0, 32);
        e[0] = 1;
        e[31] = 0x80; /* y = 1, x = 0, sign bit set */
    } else {
        memset(e, 0xff, 32);
        e[0] = 0xec; /* y = -1, x = 0, sign bit set */
    }
}

/* s*B's encoding and s < L for a random s: the public key of a random sk
 * is (az mod L)*B, az the clamped scalar. */
static void random_sb(uint8_t R[32], uint8_t s[32], const cs_c25519_impl *im)
{
    uint8_t sk[32], az[64], wide[64] = {0};
    tap_rng_bytes(sk, 32);
    im->ed25519_pubkey(R, sk);
    cs_sha512(az, sk, 32);
    az[0] &= 248;
    az[31] &= 63;
    az[31] |= 64;
    memcpy(wide, az, 32);
    cs_sc25519_reduce64(s, wide);
}

struct tally {
    unsigned n, bad, valid;
};

static void check(struct tally *t, const cs_c25519_impl *im, const uint8_t sig[64],
                  const uint8_t *msg, size_t n, const uint8_t pk[32], const char *what)
{
    int want = stock_ed25519_verify(sig, msg, n, pk);
    int got = im->ed25519_verify(sig, NULL, 0, msg, n, pk);
    t->n++;
    t->valid += want == 1;
    if (got != want) {
        t->bad++;
        if (t->bad <= 5)
            tap_diag("%s: %s: kernel %d, libcrypto %d", im->name, what, got, want);
    }
}

static void keys_and_signatures(const cs_c25519_impl *im, long count)
{
    static uint8_t msg[2001];
    unsigned bad_pk = 0, bad_sig = 0, bad_x = 0, stock_fail = 0;
    struct tally v = {0, 0, 0};
    for (long t = 0; t < count; t++) {
        uint8_t sk[32], pk[32], pk2[32], sig[64], sig2[64], xp[32], xp2[32];
        size_t n = t % 10 == 0 ? tap_rng_u64() % sizeof msg : tap_rng_u64() % 300;
        tap_rng_bytes(sk, 32);
        tap_rng_bytes(msg, n);
        im->ed25519_pubkey(pk, sk);
        im->ed25519_sign(sig, NULL, 0, msg, n, sk, pk);
        im->x25519_base(xp, sk);
        if (!stock_pubkey(EVP_PKEY_ED25519, pk2, sk) || !stock_ed25519_sign(sig2, sk, msg, n) ||
            !stock_pubkey(EVP_PKEY_X25519, xp2, sk)) {
            stock_fail++;
            continue;
        }
        bad_pk += memcmp(pk, pk2, 32) != 0;
        bad_sig += memcmp(sig, sig2, 64) != 0;
        bad_x += memcmp(xp, xp2, 32) != 0;
        check(&v, im, sig, msg, n, pk, "valid signature");
        /* one bit flipped in R, in S, in the message, in the key */
        uint8_t c[64], k2[32];
        memcpy(c, sig, 64);
        c[tap_rng_u64() % 32] ^= (uint8_t)(1u << (t % 8));
        check(&v, im, c, msg, n, pk, "R corrupted");
        memcpy(c, sig, 64);
        c[32 + tap_rng_u64() % 32] ^= (uint8_t)(1u << (t % 8));
        check(&v, im, c, msg, n, pk, "S corrupted");
        if (n) {
            msg[tap_rng_u64() % n] ^= 0x10;
            check(&v, im, sig, msg, n, pk, "message corrupted");
        }
        memcpy(k2, pk, 32);
        k2[tap_rng_u64() % 32] ^= (uint8_t)(1u << (t % 8));
        check(&v, im, sig, msg, n, k2, "key corrupted");
        /* S + L (the same point, S >= L), and S with its top bits set */
        uint8_t s2[32];
        memcpy(c, sig, 64);
        static const uint8_t L[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                      0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                      [31] = 0x10};
        unsigned carry = 0;
        for (unsigned i = 0; i < 32; i++) {
            unsigned x = c[32 + i] + L[i] + carry;
            s2[i] = (uint8_t)x;
            carry = x >> 8;
        }
        memcpy(c + 32, s2, 32);
        check(&v, im, c, msg, n, pk, "S + L");
        memcpy(c, sig, 64);
        c[63] |= (uint8_t)(0x10 << (t % 4));
        check(&v, im, c, msg, n, pk, "S top bits");
        /* random bytes as a key */
        tap_rng_bytes(k2, 32);
        check(&v, im, sig, msg, n, k2, "random key");
    }
    tap_ok(stock_fail == 0 && bad_pk == 0,
           "%s: %ld Ed25519 public keys as libcrypto (%u differ, %u stock failures)", im->name,
           count, bad_pk, stock_fail);
    tap_ok(bad_sig == 0, "%s: %ld signatures byte for byte, messages 0-2000 bytes (%u differ)",
           im->name, count, bad_sig);
    tap_ok(bad_x == 0, "%s: %ld X25519 public values (x25519_base) as libcrypto (%u differ)",
           im->name, count, bad_x);
    tap_ok(v.bad == 0,
           "%s: %u verdicts (%u valid) on valid, corrupted, S + L, random-key signatures as "
           "libcrypto (%u differ)",
           im->name, v.n, v.valid, v.bad);
}

/* Small-order and non-canonical A and R, S = 0, s or s + L. */
static void special_points(const cs_c25519_impl *im)
{
    struct tally v = {0, 0, 0};
    uint8_t msg[40], sig[64], A[32], R[32], s[32];
    for (unsigned a = 0; a < N_SPECIAL; a++) {
        special(A, a);
        for (unsigned m = 0; m < 8; m++) {
            size_t n = m * 5;
            tap_rng_bytes(msg, n);
            /* R = sB, S = s: valid exactly when h*A is the neutral point */
            random_sb(R, s, im);
            memcpy(sig, R, 32);
            memcpy(sig + 32, s, 32);
            check(&v, im, sig, msg, n, A, "special A, R = sB");
            /* R special, S = 0: R' = -hA */
            for (unsigned r = 0; r < N_SPECIAL; r += 1 + m % 3) {
                special(sig, r);
                memset(sig + 32, 0, 32);
                check(&v, im, sig, msg, n, A, "special A and R, S = 0");
            }
        }
    }
    /* a real key, R non-canonical or small order, S of a valid signature */
    for (unsigned r = 0; r < N_SPECIAL; r++) {
        uint8_t sk[32], pk[32];
        tap_rng_bytes(sk, 32);
        tap_rng_bytes(msg, 16);
        im->ed25519_pubkey(pk, sk);
        im->ed25519_sign(sig, NULL, 0, msg, 16, sk, pk);
        special(sig, r);
        check(&v, im, sig, msg, 16, pk, "real key, special R");
    }
    tap_ok(v.bad == 0,
           "%s: %u verdicts (%u valid) with small-order and non-canonical A and R as libcrypto "
           "(%u differ)",
           im->name, v.n, v.valid, v.bad);
}

/* Every check of im; *(long *)count random keys. */
static void run(const cs_c25519_impl *im, void *count)
{
    keys_and_signatures(im, *(long *)count);
    special_points(im);
}

int main(int argc, char **argv)
{
    uint32_t have = cs_cpu_probe();
    long count = diff_share_count(argc, argv, 10, 200, 1000);
    tap_rng_seed(0xed25519);
    tap_diag("libcrypto %s", OpenSSL_version(OPENSSL_VERSION));
    if (!c25519_built())
        return tap_done();
    c25519_each(have, 1, run, &count);
    cs_sha512_set_transform((cs_sha512_transform_fn)SHA512_Transform);
    tap_diag("with libcrypto's SHA512_Transform as the SHA-512 compression");
    for (const cs_c25519_impl *const *i = cs_c25519_impls; *i; i++) {
        const cs_c25519_impl *im = *i;
        if ((im->cpu_features & have) == im->cpu_features && im->ed25519_pubkey)
            keys_and_signatures(im, count / 4);
    }
    cs_sha512_set_transform(NULL);
    return tap_done();
}
