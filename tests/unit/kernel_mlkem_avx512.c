/* The AVX-512 ML-KEM arithmetic (kernels/mlkem/x86_64/ntt_avx512.c,
 * poly_avx512.c) piece by piece against the portable one: the NTTs and
 * products by residue and range on random and extreme coefficients (all at
 * +-(q-1), 0), the 12-bit coders on every value and on bytes decoding to 0
 * and 4095, Compress/Decompress of every d on every value and random bytes,
 * the sums and the Montgomery correction exactly, and the rejection step
 * (rej_avx512.c) against the portable one on random bytes of every length
 * up to three blocks, many candidates >= q, from every starting count.
 * Skips without AVX-512.
 * No OpenSSL. */
#include <stdio.h>
#include <string.h>

#include "kernels/mlkem/mlkem_backend.h"
#include "runtime/cpu.h"
#include "support/tap.h"
#if defined(__x86_64__)
#include "kernels/mlkem/x86_64/mlkem_x86.h"

#define Q CS_MLKEM_Q

/* a == b mod q, coefficient by coefficient, and |b| < q. */
static int same_mod_q(const cs_mlkem_poly *a, const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        if (((a->c[i] - b->c[i]) % Q) != 0 || b->c[i] <= -Q || b->c[i] >= Q)
            return 0;
    return 1;
}

/* Test polynomial number t: random |c| < q, or (t < 6) all q-1, all -(q-1), all 0,
 * alternating +-(q-1), all 1664, all -1664. */
static void test_poly(cs_mlkem_poly *p, unsigned t)
{
    static const int fixed[6][2] = {{Q - 1, Q - 1}, {1 - Q, 1 - Q}, {0, 0},
                                    {Q - 1, 1 - Q}, {1664, 1664}, {-1664, -1664}};
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        p->c[i] = (int16_t)(t < 6 ? fixed[t][i & 1]
                                  : (int)(tap_rng_u64() % (2 * Q - 1)) - (Q - 1));
}

/* NTT, inverse NTT and basemul_acc (1-4 terms, first factors as decoded keys in
 * [0, 4096) or all 4095) as portable, by residue. */
static void ntt_pieces(void)
{
    int ntt = 1, inv = 1, mul = 1;
    for (unsigned t = 0; t < 300; t++) {
        cs_mlkem_poly a, a2, r, r2, c[4], b[4];
        test_poly(&a, t);
        a2 = a;
        cs_mlkem_ntt_portable(&a);
        cs_mlkem_ntt_avx512(&a2);
        ntt &= same_mod_q(&a, &a2);
        test_poly(&r, t);
        r2 = r;
        cs_mlkem_invntt_portable(&r);
        cs_mlkem_invntt_avx512(&r2);
        inv &= same_mod_q(&r, &r2);
        for (unsigned i = 0; i < 4; i++) {
            for (unsigned j = 0; j < CS_MLKEM_N; j++)
                c[i].c[j] = (int16_t)(t < 6 ? 4095 : tap_rng_u64() % 4096);
            test_poly(&b[i], t);
        }
        unsigned k = 1 + t % 4;
        cs_mlkem_basemul_acc_portable(&r, c, b, k);
        cs_mlkem_basemul_acc_avx512(&r2, c, b, k);
        mul &= same_mod_q(&r, &r2);
    }
    tap_ok(ntt, "avx512 NTT as portable (mod q, |c| < q), random and extreme inputs");
    tap_ok(inv, "avx512 inverse NTT as portable (mod q, |c| < q), random and extreme inputs");
    tap_ok(mul, "avx512 basemul_acc as portable for 1-4 terms (mod q, |c| < q)");
}

/* add_reduce, sub_reduce and tomont_add exactly as portable. */
static void sum_pieces(void)
{
    int ok = 1;
    for (unsigned t = 0; t < 300; t++) {
        cs_mlkem_poly a, b, r[2];
        test_poly(&a, t);
        test_poly(&b, (t + 3) % 300);
        cs_mlkem_add_reduce_portable(&r[0], &a, &b);
        cs_mlkem_add_reduce_avx512(&r[1], &a, &b);
        ok &= !memcmp(&r[0], &r[1], sizeof r[0]);
        cs_mlkem_sub_reduce_portable(&r[0], &a, &b);
        cs_mlkem_sub_reduce_avx512(&r[1], &a, &b);
        ok &= !memcmp(&r[0], &r[1], sizeof r[0]);
        r[0] = a, r[1] = a;
        cs_mlkem_tomont_add_portable(&r[0], &b);
        cs_mlkem_tomont_add_avx512(&r[1], &b);
        ok &= !memcmp(&r[0], &r[1], sizeof r[0]);
    }
    tap_ok(ok, "avx512 add_reduce, sub_reduce, tomont_add exactly as portable");
}

/* ByteEncode_12 of every value in [-(q-1), q-1] (both signs), ByteDecode_12 of random
 * bytes and of all-zero and all-one bytes (every value 0 or 4095). */
static void coder12(void)
{
    int ok = 1;
    uint8_t buf[2][CS_MLKEM_POLY_BYTES];
    for (int base = 1 - Q; base < Q; base += CS_MLKEM_N) {
        cs_mlkem_poly p;
        for (unsigned i = 0; i < CS_MLKEM_N; i++)
            p.c[i] = (int16_t)(base + (int)i < Q ? base + (int)i : 0);
        cs_mlkem_tobytes_portable(buf[0], &p);
        cs_mlkem_tobytes_avx512(buf[1], &p);
        ok &= !memcmp(buf[0], buf[1], sizeof buf[0]);
    }
    for (unsigned t = 0; t < 200; t++) {
        cs_mlkem_poly r[2];
        uint8_t in[CS_MLKEM_POLY_BYTES + 64]; /* bytes after the 384 must not matter */
        if (t < 2)
            memset(in, t ? 0xFF : 0, CS_MLKEM_POLY_BYTES);
        else
            tap_rng_bytes(in, CS_MLKEM_POLY_BYTES);
        memset(in + CS_MLKEM_POLY_BYTES, (int)t, 64);
        cs_mlkem_frombytes_portable(&r[0], in);
        cs_mlkem_frombytes_avx512(&r[1], in);
        ok &= !memcmp(&r[0], &r[1], sizeof r[0]);
    }
    tap_ok(ok, "avx512 ByteEncode_12 of every value, ByteDecode_12 of random, 0 and 4095");
}

/* Compress_d of every value (both signs) and Decompress_d of random, all-zero and
 * all-one bytes, d = 1, 4, 5, 10, 11. */
static void compress_pieces(void)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    int ok = 1;
    for (unsigned di = 0; di < 5; di++) {
        unsigned d = ds[di];
        for (int base = 1 - Q; base < Q + 2 * CS_MLKEM_N; base += CS_MLKEM_N) {
            cs_mlkem_poly p, r[2];
            uint8_t out[2][32 * 11];
            for (unsigned i = 0; i < CS_MLKEM_N; i++) {
                int x = base + (int)i;
                p.c[i] = (int16_t)(x < Q ? x : (int)(tap_rng_u64() % (2 * Q - 1)) - (Q - 1));
            }
            cs_mlkem_compress_portable(out[0], &p, d);
            cs_mlkem_compress_avx512(out[1], &p, d);
            ok &= !memcmp(out[0], out[1], 32 * d);
            if (base < 1 - Q + 2 * CS_MLKEM_N)
                memset(out[0], base == 1 - Q ? 0 : 0xFF, 32 * d);
            else
                tap_rng_bytes(out[0], 32 * d);
            cs_mlkem_decompress_portable(&r[0], out[0], d);
            cs_mlkem_decompress_avx512(&r[1], out[0], d);
            ok &= !memcmp(&r[0], &r[1], sizeof r[0]);
        }
    }
    tap_ok(ok, "avx512 Compress_d of every value and Decompress_d, d = 1, 4, 5, 10, 11");
}

/* cs_mlkem_rej_uniform_avx512 as cs_mlkem_rej_uniform: the same count and values, nothing
 * written past the 256 coefficients (below them, slots past the count are scratch), for
 * random lengths, starting counts and byte mixes (some with most 12-bit values >= q, so the
 * last steps run near the end of r). */
static void rej_pieces(void)
{
    int ok = 1;
    for (unsigned t = 0; t < 3000; t++) {
        uint8_t buf[3 * 168 + 8];
        int16_t r1[CS_MLKEM_N + 16], r2[CS_MLKEM_N + 16];
        size_t len = (tap_rng_u64() % (3 * 168 / 3 + 1)) * 3;
        unsigned have = t % 4 == 0 ? 0 : (unsigned)(tap_rng_u64() % (CS_MLKEM_N + 1));
        tap_rng_bytes(buf, sizeof buf);
        if (t % 3 == 1) /* mostly rejected: high nibbles set */
            for (size_t i = 0; i < sizeof buf; i++)
                buf[i] |= (uint8_t)(i % 3 == 1 ? 0xD0 : 0xFF);
        for (unsigned i = 0; i < CS_MLKEM_N + 16; i++)
            r1[i] = r2[i] = (int16_t)(0x5A5A + i);
        unsigned n1 = cs_mlkem_rej_uniform(r1, have, buf, len);
        unsigned n2 = cs_mlkem_rej_uniform_avx512(r2, have, buf, len);
        /* slots past the count may be scratch until 256; nothing beyond */
        ok &= n1 == n2 && !memcmp(r1, r2, n1 * sizeof r1[0]) &&
              !memcmp(r1 + CS_MLKEM_N, r2 + CS_MLKEM_N, 16 * sizeof r1[0]);
    }
    tap_ok(ok, "avx512 rejection step as portable (random lengths, starting counts, rejections)");
}
#endif

int main(void)
{
    tap_rng_seed(512);
#if defined(__x86_64__)
    if ((cs_cpu_probe() & CS_CPU_AVX512_FVLBW) == CS_CPU_AVX512_FVLBW) {
        ntt_pieces();
        sum_pieces();
        coder12();
        compress_pieces();
        rej_pieces();
        return tap_done();
    }
#endif
    tap_skip("avx512 ML-KEM pieces: CPU lacks AVX-512");
    return tap_done();
}
