/* X25519 kernels (kernels/c25519): the portable field against a slow
 * reference modulo 2^255 - 19; then every implementation in
 * cs_c25519_impls that this CPU runs on RFC 7748's vectors (5.2, the
 * iterated one to 1,000 iterations, 6.1's exchange), Wycheproof's
 * x25519_test.json (an all-zero shared secret must return 0), x25519_base
 * against the ladder on 9, and random and edge inputs against the portable
 * table. No OpenSSL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/c25519/c25519.h"
#include "runtime/cpu.h"
/* The template helpers and reference functions this test does not call. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "support/bn_ref.h"
#include "support/json.h"
#include "support/c25519_runs.h"
#include "support/tap.h"
#include "support/vectors.h"

#ifdef __SIZEOF_INT128__
#include "kernels/c25519/fe51.h"
#include "kernels/c25519/x25519_ladder.h"
#include "support/fe25519_ref.h"

/* The integer an fe holds (its limbs, not reduced), as 9 32-bit digits. */
static void fe_to_ref(uint32_t r[9], const fe *f)
{
    memset(r, 0, 9 * sizeof(uint32_t));
    for (int i = 4; i >= 0; i--) {
        /* r = r * 2^51 + limb */
        uint32_t t[9] = {0};
        for (int bit = 0; bit < 9 * 32; bit++) {
            int src = bit - 51;
            if (src >= 0 && ((r[src / 32] >> (src % 32)) & 1))
                t[bit / 32] |= 1u << (bit % 32);
        }
        uint64_t c = f->v[i];
        for (int j = 0; j < 9; j++) {
            c += t[j];
            t[j] = (uint32_t)c;
            c >>= 32;
        }
        memcpy(r, t, sizeof(t));
    }
}

/* r (8 digits) = the value of f modulo p. */
static void ref_of(uint32_t r[8], const fe *f)
{
    uint32_t a[9];
    fe_to_ref(a, f);
    ref_mod(r, a, 9, P32, 8);
}

/* A random fe with limbs up to the loose bound (2^51 + 2^15), or at edges. */
static void random_fe(fe *f, unsigned kind)
{
    for (int i = 0; i < 5; i++) {
        uint64_t r = tap_rng_u64();
        switch (kind % 4) {
        case 0: f->v[i] = r & FE51_MASK; break;
        case 1: f->v[i] = FE51_MASK + (r & 0x7fff); break; /* top of the loose range */
        case 2: f->v[i] = (r & 1) ? FE51_MASK : 0; break;
        default: f->v[i] = (r >> 13) % (FE51_MASK + 0x8000); break;
        }
    }
}

/* Every limb within the loose bound: outputs are valid inputs. */
static int loose(const fe *h)
{
    int ok = 1;
    for (int i = 0; i < 5; i++)
        ok &= h->v[i] < FE51_MASK + 0x8000;
    return ok;
}

/* fe51's operations against the reference on random and edge values, and
 * fe_frombytes of fe_tobytes. */
static void field_portable(void)
{
    unsigned bad[FE_BAD_KINDS] = {0};
    for (unsigned t = 0; t < 4000; t++) {
        fe f, g, h;
        uint32_t rf[8], rh[8];
        random_fe(&f, t);
        random_fe(&g, t / 4);
        fe_ref_check(bad, rf, &f, &g, loose, t % 40 == 0);
        uint8_t s[32];
        fe_tobytes(s, &f);
        fe_frombytes(&h, s);
        ref_of(rh, &h);
        bad[FE_BAD_BYTES] += memcmp(rh, rf, 32) != 0;
    }
    static const char *const what[FE_BAD_KINDS] = {"mul", "sq", "add", "sub", "mul121666",
                                                   "tobytes/frombytes", "bounds", "invert"};
    fe_ref_report("fe51", bad, what);
    /* values >= p: frombytes of p, p+1, 2^255-1 encode as 0, 1, 18 */
    static const uint8_t top[3] = {0xed, 0xee, 0xff};
    static const uint8_t want0[3] = {0, 1, 18};
    int ok = 1;
    for (int j = 0; j < 3; j++) {
        uint8_t s[32], o[32];
        fe f;
        memset(s, 0xff, 32);
        s[0] = top[j];
        s[31] = 0x7f;
        fe_frombytes(&f, s);
        fe_tobytes(o, &f);
        ok &= o[0] == want0[j];
        for (int i = 1; i < 32; i++)
            ok &= o[i] == 0;
        s[31] = 0xff; /* the top bit is ignored */
        fe_frombytes(&f, s);
        fe_tobytes(o, &f);
        ok &= o[0] == want0[j];
    }
    tap_ok(ok, "fe51 reduces p, p+1, 2^255-1 and ignores bit 255");
}

/* c25519_inv_bytes (divsteps) against the Fermat chain on random values
 * and the edges 0, 1, 2, p-1, p-2, 2^255-20 - k, small powers of two. */
static void modinv(void)
{
    unsigned bad = 0;
    for (unsigned t = 0; t < 3000; t++) {
        uint8_t s[32], a[32], b[32];
        tap_rng_bytes(s, 32);
        s[31] &= 0x7f;
        switch (t % 6) {
        case 1: memset(s + 1, 0, 31); s[0] = (uint8_t)(t / 6 % 3); break;
        case 2: memset(s, 0xff, 32); s[31] = 0x7f; s[0] = (uint8_t)(0xec - t / 6 % 40); break;
        case 3: memset(s, 0, 32); s[(t / 6) % 32] = (uint8_t)(1u << (t % 8)); s[31] &= 0x7f; break;
        case 4: memset(s + 16, 0, 16); break;
        default: break;
        }
        fe f, g;
        fe_frombytes(&f, s);
        fe_tobytes(s, &f); /* canonical */
        c25519_inv_bytes(a, s);
        c25519_fe_invert(&g, &f);
        fe_tobytes(b, &g);
        bad += memcmp(a, b, 32) != 0;
    }
    tap_ok(bad == 0, "divsteps inversion = Fermat inversion on 3000 values (%u differ)", bad);
}
#endif

static void unhex32(uint8_t out[32], const char *hex)
{
    if (vec_unhex(out, 32, hex, 64) != 32)
        abort();
}

static int same_hex(const uint8_t b[32], const char *hex)
{
    uint8_t w[32];
    unhex32(w, hex);
    return !memcmp(b, w, 32);
}

/* RFC 7748 5.2 (both vectors), 5.2's iteration to 1,000, 6.1's exchange. */
static void rfc7748(const cs_c25519_impl *im)
{
    static const char *const v[2][3] = {
        {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
        {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
    };
    uint8_t k[32], u[32], out[32];
    for (int i = 0; i < 2; i++) {
        unhex32(k, v[i][0]);
        unhex32(u, v[i][1]);
        int r = im->x25519(out, k, u);
        tap_ok(r == 1 && same_hex(out, v[i][2]), "%s: RFC 7748 5.2 vector %d", im->name, i + 1);
    }
    memset(k, 0, 32);
    k[0] = 9;
    memcpy(u, k, 32);
    int ok1 = 0;
    for (int i = 1; i <= 1000; i++) {
        im->x25519(out, k, u);
        memcpy(u, k, 32);
        memcpy(k, out, 32);
        if (i == 1)
            ok1 = same_hex(k, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    }
    tap_ok(ok1, "%s: RFC 7748 5.2 after 1 iteration", im->name);
    tap_ok(same_hex(k, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"),
           "%s: RFC 7748 5.2 after 1,000 iterations", im->name);

    uint8_t a[32], b[32], pa[32], pb[32], sa[32], sb[32];
    unhex32(a, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    unhex32(b, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    im->x25519_base(pa, a);
    im->x25519_base(pb, b);
    int ra = im->x25519(sa, a, pb), rb = im->x25519(sb, b, pa);
    tap_ok(same_hex(pa, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a") &&
               same_hex(pb, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f") &&
               ra == 1 && rb == 1 &&
               same_hex(sa, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742") &&
               !memcmp(sa, sb, 32),
           "%s: RFC 7748 6.1 public keys (x25519_base) and shared secret", im->name);
}

/* Wycheproof x25519_test.json: every case's shared secret; all-zero ones
 * (the low-order peers) must return 0 with out all zero. */
static void wycheproof(const cs_c25519_impl *im, vec_wyc *w)
{
    unsigned n = 0, bad = 0, zeros = 0;
    vec_wyc_rewind(w);
    while (vec_wyc_group(w)) {
        for (const json *c; (c = vec_wyc_test(w));) {
            const char *pub = json_get_str(c, "public"), *priv = json_get_str(c, "private"),
                       *shared = json_get_str(c, "shared"), *res = json_get_str(c, "result");
            uint8_t k[32], u[32], want[32], out[32];
            if (!pub || !priv || !shared || !res || strlen(pub) != 64 || strlen(priv) != 64 ||
                strlen(shared) != 64) {
                bad++;
                continue;
            }
            unhex32(k, priv);
            unhex32(u, pub);
            unhex32(want, shared);
            static const uint8_t zero[32];
            int is_zero = !memcmp(want, zero, 32);
            int r = im->x25519(out, k, u);
            n++;
            zeros += is_zero;
            if (strcmp(res, "invalid") != 0 && (memcmp(out, want, 32) || r != !is_zero)) {
                bad++;
                tap_diag("%s: tcId %d differs", im->name, (int)json_get(c, "tcId")->num);
            }
        }
    }
    tap_ok(n == 518 && bad == 0, "%s: Wycheproof x25519, %u cases (%u all-zero), %u differ",
           im->name, n, zeros, bad);
}

/* x25519_base(k) == x25519(k, 9), and im agrees with portable on random
 * scalars and peers: top bit set, u >= p, u in {0, 1, p-1, p, p+1}. The
 * first 24 x25519_base scalars repeat one byte, for the comb's extreme
 * radix-16 digits (all 0, 7, -8 with -7 from 0x88, -1 from 0xff, ...). */
static void against_portable(const cs_c25519_impl *im, const cs_c25519_impl *ref)
{
    static const uint8_t nine[32] = {9};
    static const uint8_t rep[24] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                    0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
                                    0x80, 0x08, 0x78, 0x87, 0x7f, 0xf7, 0x01, 0x10};
    unsigned bad_base = 0, bad = 0;
    for (unsigned t = 0; t < 3000; t++) {
        uint8_t k[32], u[32], o1[32], o2[32];
        tap_rng_bytes(k, 32);
        tap_rng_bytes(u, 32);
        switch (t % 8) {
        case 1: u[31] |= 0x80; break;
        case 2: /* p <= u < 2^255 */
            memset(u + 1, 0xff, 31);
            u[31] = 0x7f | (u[0] & 0x80);
            u[0] = (uint8_t)(0xed + (u[0] % 19));
            break;
        case 3:
            memset(u, t & 8 ? 0xff : 0, 32);
            u[0] = (uint8_t)(t >> 4);
            break;
        default: break;
        }
        if (t % 3 == 0) {
            if (t / 3 < 24)
                memset(k, rep[t / 3], 32);
            im->x25519_base(o1, k);
            ref->x25519(o2, k, nine);
            bad_base += memcmp(o1, o2, 32) != 0;
        }
        int r1 = im->x25519(o1, k, u), r2 = ref->x25519(o2, k, u);
        bad += r1 != r2 || memcmp(o1, o2, 32) != 0;
    }
    tap_ok(bad_base == 0, "%s: x25519_base(k) = portable x25519(k, 9), %u differ", im->name,
           bad_base);
    tap_ok(bad == 0, "%s: 3000 random and edge (k, u) as portable (%u differ)", im->name, bad);
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(7748);
    if (!cs_c25519_impls[0]) {
        tap_skip("c25519: no implementation built for this target");
        return tap_done();
    }
#ifdef __SIZEOF_INT128__
    field_portable();
    modinv();
#endif
    vec_wyc w;
    int have_vectors = vec_wyc_open(&w, "wycheproof/x25519_test.json") == 0;
    tap_ok(have_vectors, "read and parse wycheproof/x25519_test.json");
    for (const cs_c25519_impl *const *i = cs_c25519_impls; *i; i++) {
        const cs_c25519_impl *im = *i;
        if (!c25519_runs(im, have, 0))
            continue;
        rfc7748(im);
        if (have_vectors)
            wycheproof(im, &w);
#ifdef __SIZEOF_INT128__
        against_portable(im, &cs_c25519_portable);
#endif
    }
#ifdef __SIZEOF_INT128__
    tap_ok(cs_c25519_impls[0] == &cs_c25519_portable,
           "portable first in cs_c25519_impls (kernels/impl.h)");
#endif
    vec_wyc_close(&w);
    return tap_done();
}
