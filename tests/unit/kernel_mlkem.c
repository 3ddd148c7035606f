/* ML-KEM kernels against published vectors (Wycheproof, tests/vectors/mlkem):
 * key generation from d || z, encapsulation from m, decapsulation with
 * implicit rejection, the FIPS 203 section 7 key checks on hostile keys,
 * for every implementation this CPU runs; and the compression of every
 * coefficient against exact rounding. No OpenSSL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "kernels/mlkem/mlkem_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"
#include "support/vectors.h"

/* Calls fn on every test of every group of mlkem/mlkem_<ps>_<kind>.json; one
 * TAP line for the file: all tests passed. fn returns 1 when a test passed. */
static void each_test(const cs_mlkem_impl *im, int ps, const char *kind,
                      int (*fn)(const cs_mlkem_impl *, int, const json *))
{
    char name[128];
    snprintf(name, sizeof name, "mlkem/mlkem_%d_%s.json", ps, kind);
    vec_wyc w;
    if (vec_wyc_open(&w, name)) {
        tap_ok(0, "read and parse %s/%s", vec_dir(), name);
        return;
    }
    unsigned n = 0, bad = 0;
    while (vec_wyc_group(&w))
        for (const json *t; (t = vec_wyc_test(&w));) {
            n++;
            if (!fn(im, ps, t) && ++bad <= 5)
                tap_diag("%s %s: tcId %d failed", im->name, name, vec_wyc_id(t));
        }
    tap_ok(n > 0 && bad == 0, "%s: %s, %u tests, %u failed", im->name, name + 6, n, bad);
    vec_wyc_close(&w);
}

/* keygen_seed: d || z gives ek and dk; both pass the key checks. */
static int t_keygen(const cs_mlkem_impl *im, int ps, const json *t)
{
    size_t ns, ne, nd;
    uint8_t *seed = vec_json_hex(t, "seed", &ns), *ek = vec_json_hex(t, "ek", &ne),
            *dk = vec_json_hex(t, "dk", &nd);
    uint8_t ek2[1568], dk2[3168];
    int ok = ns == 64 && im->keygen(ps, ek2, dk2, seed, seed + 32) == 0 &&
             ne == cs_mlkem_ek_bytes(ps) && !memcmp(ek, ek2, ne) &&
             nd == cs_mlkem_dk_bytes(ps) && !memcmp(dk, dk2, nd) &&
             cs_mlkem_check_ek(ps, ek2) == 1 && cs_mlkem_check_dk(NULL, ps, dk2) == 1;
    ok = ok == vec_wyc_valid(t);
    free(seed), free(ek), free(dk);
    return ok;
}

/* The decapsulation tests: keygen from seed (a wrong-length seed is the
 * invalid case), ek as given, then decaps of c (of the right length) to K;
 * the invalid cases are refused by length, as a caller would. */
static int t_decaps(const cs_mlkem_impl *im, int ps, const json *t)
{
    size_t ns, ne, nc, nk;
    uint8_t *seed = vec_json_hex(t, "seed", &ns), *ek = vec_json_hex(t, "ek", &ne),
            *c = vec_json_hex(t, "c", &nc), *k = vec_json_hex(t, "K", &nk);
    uint8_t ek2[1568], dk2[3168], ss[32];
    int ok = 0;
    if (ns == 64 && nc == cs_mlkem_ct_bytes(ps)) {
        ok = im->keygen(ps, ek2, dk2, seed, seed + 32) == 0 &&
             (ne == 0 || (ne == cs_mlkem_ek_bytes(ps) && !memcmp(ek, ek2, ne))) &&
             im->decaps(ps, ss, c, dk2) == 0 && nk == 32 && !memcmp(ss, k, 32);
    }
    ok = ok == vec_wyc_valid(t);
    free(seed), free(ek), free(c), free(k);
    return ok;
}

/* Encapsulation from m: ek of the wrong length or failing the modulus check is the invalid
 * case; otherwise c and K must match. */
static int t_encaps(const cs_mlkem_impl *im, int ps, const json *t)
{
    size_t nm, ne, nc, nk;
    uint8_t *m = vec_json_hex(t, "m", &nm), *ek = vec_json_hex(t, "ek", &ne), *c = vec_json_hex(t, "c", &nc),
            *k = vec_json_hex(t, "K", &nk);
    uint8_t ct[1568], ss[32];
    int ok = 0;
    if (nm == 32 && ne == cs_mlkem_ek_bytes(ps) && cs_mlkem_check_ek(ps, ek)) {
        ok = im->encaps(ps, ct, ss, ek, m) == 0 && nc == cs_mlkem_ct_bytes(ps) &&
             !memcmp(ct, c, nc) && nk == 32 && !memcmp(ss, k, 32);
    }
    ok = ok == vec_wyc_valid(t);
    free(m), free(ek), free(c), free(k);
    return ok;
}

/* Decapsulation with a given dk: wrong lengths and dk failing the hash check are invalid. */
static int t_dk(const cs_mlkem_impl *im, int ps, const json *t)
{
    size_t nd, nc, nk;
    uint8_t *dk = vec_json_hex(t, "dk", &nd), *c = vec_json_hex(t, "c", &nc), *k = vec_json_hex(t, "K", &nk);
    uint8_t ss[32];
    int ok = 0;
    if (nd == cs_mlkem_dk_bytes(ps) && nc == cs_mlkem_ct_bytes(ps) && cs_mlkem_check_dk(NULL, ps, dk))
        ok = im->decaps(ps, ss, c, dk) == 0 && nk == 32 && !memcmp(ss, k, 32);
    ok = ok == vec_wyc_valid(t);
    free(dk), free(c), free(k);
    return ok;
}

/* Implicit rejection: a random ciphertext decapsulates to J(z || c), computed here
 * with the SHAKE256 sponge; a corrupted dk hash or an ek coefficient >= q fails
 * its check. */
static void hostile(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], ek[1568], dk[3168], ct[1568], ss[32], want[32];
    size_t ekn = cs_mlkem_ek_bytes(ps), dkn = cs_mlkem_dk_bytes(ps), ctn = cs_mlkem_ct_bytes(ps);
    int rej = 1, eks = 1, dks = 1;
    for (int i = 0; i < 20; i++) {
        tap_rng_bytes(d, 32);
        tap_rng_bytes(z, 32);
        tap_rng_bytes(ct, ctn);
        im->keygen(ps, ek, dk, d, z);
        im->decaps(ps, ss, ct, dk);
        cs_shake st;
        cs_shake_init(&st, &cs_keccak_portable, CS_SHAKE256_RATE);
        cs_shake_absorb(&st, z, 32);
        cs_shake_absorb(&st, ct, ctn);
        cs_shake_squeeze(&st, want, 32);
        rej &= !memcmp(ss, want, 32);
        /* one coefficient set to a value in [q, 4096) */
        size_t pos = (tap_rng_u64() % (ekn - 32)) / 3 * 3;
        unsigned v = 3329 + (unsigned)(tap_rng_u64() % (4096 - 3329));
        uint8_t bad[1568];
        memcpy(bad, ek, ekn);
        if (i & 1) {
            bad[pos + 1] = (uint8_t)((bad[pos + 1] & 0x0F) | (v << 4));
            bad[pos + 2] = (uint8_t)(v >> 4);
        } else {
            bad[pos] = (uint8_t)v;
            bad[pos + 1] = (uint8_t)((bad[pos + 1] & 0xF0) | (v >> 8));
        }
        eks &= cs_mlkem_check_ek(ps, ek) == 1 && cs_mlkem_check_ek(ps, bad) == 0;
        uint8_t dbad[3168];
        memcpy(dbad, dk, dkn);
        dbad[dkn - 64 + (tap_rng_u64() % 32)] ^= (uint8_t)(1u << (tap_rng_u64() % 8));
        uint8_t dbad2[3168];
        memcpy(dbad2, dk, dkn);
        dbad2[384 * (dkn / 768) + (tap_rng_u64() % ekn)] ^= 1; /* the ek inside dk */
        dks &= cs_mlkem_check_dk(NULL, ps, dk) == 1 && cs_mlkem_check_dk(NULL, ps, dbad) == 0 &&
               cs_mlkem_check_dk(NULL, ps, dbad2) == 0;
    }
    tap_ok(rej, "%s: ML-KEM-%d random ciphertexts give J(z || c)", im->name, ps);
    tap_ok(eks, "%s: ML-KEM-%d ek with a coefficient >= q fails check_ek", im->name, ps);
    tap_ok(dks, "%s: ML-KEM-%d dk with a wrong H(ek) fails check_dk", im->name, ps);
}

/* Compress_d of every x in [0, q) against round(2^d x / q) = (2^(d+1) x + q) / 2q,
 * and Decompress_d of every y against round(q y / 2^d). */
static void compression(void)
{
    static const unsigned ds[] = {4, 5, 10, 11};
    int ok = 1;
    for (unsigned di = 0; di < 4; di++) {
        unsigned d = ds[di];
        for (unsigned base = 0; base < 3329; base += 256) {
            cs_mlkem_poly p, back;
            uint8_t out[32 * 11];
            for (unsigned i = 0; i < 256; i++) {
                unsigned x = (base + i) % 3329;
                /* alternate centred and non-negative representatives */
                p.c[i] = (int16_t)((i & 1) && x > 1664 ? (int)x - 3329 : (int)x);
            }
            cs_mlkem_compress_portable(out, &p, d);
            cs_mlkem_decompress_portable(&back, out, d);
            for (unsigned i = 0; i < 256; i++) {
                unsigned x = (base + i) % 3329;
                unsigned want = ((2u << d) * x + 3329) / (2 * 3329) % (1u << d);
                unsigned got = 0;
                for (unsigned b = 0; b < d; b++)
                    got |= (unsigned)((out[(i * d + b) / 8] >> ((i * d + b) % 8)) & 1) << b;
                unsigned dec = (3329 * 2 * got + (1u << d)) / (2u << d);
                ok &= got == want && (unsigned)back.c[i] == dec;
            }
        }
    }
    tap_ok(ok, "Compress_d/Decompress_d of every coefficient, d = 4, 5, 10, 11");
}

int main(void)
{
    static const int sets[] = {512, 768, 1024};
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(203);
    compression();
    tap_ok(cs_mlkem_ek_bytes(768) == 1184 && cs_mlkem_dk_bytes(1024) == 3168 &&
               cs_mlkem_ct_bytes(512) == 768 && cs_mlkem_ek_bytes(769) == 0,
           "sizes");
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++) {
        const cs_mlkem_impl *im = *i;
        if (!impl_runs(im->name, im->cpu_features, have))
            continue;
        uint8_t ek[1568], dk[3168], d[32] = {0};
        tap_ok(im->keygen(767, ek, dk, d, d) == -1, "%s: unknown parameter set refused", im->name);
        for (unsigned s = 0; s < 3; s++) {
            each_test(im, sets[s], "keygen_seed_test", t_keygen);
            each_test(im, sets[s], "test", t_decaps);
            each_test(im, sets[s], "encaps_test", t_encaps);
            each_test(im, sets[s], "semi_expanded_decaps_test", t_dk);
            hostile(im, sets[s]);
        }
    }
    return tap_done();
}
