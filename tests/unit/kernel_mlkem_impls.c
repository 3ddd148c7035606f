/* Every ML-KEM implementation this CPU runs against the portable one: the
 * same ek, dk, ciphertext and shared secret for random d, z, m, and the same
 * implicit-rejection secret for corrupted ciphertexts, per parameter set;
 * on x86-64 also the AVX2 pieces one by one (NTTs and products by residue,
 * every coefficient through the coders). No OpenSSL. */
#include <stdio.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "kernels/mlkem/mlkem_backend.h"
#if defined(__x86_64__)
#include "kernels/mlkem/x86_64/mlkem_x86.h"
#endif
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"

#define TRIALS 100

/* keygen, encaps, decaps and a corrupted decaps of im and portable agree. */
static void against_portable(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], m[32], ek[2][1568], dk[2][3168], ct[2][1568], ss[2][32], s2[2][32];
    size_t ekn = cs_mlkem_ek_bytes(ps), dkn = cs_mlkem_dk_bytes(ps), ctn = cs_mlkem_ct_bytes(ps);
    const cs_mlkem_impl *two[2] = {&cs_mlkem_portable, im};
    unsigned bad = 0;
    for (unsigned t = 0; t < TRIALS; t++) {
        tap_rng_bytes(d, 32);
        tap_rng_bytes(z, 32);
        tap_rng_bytes(m, 32);
        size_t flip = tap_rng_u64() % ctn;
        for (unsigned i = 0; i < 2; i++) {
            two[i]->keygen(ps, ek[i], dk[i], d, z);
            two[i]->encaps(ps, ct[i], ss[i], ek[0], m);
            two[i]->decaps(ps, s2[i], ct[0], dk[0]);
        }
        int ok = !memcmp(ek[0], ek[1], ekn) && !memcmp(dk[0], dk[1], dkn) &&
                 !memcmp(ct[0], ct[1], ctn) && !memcmp(ss[0], ss[1], 32) &&
                 !memcmp(s2[0], ss[0], 32) && !memcmp(s2[1], ss[0], 32);
        ct[0][flip] ^= (uint8_t)(1u << (t % 8));
        for (unsigned i = 0; i < 2; i++)
            two[i]->decaps(ps, s2[i], ct[0], dk[0]);
        ok &= !memcmp(s2[0], s2[1], 32) && memcmp(s2[0], ss[0], 32);
        bad += !ok;
    }
    tap_ok(bad == 0, "%s: ML-KEM-%d, %u random seeds as portable (%u differ)", im->name, ps,
           TRIALS, bad);
}

#if defined(__x86_64__)
/* a == b mod q, coefficient by coefficient. */
static int same_mod_q(const cs_mlkem_poly *a, const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        if (((a->c[i] - b->c[i]) % CS_MLKEM_Q) != 0)
            return 0;
    return 1;
}

/* Random coefficients with |c| < bound. */
static void random_poly(cs_mlkem_poly *p, int bound)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        p->c[i] = (int16_t)((int)(tap_rng_u64() % (2 * bound - 1)) - (bound - 1));
}

/* The AVX2 NTT, inverse and products against the portable ones (by residue and range),
 * and the AVX2 coders on every coefficient value and random bytes. */
static void avx2_pieces(void)
{
    int ntt = 1, inv = 1, mul = 1, code = 1;
    for (unsigned t = 0; t < 200; t++) {
        cs_mlkem_poly a, b, a2, b2[4], c[4], r, r2;
        random_poly(&a, CS_MLKEM_Q);
        a2 = a;
        cs_mlkem_ntt_portable(&a);
        cs_mlkem_ntt_avx2(&a2);
        ntt &= same_mod_q(&a, &a2);
        for (unsigned i = 0; i < CS_MLKEM_N; i++)
            ntt &= a2.c[i] > -CS_MLKEM_Q && a2.c[i] < CS_MLKEM_Q;
        random_poly(&b, CS_MLKEM_Q);
        r = b, r2 = b;
        cs_mlkem_invntt_portable(&r);
        cs_mlkem_invntt_avx2(&r2);
        inv &= same_mod_q(&r, &r2);
        for (unsigned i = 0; i < 4; i++) {
            for (unsigned j = 0; j < CS_MLKEM_N; j++) /* as decoded keys: [0, 4096) */
                c[i].c[j] = (int16_t)(tap_rng_u64() % 4096);
            random_poly(&b2[i], CS_MLKEM_Q);
        }
        cs_mlkem_basemul_acc_portable(&r, c, b2, 1 + t % 4);
        cs_mlkem_basemul_acc_avx2(&r2, c, b2, 1 + t % 4);
        mul &= same_mod_q(&r, &r2);
        for (unsigned i = 0; i < CS_MLKEM_N; i++)
            mul &= r2.c[i] > -CS_MLKEM_Q && r2.c[i] < CS_MLKEM_Q;
        uint8_t buf[2][CS_MLKEM_POLY_BYTES];
        cs_mlkem_tobytes_portable(buf[0], &a);
        cs_mlkem_tobytes_avx2(buf[1], &a);
        code &= !memcmp(buf[0], buf[1], sizeof buf[0]);
        tap_rng_bytes(buf[0], sizeof buf[0]);
        cs_mlkem_frombytes_portable(&r, buf[0]);
        cs_mlkem_frombytes_avx2(&r2, buf[0]);
        code &= !memcmp(&r, &r2, sizeof r);
    }
    for (unsigned t = 0; t < 100; t++) {
        uint8_t buf[192];
        cs_mlkem_poly r, r2;
        tap_rng_bytes(buf, sizeof buf);
        unsigned eta = 2 + t % 2;
        cs_mlkem_cbd(&r, buf, eta);
        cs_mlkem_cbd_avx2(&r2, buf, eta);
        code &= !memcmp(&r, &r2, sizeof r);
    }
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    for (unsigned di = 0; di < 5; di++) {
        unsigned d = ds[di];
        for (unsigned base = 0; base < CS_MLKEM_Q + 256; base += 256) {
            cs_mlkem_poly p, r, r2;
            uint8_t out[2][32 * 11];
            for (unsigned i = 0; i < CS_MLKEM_N; i++) {
                int x = (int)((base + i) % CS_MLKEM_Q);
                p.c[i] = (int16_t)((i & 1) && x > 1664 ? x - CS_MLKEM_Q : x);
            }
            cs_mlkem_compress_portable(out[0], &p, d);
            cs_mlkem_compress_avx2(out[1], &p, d);
            code &= !memcmp(out[0], out[1], 32 * d);
            tap_rng_bytes(out[0], 32 * d);
            cs_mlkem_decompress_portable(&r, out[0], d);
            cs_mlkem_decompress_avx2(&r2, out[0], d);
            code &= !memcmp(&r, &r2, sizeof r);
        }
    }
    tap_ok(ntt, "avx2 NTT as portable (mod q, |c| < q)");
    tap_ok(inv, "avx2 inverse NTT as portable (mod q)");
    tap_ok(mul, "avx2 basemul_acc as portable for 1-4 terms (mod q, |c| < q)");
    tap_ok(code, "avx2 12-bit coders, CBD_2, CBD_3 and Compress/Decompress d = 1, 4, 5, 10, 11 "
                 "as portable");
}
#endif

int main(void)
{
    static const int sets[] = {512, 768, 1024};
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(2027);
#if defined(__x86_64__)
    if (have & CS_CPU_AVX2)
        avx2_pieces();
    else
        tap_skip("avx2 pieces: CPU lacks AVX2");
#endif
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++) {
        const cs_mlkem_impl *im = *i;
        if (im == &cs_mlkem_portable)
            continue;
        if (!impl_runs(im->name, im->cpu_features, have))
            continue;
        for (unsigned s = 0; s < 3; s++)
            against_portable(im, sets[s]);
    }
    tap_ok(cs_mlkem_impls[0] == &cs_mlkem_portable, "portable first (kernels/impl.h)");
    return tap_done();
}
