/* The narrow interface between the generic ML-DSA code (sign.c: FIPS 204's
 * algorithms, encodings, hashing glue) and a per-ISA backend.
 *
 * A backend is one `struct cs_mldsa_impl`: a table of function pointers for
 * the pieces that dominate run time. A new backend starts as a copy of the
 * portable table (cs_mldsa_portable_ops() fills one) and replaces entries
 * one at a time; tests/unit/kernel_mldsa.c compares every entry of every
 * impl in cs_mldsa_impls[] against the portable one on random inputs.
 *
 * Representations
 * - q = 8380417. A polynomial is 256 int32_t coefficients (cs_mldsa_poly,
 *   32-byte aligned so SIMD code may use aligned loads).
 * - "Normal domain": coefficient i is the coefficient of X^i. Packing,
 *   rounding, norms and hints work on this domain only.
 * - "NTT domain": OPAQUE to the generic code. The generic code never reads
 *   or writes NTT-domain coefficients itself: NTT-domain data is produced
 *   only by ntt() and expand_a(), and consumed only by pointwise_mont(),
 *   pointwise_acc_mont() and invntt_tomont() (plus the elementwise
 *   reduce32/add/sub, which are order-independent). So a backend may store
 *   NTT-domain polynomials in any fixed permutation it likes, as long as
 *   its ntt(), expand_a() and invntt_tomont() agree. The portable backend
 *   uses FIPS 204's order (bit-reversed evaluation points, the order in
 *   which ExpandA's RejNTTPoly emits coefficients). A backend with its own
 *   order gets ExpandA right by setting `ntt_order` (applied by the generic
 *   expand_a to each sampled polynomial) or by providing its own expand_a.
 * - Montgomery: R = 2^32. mont(x) = x * R^-1 mod q, centred.
 *
 * Secrets: every hook except expand_a, rej_uniform, use_hint and the
 * unpackers of public data runs on secret data and must be constant time
 * (no branch, no memory index on coefficient values). Exceptions: rej_eta
 * may branch on its accept bits (allowed by FIPS 204: the positions of
 * rejected nibbles are independent of the accepted values), and
 * mul_challenge may branch on the public challenge c (not on s).
 * tests/unit/ct_mldsa.c checks this for every impl under valgrind. */
#ifndef CRYPTOSHIM_MLDSA_BACKEND_H
#define CRYPTOSHIM_MLDSA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "../ct.h" /* cs_wipe, CS_DECLASSIFY (tests/unit/ct_mldsa.c) */
#include "mldsa.h"

#define CS_MLDSA_N 256
#define CS_MLDSA_Q 8380417
#define CS_MLDSA_D 13
#define CS_MLDSA_MAX_K 8
#define CS_MLDSA_MAX_L 7

typedef struct cs_mldsa_poly {
    int32_t c[CS_MLDSA_N];
} __attribute__((aligned(32))) cs_mldsa_poly;

/* FIPS 204 Table 1, plus derived encoding sizes. */
typedef struct cs_mldsa_params {
    int ps;                 /* 44, 65, 87 */
    unsigned k, l;          /* rows, columns of A */
    unsigned eta;           /* 2 or 4 */
    unsigned tau;           /* nonzero coefficients of c */
    unsigned beta;          /* tau * eta */
    int32_t gamma1;         /* 2^17 or 2^19 */
    int32_t gamma2;         /* (q-1)/88 or (q-1)/32 */
    unsigned omega;         /* max hints */
    unsigned ctilde_bytes;  /* lambda/4: 32, 48, 64 */
    unsigned poly_eta_bytes;    /* 96 or 128 */
    unsigned poly_z_bytes;      /* 576 or 640 */
    unsigned poly_w1_bytes;     /* 192 or 128 */
    size_t pk_bytes, sk_bytes, sig_bytes;
} cs_mldsa_params;

/* Parameters of set ps (44/65/87), NULL if unknown. */
const cs_mldsa_params *cs_mldsa_params_get(int ps);

/* Byte sizes of the packed polynomials that do not depend on ps. */
#define CS_MLDSA_POLY_T1_BYTES 320
#define CS_MLDSA_POLY_T0_BYTES 416

typedef struct cs_mldsa_impl cs_mldsa_impl;
typedef struct cs_mldsa_side cs_mldsa_side;

struct cs_mldsa_impl {
    CS_IMPL_HEAD;           /* name ("portable", "avx2", ...), cpu_features (kernels/impl.h) */

    /* ---- Keccak ---------------------------------------------------- */
    /* The Keccak table (kernels/keccak/keccak.h) of this backend: every
     * SHAKE stream of the generic code (tr, mu, ctilde, SampleInBall, the
     * samplers) runs on its permutations, so mu uses the fast scalar one. */
    const cs_keccak_impl *keccak;

    /* ---- NTT domain (see "Representations") ------------------------ */
    /* Forward NTT in place, normal -> NTT domain, no final reduction.
     * In: |a_i| < 2^31 - 8q (callers pass |a_i| < q). Out: |a_i| < in + 8q. */
    void (*ntt)(cs_mldsa_poly *a);
    /* Inverse NTT in place, NTT -> normal domain, times R = 2^32 (so that
     * invntt(pointwise_mont(ntt(a), ntt(b))) = a*b mod (X^256+1, q)).
     * In: |a_i| < q. Out: |a_i| < q. */
    void (*invntt_tomont)(cs_mldsa_poly *a);
    /* c_i = mont(a_i * b_i). In: |a_i * b_i| < q * 2^31 (e.g. |a|,|b| < 9q
     * or a in [0,q), |b| < 2^31 / 2). Out: |c_i| < q. c may alias a or b. */
    void (*pointwise_mont)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
    /* c = sum_{i<n} mont(a[i] * b[i]), n <= 8, inputs as pointwise_mont.
     * Out: |c_j| < n*q. c must not alias a or b. */
    void (*pointwise_acc_mont)(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                               const cs_mldsa_poly *b, unsigned n);

    /* Exact product r = c * s in Z[X]/(X^256 + 1), normal domain, no
     * reduction mod q: c is a challenge (SampleInBall output: public, at
     * most 64 coefficients +-1, the rest 0), |s_i| <= 2^23 with
     * 64 * max|s_i| < 2^31. c decides branches and indices (it is public);
     * s must not. (sign.c now multiplies by NTT(c) against NTT-domain
     * copies of s1, s2, t0, t1 kept per key; this hook stays for tests,
     * benchmarks and other callers.) A backend may implement it sparsely
     * or with its NTT. */
    void (*mul_challenge)(cs_mldsa_poly *r, const cs_mldsa_poly *c, const cs_mldsa_poly *s);

    /* ---- Elementwise (any domain, order-independent) --------------- */
    /* a_i = a_i mod q in [-6283008, 6283008]. In: a_i <= 2^31 - 2^22 - 1. */
    void (*reduce32)(cs_mldsa_poly *a);
    /* a_i += q if a_i < 0. In: |a_i| < q. Out: [0, q). */
    void (*caddq)(cs_mldsa_poly *a);
    /* c = a + b, c = a - b (no reduction), a = a << 13 (a_i < 2^18). */
    void (*add)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
    void (*sub)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);
    void (*shiftl)(cs_mldsa_poly *a);

    /* ---- Rounding (normal domain) ---------------------------------- */
    /* Power2Round: a in [0,q) -> a1 in [0, 2^10), a0 in (-2^12, 2^12],
     * a = a1*2^13 + a0. */
    void (*power2round)(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a);
    /* Decompose: a in [0,q) -> a1 = HighBits in [0, (q-1)/(2*gamma2)),
     * a0 = LowBits, centred in (-gamma2, gamma2] (the q-1 corner gives
     * a1 = 0, a0 = -1 per FIPS 204). */
    void (*decompose)(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                      int32_t gamma2);
    /* Hint bits h_i = MakeHint(-ct0, w - cs2 + ct0) expressed on
     * a0 = LowBits(w - cs2) + ct0_i (centred) and a1 = HighBits(w - cs2):
     * h_i = 1 iff a0 > gamma2 or a0 < -gamma2 or (a0 == -gamma2 and
     * a1 != 0). Returns the number of ones. Constant time. */
    unsigned (*make_hint)(cs_mldsa_poly *h, const cs_mldsa_poly *a0,
                          const cs_mldsa_poly *a1, int32_t gamma2);
    /* UseHint: a in [0,q), h in {0,1} -> b = corrected HighBits(a). */
    void (*use_hint)(cs_mldsa_poly *b, const cs_mldsa_poly *a, const cs_mldsa_poly *h,
                     int32_t gamma2);
    /* Nonzero iff some |a_i| >= bound (a_i centred, |a_i| < q/2 assumed;
     * bound <= (q-1)/8). Constant time: reads every coefficient. */
    int (*chknorm)(const cs_mldsa_poly *a, int32_t bound);

    /* ---- Sampling --------------------------------------------------- */
    /* RejNTTPoly's inner loop: reads 3-byte groups of buf (buflen a
     * multiple of 3), appends each 23-bit value < q to a until len values
     * are stored. Returns the number stored. Public data only. */
    unsigned (*rej_uniform)(int32_t *a, unsigned len, const uint8_t *buf, unsigned buflen);
    /* RejBoundedPoly's inner loop for eta in {2,4}: low nibble then high
     * nibble of each byte; accepted nibbles b give eta - (b mod (2eta+1)).
     * Returns the number stored. The accept decision of each nibble may
     * decide a branch (it is independent of the accepted values); the
     * accepted values may not. */
    unsigned (*rej_eta)(int32_t *a, unsigned len, const uint8_t *buf, unsigned buflen,
                        unsigned eta);
    /* ExpandA: mat[r*l + s] = NTT-domain A[r][s] (k x l) in this backend's
     * NTT order, coefficients in [0, q). Public data. */
    void (*expand_a)(const cs_mldsa_impl *impl, cs_mldsa_poly *mat, const uint8_t rho[32],
                     unsigned k, unsigned l);
    /* ExpandS: s1[0..l), s2[0..k) with coefficients in [-eta, eta], normal
     * domain, from the 64-byte rho'. */
    void (*expand_s)(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                     const uint8_t rhoprime[64], unsigned k, unsigned l, unsigned eta);
    /* ExpandMask: y[0..l), coefficients in (-gamma1, gamma1], normal
     * domain, nonces kappa..kappa+l-1, from the 64-byte rho''. */
    void (*expand_mask)(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                        const uint8_t rhopp[64], uint16_t kappa, unsigned l, int32_t gamma1);
    /* Applied by the generic expand_a to each sampled polynomial to move it
     * from FIPS order into the backend's NTT order; NULL = same order. */
    void (*ntt_order)(cs_mldsa_poly *a);

    /* ---- Packing (normal domain; FIPS 204 bit orders) -------------- */
    /* SimpleBitPack(t1, 10 bits) / unpack; t1 in [0, 2^10). */
    void (*pack_t1)(uint8_t r[CS_MLDSA_POLY_T1_BYTES], const cs_mldsa_poly *a);
    void (*unpack_t1)(cs_mldsa_poly *a, const uint8_t r[CS_MLDSA_POLY_T1_BYTES]);
    /* BitPack(t0, 2^12-1, 2^12); t0 in (-2^12, 2^12]. */
    void (*pack_t0)(uint8_t r[CS_MLDSA_POLY_T0_BYTES], const cs_mldsa_poly *a);
    void (*unpack_t0)(cs_mldsa_poly *a, const uint8_t r[CS_MLDSA_POLY_T0_BYTES]);
    /* BitPack(s, eta, eta), 3 or 4 bits per coefficient. unpack_eta stores
     * eta - field for every field and returns nonzero iff some field
     * exceeds 2*eta (a coefficient outside [-eta, eta]: a corrupted key,
     * which FIPS 204 skDecode leaves undefined and OpenSSL rejects). The
     * flag is accumulated without a branch: the fields are secret. */
    void (*pack_eta)(uint8_t *r, const cs_mldsa_poly *a, unsigned eta);
    int (*unpack_eta)(cs_mldsa_poly *a, const uint8_t *r, unsigned eta);
    /* BitPack(z, gamma1-1, gamma1), 18 or 20 bits; z in (-gamma1, gamma1]. */
    void (*pack_z)(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma1);
    void (*unpack_z)(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1);
    /* SimpleBitPack(w1), 6 bits (gamma2 = (q-1)/88) or 4 bits. */
    void (*pack_w1)(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2);

    /* ---- Optional ---------------------------------------------------- */
    /* 1: signing and verification multiply by the challenge as NTT(c)
     * times NTT-domain copies of s1, s2, t0, t1*2^d (kept per key), which
     * pays where ntt + invntt_tomont beat mul_challenge (AVX2: 500 + 500
     * against 860-1300 cycles). 0: mul_challenge on normal-domain copies
     * (portable: 4000 + 4400 against 3200). Same outputs either way. */
    unsigned ntt_challenge;
    /* ExpandA as expand_a, absorbing `side` (tr = H(pk): keygen's, and a
     * public key's as it is prepared) with spare permutation capacity:
     * after each batch of A's polynomials it calls side->rows_done with
     * the number of leading rows of A that are final (keygen then computes
     * those rows of t1, making more of pk available), and before each of
     * its permutations it calls cs_side_fill and, when that reports a full
     * block, permutes side->sp.s too and sets side->sp.pos = 0. NULL: the
     * caller runs expand_a, then hashes pk. Public data only. */
    void (*expand_a_side)(const cs_mldsa_impl *impl, cs_mldsa_poly *mat, const uint8_t rho[32],
                          unsigned k, unsigned l, cs_mldsa_side *side);
    /* ExpandS then ExpandA as expand_s and expand_a_side, where ExpandS
     * may leave streams unfinished and finish them in spare capacity of
     * ExpandA's permutations: s1 and s2 are final before the first
     * side->rows_done call (and on return). NULL: expand_s, then
     * expand_a_side. Seeds are secret (rho') and public (rho). */
    void (*expand_sa_side)(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                           const uint8_t rhoprime[64], unsigned eta, cs_mldsa_poly *mat,
                           const uint8_t rho[32], unsigned k, unsigned l, cs_mldsa_side *side);
    /* Keygen's end of a row of t in one pass: x = t + s2 (|t_i| < q,
     * |s2_i| <= 4) reduced to [0, q), Power2Round(x) = (t1, t0), t1
     * packed as pack_t1 at r, t0 stored; same results as add, reduce32,
     * caddq, power2round, pack_t1. Secret data (t0): constant time. NULL:
     * keygen calls those hooks. */
    void (*t_row_finish)(uint8_t r[CS_MLDSA_POLY_T1_BYTES], cs_mldsa_poly *t0,
                         const cs_mldsa_poly *t, const cs_mldsa_poly *s2);
    /* c = a + b (sub = 0) or a - b (sub = 1) reduced as reduce32, then
     * returns chknorm(c, bound); inputs as add/sub then reduce32, c may
     * alias a or b. Same results as those hooks. Secret data: constant
     * time (sub and bound are public). NULL: sign.c calls those hooks. */
    int (*sum_chknorm)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b,
                       int sub, int32_t bound);
    /* pointwise_acc_mont then reduce32 in one pass (a row of A times a
     * vector, ready for invntt_tomont); same contract and results as
     * those two hooks. NULL: callers run them in turn. */
    void (*pointwise_acc_reduce)(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b, unsigned n);
    /* The width of expand_mask's Keccak batch (4 or 8 streams), or 0.
     * When nonzero, signing draws each round's l streams from expand_mask
     * calls of up to this many streams, carrying the surplus of a call
     * into the next round, where a call per round would finish its
     * l mod width streams in a batch of their own. 0: expand_mask per
     * round. */
    unsigned mask_batch;
};

/* A backend's hooks are named cs_mldsa_<hook>_<SFX>; these declare a group
 * of them for one suffix (CS_MLDSA_DECLARE_*) and fill the matching table
 * entries (CS_MLDSA_*_HOOKS), so the groups are listed once for every
 * backend. NTT: the NTT-domain and elementwise hooks every backend
 * replaces first. */
#define CS_MLDSA_DECLARE_NTT(SFX)                                                               \
    void cs_mldsa_ntt_##SFX(cs_mldsa_poly *a);                                                  \
    void cs_mldsa_invntt_##SFX(cs_mldsa_poly *a);                                               \
    void cs_mldsa_pointwise_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a,                     \
                                  const cs_mldsa_poly *b);                                      \
    void cs_mldsa_pointwise_acc_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a,                 \
                                      const cs_mldsa_poly *b, unsigned n);                      \
    void cs_mldsa_reduce32_##SFX(cs_mldsa_poly *a);                                             \
    void cs_mldsa_caddq_##SFX(cs_mldsa_poly *a);                                                \
    void cs_mldsa_add_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b);  \
    void cs_mldsa_sub_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
#define CS_MLDSA_NTT_HOOKS(SFX)                                                                 \
    .ntt = cs_mldsa_ntt_##SFX, .invntt_tomont = cs_mldsa_invntt_##SFX,                          \
    .pointwise_mont = cs_mldsa_pointwise_##SFX, .pointwise_acc_mont = cs_mldsa_pointwise_acc_##SFX, \
    .reduce32 = cs_mldsa_reduce32_##SFX, .caddq = cs_mldsa_caddq_##SFX,                         \
    .add = cs_mldsa_add_##SFX, .sub = cs_mldsa_sub_##SFX

/* Decompose, hints and the norm check. */
#define CS_MLDSA_DECLARE_ROUNDING(SFX)                                                          \
    void cs_mldsa_decompose_##SFX(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a, \
                                  int32_t gamma2);                                              \
    unsigned cs_mldsa_make_hint_##SFX(cs_mldsa_poly *h, const cs_mldsa_poly *a0,                \
                                      const cs_mldsa_poly *a1, int32_t gamma2);                 \
    void cs_mldsa_use_hint_##SFX(cs_mldsa_poly *b, const cs_mldsa_poly *a,                      \
                                 const cs_mldsa_poly *h, int32_t gamma2);                       \
    int cs_mldsa_chknorm_##SFX(const cs_mldsa_poly *a, int32_t bound)
#define CS_MLDSA_ROUNDING_HOOKS(SFX)                                                            \
    .decompose = cs_mldsa_decompose_##SFX, .make_hint = cs_mldsa_make_hint_##SFX,               \
    .use_hint = cs_mldsa_use_hint_##SFX, .chknorm = cs_mldsa_chknorm_##SFX

/* The two rejection samplers (P: a prefix for renamed copies, usually empty). */
#define CS_MLDSA_DECLARE_REJ(P, SFX)                                                            \
    unsigned P##cs_mldsa_rej_uniform_##SFX(int32_t *a, unsigned len, const uint8_t *buf,        \
                                           unsigned buflen);                                    \
    unsigned P##cs_mldsa_rej_eta_##SFX(int32_t *a, unsigned len, const uint8_t *buf,            \
                                       unsigned buflen, unsigned eta)
#define CS_MLDSA_REJ_HOOKS(SFX)                                                                 \
    .rej_uniform = cs_mldsa_rej_uniform_##SFX, .rej_eta = cs_mldsa_rej_eta_##SFX

/* The sparse challenge product, shift, Power2Round and the packers
 * (portable and AVX2). */
#define CS_MLDSA_DECLARE_PACK(SFX)                                                              \
    void cs_mldsa_mul_challenge_##SFX(cs_mldsa_poly *r, const cs_mldsa_poly *c,                 \
                                      const cs_mldsa_poly *s);                                  \
    void cs_mldsa_shiftl_##SFX(cs_mldsa_poly *a);                                               \
    void cs_mldsa_power2round_##SFX(cs_mldsa_poly *a1, cs_mldsa_poly *a0,                       \
                                    const cs_mldsa_poly *a);                                    \
    void cs_mldsa_pack_t1_##SFX(uint8_t *r, const cs_mldsa_poly *a);                            \
    void cs_mldsa_unpack_t1_##SFX(cs_mldsa_poly *a, const uint8_t *r);                          \
    void cs_mldsa_pack_t0_##SFX(uint8_t *r, const cs_mldsa_poly *a);                            \
    void cs_mldsa_unpack_t0_##SFX(cs_mldsa_poly *a, const uint8_t *r);                          \
    void cs_mldsa_pack_eta_##SFX(uint8_t *r, const cs_mldsa_poly *a, unsigned eta);             \
    int cs_mldsa_unpack_eta_##SFX(cs_mldsa_poly *a, const uint8_t *r, unsigned eta);            \
    void cs_mldsa_pack_z_##SFX(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma1)
#define CS_MLDSA_PACK_HOOKS(SFX)                                                                \
    .mul_challenge = cs_mldsa_mul_challenge_##SFX, .shiftl = cs_mldsa_shiftl_##SFX,             \
    .power2round = cs_mldsa_power2round_##SFX, .pack_t1 = cs_mldsa_pack_t1_##SFX,               \
    .unpack_t1 = cs_mldsa_unpack_t1_##SFX, .pack_t0 = cs_mldsa_pack_t0_##SFX,                   \
    .unpack_t0 = cs_mldsa_unpack_t0_##SFX, .pack_eta = cs_mldsa_pack_eta_##SFX,                 \
    .unpack_eta = cs_mldsa_unpack_eta_##SFX, .pack_z = cs_mldsa_pack_z_##SFX

/* unpack_z and pack_w1 (portable, AVX2, AVX-512). */
#define CS_MLDSA_DECLARE_ZW1(SFX)                                                               \
    void cs_mldsa_unpack_z_##SFX(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1);           \
    void cs_mldsa_pack_w1_##SFX(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2)
#define CS_MLDSA_ZW1_HOOKS(SFX) .unpack_z = cs_mldsa_unpack_z_##SFX, .pack_w1 = cs_mldsa_pack_w1_##SFX

/* The optional fused hooks and the NTT order of the x86-64 backends. */
#define CS_MLDSA_DECLARE_FUSED(SFX)                                                             \
    void cs_mldsa_nttorder_##SFX(cs_mldsa_poly *a);                                             \
    void cs_mldsa_pointwise_acc_reduce_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a,          \
                                             const cs_mldsa_poly *b, unsigned n);               \
    int cs_mldsa_sum_chknorm_##SFX(cs_mldsa_poly *c, const cs_mldsa_poly *a,                    \
                                   const cs_mldsa_poly *b, int sub, int32_t bound)
#define CS_MLDSA_FUSED_HOOKS(SFX)                                                               \
    .ntt_order = cs_mldsa_nttorder_##SFX,                                                       \
    .pointwise_acc_reduce = cs_mldsa_pointwise_acc_reduce_##SFX,                                \
    .sum_chknorm = cs_mldsa_sum_chknorm_##SFX

/* The portable table, for backends to copy and override. */
void cs_mldsa_portable_ops(cs_mldsa_impl *out);

/* Generic samplers built on impl->keccak (f1600, f1600_x4), impl->rej_uniform,
 * impl->rej_eta and impl->ntt_order: usable as a backend's expand_* when it
 * only replaces the lower pieces. They use f1600_x4 (four streams at once)
 * when it is not NULL. */
void cs_mldsa_expand_a_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                               const uint8_t rho[32], unsigned k, unsigned l);
void cs_mldsa_expand_s_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *s1,
                               cs_mldsa_poly *s2, const uint8_t rhoprime[64], unsigned k,
                               unsigned l, unsigned eta);
void cs_mldsa_expand_mask_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                                  const uint8_t rhopp[64], uint16_t kappa, unsigned l,
                                  int32_t gamma1);

/* SampleInBall: c (normal domain, coefficients in {-1,0,1}) from ctilde.
 * Runs on secret data inside the rejection loop: constant time. */
void cs_mldsa_sample_in_ball(const cs_mldsa_impl *impl, cs_mldsa_poly *c,
                             const uint8_t *ctilde, unsigned ctilde_bytes, unsigned tau);

/* A sponge absorbing data[0..avail) as it becomes available, alongside a
 * backend's own permutations (see expand_a_side). */
struct cs_mldsa_side {
    cs_shake sp;
    const uint8_t *data;
    size_t avail, used; /* bytes ready; bytes absorbed */
    unsigned rows;      /* rows of A reported final so far */
    void (*rows_done)(cs_mldsa_side *side, unsigned rows); /* sets rows, raises avail */
    void *arg;
};
/* XORs ready bytes into side->sp up to the end of the current block;
 * returns 1 if the block is full (the caller permutes side->sp.s and sets
 * side->sp.pos = 0), else 0. */
int cs_side_fill(cs_mldsa_side *side);


#endif
