/* The four-lane IFMA field (kernels/c25519/x86_64/fe4_ifma.h) at the edges
 * of its stated bounds, compiled over the AVX-512 emulation (mk/ctemu.mk:
 * build/tests/kernel_c25519_fe4_avx512emu, so it runs on any AVX2 CPU):
 * fe4_mul_cols and fe4_mul with every limb of both operands and init up to
 * 2^52 - 1 (columns below 2^61, carried limbs valid multiplicands),
 * fe4_addsub with limbs up to 2^61 - 1 (the uncarried columns the ladder
 * feeds it; result limbs below 2^51 + 2^17), fe4_get of limbs below 2^61;
 * every value against a slow reference modulo p. Random limbs, all-maximal
 * ones and mixes. No OpenSSL. */
#include <stdint.h>
#include <string.h>

#include "kernels/c25519/x86_64/fe4_ifma.h"
#include "../support/tap.h"
/* The reference functions this test does not call. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../support/bn_ref.h"

/* p = 2^255 - 19 in 32-bit digits. */
static const uint32_t P32[8] = {0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff,
                                0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff};

/* r = sum of l[i] 2^(51 i) mod p (limbs up to 2^64 - 1). */
static void ref_of_limbs(uint32_t r[8], const uint64_t l[5])
{
    uint32_t a[10] = {0};
    for (int i = 0; i < 5; i++) {
        unsigned __int128 v = (unsigned __int128)l[i] << (51 * i % 32);
        for (int d = 51 * i / 32; d < 10; d++) {
            unsigned __int128 s = (unsigned __int128)a[d] + (uint32_t)v;
            a[d] = (uint32_t)s;
            v = (v >> 32) + (s >> 32);
        }
    }
    ref_mod(r, a, 10, P32, 8);
}

/* Lane `lane` of h's limbs. */
static void lane_limbs(uint64_t l[5], const __m256i h[5], int lane)
{
    for (int i = 0; i < 5; i++) {
        uint64_t q[4];
        memcpy(q, &h[i], sizeof q);
        l[i] = q[lane];
    }
}

/* A limb below `bound` (a power of two): random, or at its top, by kind. */
static uint64_t limb(uint64_t bound, unsigned kind)
{
    switch (kind % 4) {
    case 0: return bound - 1;
    case 1: return tap_rng_u64() & (bound - 1);
    case 2: return bound - 1 - (tap_rng_u64() & 0xffff);
    default: return (tap_rng_u64() & 1) ? bound - 1 : 0;
    }
}

/* x with every lane's limbs below bound, kinds varying by lane and limb. */
static void fill(__m256i x[5], uint64_t bound, unsigned t)
{
    for (int i = 0; i < 5; i++) {
        uint64_t q[4];
        for (int j = 0; j < 4; j++)
            q[j] = limb(bound, t == 0 ? 0 : t + (unsigned)(3 * i + j));
        memcpy(&x[i], q, sizeof q);
    }
}

/* Whether every limb of every lane is below bound. */
static int below(const __m256i h[5], uint64_t bound)
{
    int ok = 1;
    for (int lane = 0; lane < 4; lane++) {
        uint64_t l[5];
        lane_limbs(l, h, lane);
        for (int i = 0; i < 5; i++)
            ok &= l[i] < bound;
    }
    return ok;
}

int main(void)
{
    tap_rng_seed(0xfe4);
    unsigned bad_mul = 0, bad_cols = 0, bad_bound = 0, bad_add = 0, bad_get = 0;
    const uint64_t b52 = 1ULL << 52, b61 = 1ULL << 61;
    for (unsigned t = 0; t < 3000; t++) {
        fe4 f, g, h;
        __m256i init[5], c[5];
        fill(f.l, b52, t);
        fill(g.l, b52, t / 2 + 1);
        fill(init, b52, t / 3 + 2);
        fe4_mul_cols(c, &f, &g, init);
        fe4_mul(&h, &f, &g, init);
        bad_bound += !below(c, b61) + !below(h.l, (1ULL << 51) + (1ULL << 17));
        for (int lane = 0; lane < 4; lane++) {
            uint64_t lf[5], lg[5], li[5], lc[5], lh[5];
            uint32_t rf[8], rg[8], ri[8], rc[8], rh[8], want[8], prod[16];
            lane_limbs(lf, f.l, lane);
            lane_limbs(lg, g.l, lane);
            lane_limbs(li, init, lane);
            lane_limbs(lc, c, lane);
            lane_limbs(lh, h.l, lane);
            ref_of_limbs(rf, lf);
            ref_of_limbs(rg, lg);
            ref_of_limbs(ri, li);
            ref_of_limbs(rc, lc);
            ref_of_limbs(rh, lh);
            ref_mul(prod, rf, 8, rg, 8);
            ref_mod(want, prod, 16, P32, 8);
            uint32_t sum[9];
            uint64_t k = 0;
            for (int d = 0; d < 8; d++) {
                k += (uint64_t)want[d] + ri[d];
                sum[d] = (uint32_t)k;
                k >>= 32;
            }
            sum[8] = (uint32_t)k;
            ref_mod(want, sum, 9, P32, 8);
            bad_cols += memcmp(rc, want, 32) != 0;
            bad_mul += memcmp(rh, want, 32) != 0;
        }
        /* sums and differences of uncarried columns, and fe4_get of them */
        fe4 a, b;
        fill(a.l, b61, t + 5);
        fill(b.l, b61, t / 5 + 7);
        int dmask = (int)(t % 16);
        dmask = LANES(dmask & 1, dmask >> 1 & 1, dmask >> 2 & 1, dmask >> 3 & 1);
        fe4_addsub(&h, &a, &b, dmask);
        bad_bound += !below(h.l, (1ULL << 51) + (1ULL << 17));
        for (int lane = 0; lane < 4; lane++) {
            uint64_t la[5], lb[5], lh[5], out[4];
            uint32_t ra[8], rb[8], rh[8], want[8], tmp[9];
            lane_limbs(la, a.l, lane);
            lane_limbs(lb, b.l, lane);
            lane_limbs(lh, h.l, lane);
            ref_of_limbs(ra, la);
            ref_of_limbs(rb, lb);
            ref_of_limbs(rh, lh);
            int diff = dmask >> (2 * lane) & 1;
            /* b + a, or b - a as b + (p - a) */
            uint64_t k = 0, br = 0;
            uint32_t na[8];
            for (int d = 0; d < 8; d++) {
                uint64_t s = (uint64_t)P32[d] - ra[d] - br;
                na[d] = (uint32_t)s;
                br = (s >> 63) & 1;
            }
            for (int d = 0; d < 8; d++) {
                k += (uint64_t)rb[d] + (diff ? na[d] : ra[d]);
                tmp[d] = (uint32_t)k;
                k >>= 32;
            }
            tmp[8] = (uint32_t)k;
            ref_mod(want, tmp, 9, P32, 8);
            bad_add += memcmp(rh, want, 32) != 0;
            /* fe4_get of a's lane: the same value, packed below 2^256 */
            fe4_get(out, &a, lane);
            uint32_t ro[9], rr[8];
            for (int d = 0; d < 4; d++) {
                ro[2 * d] = (uint32_t)out[d];
                ro[2 * d + 1] = (uint32_t)(out[d] >> 32);
            }
            ro[8] = 0;
            ref_mod(rr, ro, 9, P32, 8);
            bad_get += memcmp(rr, ra, 32) != 0;
        }
    }
    tap_ok(bad_cols == 0, "fe4_mul_cols + init, limbs up to 2^52 - 1: 12000 lanes as the reference "
                          "(%u differ)", bad_cols);
    tap_ok(bad_mul == 0, "fe4_mul (carried) the same (%u differ)", bad_mul);
    tap_ok(bad_add == 0, "fe4_addsub, limbs up to 2^61 - 1, every lane mask: as the reference "
                         "(%u differ)", bad_add);
    tap_ok(bad_get == 0, "fe4_get of limbs up to 2^61 - 1: the same value (%u differ)", bad_get);
    tap_ok(bad_bound == 0, "bounds: columns below 2^61, carried limbs below 2^51 + 2^17 (%u over)",
           bad_bound);
    return tap_done();
}
