/* Every Keccak table this CPU can run (kernels/keccak/keccak.h) against the
 * portable scalar permutation on random states: f1600, and each k-way and
 * fused form on interleaved states; then the sponge: SHAKE128/256 known
 * answers, and absorbing and squeezing in random pieces on every table
 * equal to one call. One TAP line per (table, entry). */
#include <string.h>

#include "kernels/keccak/keccak_internal.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"
#include "support/vectors.h"

#define TRIALS 100

/* Random interleaved states: s[k*i + j] = lane i of state j, and r[j]
 * the same states one by one. */
static void rand_states(uint64_t *s, uint64_t (*r)[25], unsigned k)
{
    for (unsigned i = 0; i < 25; i++)
        for (unsigned j = 0; j < k; j++)
            s[k * i + j] = r[j][i] = tap_rng_u64();
}

/* 1 if the interleaved s equals the portable permutation of each r[j]. */
static int same_as_portable(const uint64_t *s, uint64_t (*r)[25], unsigned k)
{
    int ok = 1;
    for (unsigned j = 0; j < k; j++) {
        cs_keccakf1600_portable(r[j]);
        for (unsigned i = 0; i < 25; i++)
            ok &= s[k * i + j] == r[j][i];
    }
    return ok;
}

/* The k-way entry f (NULL: skipped) of table t against the portable one. */
static void test_kway(const cs_keccak_impl *t, const char *what, void (*f)(uint64_t *),
                      unsigned k)
{
    if (!f) {
        tap_diag("%s %s: not provided, nothing to test", t->name, what);
        return;
    }
    int ok = 1;
    for (int n = 0; n < TRIALS; n++) {
        uint64_t s[200], r[8][25];
        rand_states(s, r, k);
        f(s);
        ok &= same_as_portable(s, r, k);
    }
    tap_ok(ok, "%s %s", t->name, what);
}

/* A fused entry: k interleaved states and one more, in one call. */
static void test_fused(const cs_keccak_impl *t, const char *what,
                       void (*f)(uint64_t *, uint64_t *), unsigned k)
{
    if (!f) {
        tap_diag("%s %s: not provided, nothing to test", t->name, what);
        return;
    }
    int ok = 1;
    for (int n = 0; n < TRIALS; n++) {
        uint64_t s[200], r[9][25], one[25];
        rand_states(s, r, k);
        for (unsigned i = 0; i < 25; i++)
            one[i] = r[8][i] = tap_rng_u64();
        f(s, one);
        ok &= same_as_portable(s, r, k);
        cs_keccakf1600_portable(r[8]);
        ok &= !memcmp(one, r[8], sizeof one);
    }
    tap_ok(ok, "%s %s", t->name, what);
}

/* SHAKE of msg in one absorb and one squeeze. */
static void shake_once(const cs_keccak_impl *t, unsigned rate, uint8_t *out, size_t outlen,
                       const uint8_t *msg, size_t len)
{
    cs_shake st;
    cs_shake_init(&st, t, rate);
    cs_shake_absorb(&st, msg, len);
    cs_shake_squeeze(&st, out, outlen);
}

/* Known answers (SHAKE of "" and of a 1000-byte pattern, tail of a long
 * output), and random pieces against one call. */
static void test_sponge(const cs_keccak_impl *t)
{
    static const char *const want[4] = {
        "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
        "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
        "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
        "4c4ef09864c24a54ffa92efe00da634291d262cd9905bc9571a6e081b7367cad",
        "e252aa4fb5dcd77e538a547e7d6304aa1d10629427542f1dd4360cb178a3b9e0",
    };
    uint8_t msg[1000], out[300];
    char hex[2 * 64 + 1];
    for (unsigned i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 3);
    int ok = 1;
    shake_once(t, CS_SHAKE128_RATE, out, 32, msg, 0);
    vec_hex(hex, out, 32);
    ok &= !strcmp(hex, want[0]);
    shake_once(t, CS_SHAKE256_RATE, out, 64, msg, 0);
    vec_hex(hex, out, 64);
    ok &= !strcmp(hex, want[1]);
    shake_once(t, CS_SHAKE128_RATE, out, 200, msg, sizeof msg);
    vec_hex(hex, out + 168, 32);
    ok &= !strcmp(hex, want[2]);
    shake_once(t, CS_SHAKE256_RATE, out, 300, msg, sizeof msg);
    vec_hex(hex, out + 268, 32);
    ok &= !strcmp(hex, want[3]);
    tap_ok(ok, "%s SHAKE128/256 known answers", t->name);

    ok = 1;
    for (int n = 0; n < TRIALS; n++) {
        uint8_t whole[300], piece[300];
        size_t len = tap_rng_u64() % sizeof msg;
        unsigned rate = n & 1 ? CS_SHAKE256_RATE : CS_SHAKE128_RATE;
        shake_once(&cs_keccak_portable, rate, whole, sizeof whole, msg, len);
        cs_shake st;
        cs_shake_init(&st, t, rate);
        for (size_t at = 0; at < len;) {
            size_t m = tap_rng_u64() % 300;
            if (m > len - at)
                m = len - at;
            cs_shake_absorb(&st, msg + at, m);
            at += m;
        }
        for (size_t at = 0; at < sizeof piece;) {
            size_t m = 1 + tap_rng_u64() % 200;
            if (m > sizeof piece - at)
                m = sizeof piece - at;
            cs_shake_squeeze(&st, piece + at, m);
            at += m;
        }
        ok &= !memcmp(whole, piece, sizeof whole);
    }
    tap_ok(ok, "%s SHAKE in random pieces == one call", t->name);
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(20261201);
    for (unsigned i = 0; cs_keccak_impls[i]; i++) {
        const cs_keccak_impl *t = cs_keccak_impls[i];
        if (!impl_runs(t->name, t->cpu_features, have))
            continue;
        int ok = 1;
        for (int n = 0; n < TRIALS; n++) {
            uint64_t s[25], r[1][25];
            rand_states(s, r, 1);
            t->f1600(s);
            ok &= same_as_portable(s, r, 1);
        }
        tap_ok(ok, "%s f1600", t->name);
        test_kway(t, "f1600_x2", t->f1600_x2, 2);
        test_kway(t, "f1600_x4", t->f1600_x4, 4);
        test_kway(t, "f1600_x8", t->f1600_x8, 8);
        test_fused(t, "f1600_x4x1", t->f1600_x4x1, 4);
        test_fused(t, "f1600_x8x1", t->f1600_x8x1, 8);
        test_sponge(t);
    }
    test_kway(&cs_keccak_portable, "f1600_x4 (de-interleaving reference)",
              cs_keccakf1600_x4_portable, 4);
    tap_ok(cs_keccak_impls[0] == &cs_keccak_portable, "portable first (kernels/impl.h)");
    return tap_done();
}
