/* Every X25519 table this CPU runs against the system libcrypto's EVP
 * X25519 (EVP_PKEY_derive on raw keys): the shared secret byte for byte,
 * and a refusal exactly where libcrypto refuses (the all-zero secret of a
 * low-order peer). Peers: random, with the top bit set (ignored), non-
 * canonical u >= p (reduced), the fourteen low-order encodings, u in {0, 1,
 * p-1, p, p+1, 2^255-1}; scalars random and at the clamping edges. Also
 * x25519_base against EVP_PKEY_get_raw_public_key. Case count: argv[1]
 * (CS_DIFF_COUNT) / 5, within [400, 3000]. */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "kernels/c25519/c25519.h"
#include "runtime/cpu.h"
#include "support/c25519_runs.h"
#include "support/c25519_stock.h"
#include "support/diff_common.h"
#include "support/tap.h"
#include "support/vectors.h"

/* The low-order points' encodings (orders 1, 2, 4, 8) as X25519 reads
 * them (bit 255 ignored): 0, 1, p-1, the two of order 8, and p, p+1 (0
 * and 1 not reduced); each also with bit 255 set (the second seven). */
static const char *const low_order[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "0100000000000000000000000000000000000000000000000000000000000080",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
};
#define N_LOW (sizeof(low_order) / sizeof(low_order[0]))

/* A peer value of kind t: random, top bit set, u >= p, low order, edge. */
static void make_peer(uint8_t u[32], unsigned t)
{
    tap_rng_bytes(u, 32);
    switch (t % 8) {
    case 0: u[31] &= 0x7f; break;
    case 1: u[31] |= 0x80; break;
    case 2: /* p <= u mod 2^255 < 2^255, top bit either way */
        memset(u + 1, 0xff, 30);
        u[31] = (uint8_t)(0x7f | (u[0] & 0x80));
        u[0] = (uint8_t)(0xed + u[0] % 19);
        break;
    case 3:
        vec_unhex(u, 32, low_order[(t / 8) % N_LOW], 64);
        break;
    case 4: { /* 0, 1, p-1, p, p+1, 2^255-1 with the top bit either way */
        static const uint8_t low[6] = {0, 1, 0xec, 0xed, 0xee, 0xff};
        unsigned k = (t / 8) % 12;
        memset(u, k % 6 < 2 ? 0 : 0xff, 32);
        u[0] = low[k % 6];
        u[31] = (uint8_t)((k % 6 < 2 ? 0 : 0x7f) | (k >= 6 ? 0x80 : 0));
        break;
    }
    default: break;
    }
}

/* A scalar of kind t: random, or with the bits clamping changes set or
 * clear (the result must not depend on them). */
static void make_scalar(uint8_t k[32], unsigned t)
{
    tap_rng_bytes(k, 32);
    switch (t % 5) {
    case 1: k[0] |= 7; k[31] |= 0x80; break;
    case 2: k[0] &= 0xf8; k[31] &= 0x3f; break;
    case 3: memset(k, t & 1 ? 0xff : 0, 32); break;
    default: break;
    }
}

static void against_stock(const cs_c25519_impl *im, long count)
{
    unsigned bad = 0, refused = 0, bad_pub = 0;
    for (long t = 0; t < count; t++) {
        uint8_t k[32], u[32], want[32], got[32];
        make_scalar(k, (unsigned)t / 8);
        make_peer(u, (unsigned)t);
        int ws = stock_x25519(want, k, u);
        int gs = im->x25519(got, k, u);
        static const uint8_t zero[32];
        if (ws != gs || (ws && memcmp(want, got, 32)) || (!gs && memcmp(got, zero, 32))) {
            if (bad++ < 5) {
                char hk[65], hu[65];
                vec_hex(hk, k, 32);
                vec_hex(hu, u, 32);
                tap_diag("%s: k=%s u=%s: stock %d, kernel %d", im->name, hk, hu, ws, gs);
            }
        }
        refused += !ws;
        if (t % 4 == 0) {
            int ps = stock_pubkey(EVP_PKEY_X25519, want, k);
            im->x25519_base(got, k);
            bad_pub += !ps || memcmp(want, got, 32) != 0;
        }
    }
    tap_ok(bad == 0 && refused > 0,
           "%s: %ld derives as libcrypto, %u of them refused by both (%u differ)", im->name, count,
           refused, bad);
    tap_ok(bad_pub == 0, "%s: x25519_base = libcrypto's public value, %ld keys (%u differ)",
           im->name, (count + 3) / 4, bad_pub);
}

/* Every low-order encoding with many scalars: always refused, by both. */
static void low_order_peers(const cs_c25519_impl *im)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < N_LOW; i++)
        for (unsigned j = 0; j < 20; j++) {
            uint8_t k[32], u[32], want[32], got[32];
            make_scalar(k, j);
            vec_unhex(u, 32, low_order[i], 64);
            int ws = stock_x25519(want, k, u), gs = im->x25519(got, k, u);
            bad += ws != 0 || gs != 0;
        }
    tap_ok(bad == 0, "%s: the %u low-order encodings refused by libcrypto and the kernel (%u not)",
           im->name, (unsigned)N_LOW, bad);
}

/* Every check of im; *(long *)count random cases. */
static void run(const cs_c25519_impl *im, void *count)
{
    against_stock(im, *(long *)count);
    low_order_peers(im);
}

int main(int argc, char **argv)
{
    long count = diff_share_count(argc, argv, 5, 400, 3000);
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(0x25519);
    tap_diag("libcrypto: %s", OpenSSL_version(OPENSSL_VERSION));
    if (c25519_built())
        c25519_each(have, 0, run, &count);
    return tap_done();
}
