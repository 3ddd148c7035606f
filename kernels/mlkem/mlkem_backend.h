/* What an ML-KEM implementation is made of, for kernels/mlkem and its
 * per-ISA folders: the parameter sets, the polynomial type, and the table
 * of operations (cs_mlkem_ops) that the one FIPS 203 driver (kem.c) runs
 * K-PKE and the FO transform on. A backend supplies its own table, taking
 * the portable entries it does not replace; entries marked "layout" may
 * keep NTT-domain polynomials in a backend's own coefficient order, as long
 * as its own ntt, basemul_acc, invntt and 12-bit coders agree on it.
 * Internal to kernels/. */
#ifndef CRYPTOSHIM_MLKEM_BACKEND_H
#define CRYPTOSHIM_MLKEM_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "../keccak/keccak.h"
#include "mlkem.h"

#define CS_MLKEM_N 256
#define CS_MLKEM_Q 3329
#define CS_MLKEM_MAX_K 4
#define CS_MLKEM_POLY_BYTES 384 /* ByteEncode_12 of one polynomial */

/* 256 coefficients; 64-byte aligned so vector backends load whole lines. */
typedef struct cs_mlkem_poly {
    int16_t c[CS_MLKEM_N];
} __attribute__((aligned(64))) cs_mlkem_poly;

/* One parameter set (FIPS 203 table 2). */
typedef struct cs_mlkem_params {
    int ps;
    unsigned k, eta1, eta2, du, dv;
    size_t ek_bytes, dk_bytes, ct_bytes;
} cs_mlkem_params;

/* The parameter set named ps, or NULL. */
const cs_mlkem_params *cs_mlkem_params_of(int ps);

typedef struct cs_mlkem_ops {
    /* Keccak table for G, H, J and the single streams. */
    const cs_keccak_impl *keccak;
    /* A_hat from rho (k*k polynomials, a[i*k + j] = A_hat[i][j] = SampleNTT(rho||j||i), or
     * A_hat[j][i] if transposed), NTT domain, layout, coefficients in [0, q). Public. */
    void (*gen_matrix)(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32], int transposed);
    /* Optional (NULL: the driver hashes on its own): gen_matrix, and in the same Keccak
     * calls out = SHA3-256(m1 || m2) (shake = 0) or SHAKE256(m1 || m2, 32) (shake = 1), the
     * hash of ek or J's input, public. */
    void (*gen_matrix_hash)(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32], int transposed,
                            int shake, const uint8_t *m1, size_t l1, const uint8_t *m2,
                            size_t l2, uint8_t out[32]);
    /* Optional (NULL: keygen expands the whole matrix, then hashes ek): A_hat (a[i*k + j] =
     * A_hat[i][j]) from rho, calling row_done(ctx, i) once row i is there, which writes ek's
     * bytes of t_hat row i (and rho after the last row); h = H(ek) (ek_bytes at ek), its
     * blocks riding in the Keccak calls of later rows as their bytes arrive where the
     * backend gains by it. Public (ek is, row by row). */
    void (*gen_matrix_rows_hash)(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],
                                 const uint8_t *ek, size_t ek_bytes, uint8_t h[32],
                                 void (*row_done)(void *ctx, unsigned row), void *ctx);
    /* Optional (NULL: the driver hashes and samples on its own), for decapsulation: kr =
     * G(m || h), r = sample_noise(n, n1, eta1, eta2, kr + 32, 0), and kbar = J(z || ct) (ctlen
     * bytes) in spare lanes of the same Keccak calls. m, z, kr, r, kbar are secret. */
    void (*g_noise_j)(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1, unsigned eta2,
                      uint8_t kr[64], const uint8_t m[32], const uint8_t h[32],
                      const uint8_t z[32], const uint8_t *ct, size_t ctlen, uint8_t kbar[32]);
    /* r[i] = SamplePolyCBD_eta(PRF_eta(seed, nonce + i)) for i < n, eta = eta1 for i < n1
     * and eta2 after; plain coefficient order. seed is secret. */
    void (*sample_noise)(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1, unsigned eta2,
                         const uint8_t seed[32], uint8_t nonce);
    /* In place: NTT of a polynomial with |c| < q (result layout, |c| < q); the inverse NTT
     * times the Montgomery factor 2^16 (input layout, |c| < q; result plain order, |c| < q). */
    void (*ntt)(cs_mlkem_poly *p);
    void (*invntt)(cs_mlkem_poly *p);
    /* r = sum over i < k of a[i] * b[i] in the NTT domain, times 2^-16 (layout, |c| < q). */
    void (*basemul_acc)(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b,
                        unsigned k);
    /* ByteEncode_12 of p mod q (layout, |c| < q); ByteDecode_12 (layout, values in [0, 4096),
     * which are congruent mod q to what FIPS 203 decodes). */
    void (*tobytes)(uint8_t out[CS_MLKEM_POLY_BYTES], const cs_mlkem_poly *p);
    void (*frombytes)(cs_mlkem_poly *p, const uint8_t in[CS_MLKEM_POLY_BYTES]);
    /* ByteEncode_d(Compress_d(p)) and Decompress_d(ByteDecode_d(in)) for d in {1, 4, 5, 10,
     * 11} (plain order, |c| < q in; [0, q) out); d = 1 is the message. */
    void (*compress)(uint8_t *out, const cs_mlkem_poly *p, unsigned d);
    void (*decompress)(cs_mlkem_poly *p, const uint8_t *in, unsigned d);
    /* Elementwise, any layout: r = a + b and r = a - b, then centred (|a|, |b| < q);
     * r = r * 2^16 (undoing a product's 2^-16) + e, centred (|r|, |e| < q). */
    void (*add_reduce)(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b);
    void (*sub_reduce)(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b);
    void (*tomont_add)(cs_mlkem_poly *r, const cs_mlkem_poly *e);
} cs_mlkem_ops;

extern const cs_mlkem_ops cs_mlkem_portable_ops;

/* A backend's entries are named cs_mlkem_<entry>_<SFX>. CS_MLKEM_DECLARE_ARITH declares
 * the arithmetic ones (P: a prefix for renamed copies, usually empty) and
 * CS_MLKEM_ARITH_OPS fills them in a cs_mlkem_ops; the _SAMPLERS pair does the same for
 * the Keccak-driven samplers of the x86-64 tables. One list for every backend. */
#define CS_MLKEM_DECLARE_ARITH(P, SFX)                                                         \
    void P##cs_mlkem_ntt_##SFX(cs_mlkem_poly *p);                                              \
    void P##cs_mlkem_invntt_##SFX(cs_mlkem_poly *p);                                           \
    void P##cs_mlkem_basemul_acc_##SFX(cs_mlkem_poly *r, const cs_mlkem_poly *a,               \
                                       const cs_mlkem_poly *b, unsigned k);                    \
    void P##cs_mlkem_tobytes_##SFX(uint8_t out[CS_MLKEM_POLY_BYTES], const cs_mlkem_poly *p);  \
    void P##cs_mlkem_frombytes_##SFX(cs_mlkem_poly *p, const uint8_t in[CS_MLKEM_POLY_BYTES]); \
    void P##cs_mlkem_add_reduce_##SFX(cs_mlkem_poly *r, const cs_mlkem_poly *a,                \
                                      const cs_mlkem_poly *b);                                 \
    void P##cs_mlkem_sub_reduce_##SFX(cs_mlkem_poly *r, const cs_mlkem_poly *a,                \
                                      const cs_mlkem_poly *b);                                 \
    void P##cs_mlkem_tomont_add_##SFX(cs_mlkem_poly *r, const cs_mlkem_poly *e);               \
    void P##cs_mlkem_compress_##SFX(uint8_t *out, const cs_mlkem_poly *p, unsigned d);         \
    void P##cs_mlkem_decompress_##SFX(cs_mlkem_poly *p, const uint8_t *in, unsigned d)
#define CS_MLKEM_ARITH_OPS(SFX)                                                                \
    .ntt = cs_mlkem_ntt_##SFX, .invntt = cs_mlkem_invntt_##SFX,                                \
    .basemul_acc = cs_mlkem_basemul_acc_##SFX, .tobytes = cs_mlkem_tobytes_##SFX,              \
    .frombytes = cs_mlkem_frombytes_##SFX, .compress = cs_mlkem_compress_##SFX,                \
    .decompress = cs_mlkem_decompress_##SFX, .add_reduce = cs_mlkem_add_reduce_##SFX,          \
    .sub_reduce = cs_mlkem_sub_reduce_##SFX, .tomont_add = cs_mlkem_tomont_add_##SFX
#define CS_MLKEM_DECLARE_SAMPLERS(SFX)                                                         \
    void cs_mlkem_gen_matrix_##SFX(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],        \
                                   int transposed);                                            \
    void cs_mlkem_gen_matrix_hash_##SFX(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],   \
                                        int transposed, int shake, const uint8_t *m1,          \
                                        size_t l1, const uint8_t *m2, size_t l2,               \
                                        uint8_t out[32]);                                      \
    void cs_mlkem_sample_noise_##SFX(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1, \
                                     unsigned eta2, const uint8_t seed[32], uint8_t nonce);    \
    void cs_mlkem_gen_matrix_rows_hash_##SFX(cs_mlkem_poly *a, unsigned k,                     \
                                             const uint8_t rho[32], const uint8_t *ek,         \
                                             size_t ek_bytes, uint8_t h[32],                   \
                                             void (*row_done)(void *ctx, unsigned row),        \
                                             void *ctx);                                       \
    void cs_mlkem_g_noise_j_##SFX(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1,    \
                                  unsigned eta2, uint8_t kr[64], const uint8_t m[32],          \
                                  const uint8_t h[32], const uint8_t z[32], const uint8_t *ct, \
                                  size_t ctlen, uint8_t kbar[32])
#define CS_MLKEM_SAMPLER_OPS(SFX)                                                              \
    .gen_matrix = cs_mlkem_gen_matrix_##SFX, .gen_matrix_hash = cs_mlkem_gen_matrix_hash_##SFX, \
    .gen_matrix_rows_hash = cs_mlkem_gen_matrix_rows_hash_##SFX,                               \
    .sample_noise = cs_mlkem_sample_noise_##SFX, .g_noise_j = cs_mlkem_g_noise_j_##SFX

/* The prepared key of mlkem.h: filled by the driver on one implementation's ops, whose
 * layout poly[] is in (A_hat^T as gen_matrix transposed gives it, then t_hat as
 * frombytes gives it). impl and ops are NULL until filled. */
struct cs_mlkem_prepared {
    const cs_mlkem_impl *impl;
    const cs_mlkem_ops *ops;
    const cs_mlkem_params *p;
    uint8_t h[32];                      /* H(ek) */
    cs_mlkem_poly poly[];               /* at[k*k], then t[k] */
};

/* The FIPS 203 driver (kem.c) on ops: the three operations of cs_mlkem_impl. */
int cs_mlkem_keygen_ops(const cs_mlkem_ops *ops, int ps, uint8_t *ek, uint8_t *dk,
                        const uint8_t d[32], const uint8_t z[32]);
int cs_mlkem_encaps_ops(const cs_mlkem_ops *ops, int ps, uint8_t *ct, uint8_t ss[32],
                        const uint8_t *ek, const uint8_t m[32]);
int cs_mlkem_decaps_ops(const cs_mlkem_ops *ops, int ps, uint8_t ss[32], const uint8_t *ct,
                        const uint8_t *dk);

/* The prepared entries of cs_mlkem_impl on ops, for the implementation impl whose ops
 * they are (recorded in pr, and checked by the encaps and decaps: -1 for another's). */
int cs_mlkem_prepare_ops(const cs_mlkem_ops *ops, const cs_mlkem_impl *impl, int ps,
                         cs_mlkem_prepared *pr, const uint8_t *ek);
int cs_mlkem_keygen_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_impl *impl, int ps,
                                 uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                                 const uint8_t z[32], cs_mlkem_prepared *pr);
int cs_mlkem_encaps_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_prepared *pr,
                                 uint8_t *ct, uint8_t ss[32], const uint8_t m[32]);
int cs_mlkem_decaps_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_prepared *pr,
                                 uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);

/* Defines const cs_mlkem_impl cs_mlkem_NAME: every entry the driver above on OPS (a
 * cs_mlkem_ops object), needing the CS_CPU_* bits FEATURES. */
#define CS_MLKEM_IMPL(NAME, OPS, FEATURES)                                                     \
    extern const cs_mlkem_impl cs_mlkem_##NAME;                                                \
    static int keygen_##NAME(int ps, uint8_t *ek, uint8_t *dk, const uint8_t d[32],            \
                             const uint8_t z[32])                                               \
    {                                                                                           \
        return cs_mlkem_keygen_ops(&OPS, ps, ek, dk, d, z);                                     \
    }                                                                                           \
    static int encaps_##NAME(int ps, uint8_t *ct, uint8_t ss[32], const uint8_t *ek,           \
                             const uint8_t m[32])                                               \
    {                                                                                           \
        return cs_mlkem_encaps_ops(&OPS, ps, ct, ss, ek, m);                                    \
    }                                                                                           \
    static int decaps_##NAME(int ps, uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)     \
    {                                                                                           \
        return cs_mlkem_decaps_ops(&OPS, ps, ss, ct, dk);                                       \
    }                                                                                           \
    static int prepare_##NAME(int ps, cs_mlkem_prepared *pr, const uint8_t *ek)                \
    {                                                                                           \
        return cs_mlkem_prepare_ops(&OPS, &cs_mlkem_##NAME, ps, pr, ek);                        \
    }                                                                                           \
    static int keygen_prepared_##NAME(int ps, uint8_t *ek, uint8_t *dk, const uint8_t d[32],   \
                                      const uint8_t z[32], cs_mlkem_prepared *pr)              \
    {                                                                                           \
        return cs_mlkem_keygen_prepared_ops(&OPS, &cs_mlkem_##NAME, ps, ek, dk, d, z, pr);      \
    }                                                                                           \
    static int encaps_prepared_##NAME(const cs_mlkem_prepared *pr, uint8_t *ct, uint8_t ss[32],\
                                      const uint8_t m[32])                                      \
    {                                                                                           \
        return cs_mlkem_encaps_prepared_ops(&OPS, pr, ct, ss, m);                               \
    }                                                                                           \
    static int decaps_prepared_##NAME(const cs_mlkem_prepared *pr, uint8_t ss[32],             \
                                      const uint8_t *ct, const uint8_t *dk)                     \
    {                                                                                           \
        return cs_mlkem_decaps_prepared_ops(&OPS, pr, ss, ct, dk);                              \
    }                                                                                           \
    const cs_mlkem_impl cs_mlkem_##NAME = {                                                     \
        CS_IMPL_ROW(#NAME, FEATURES),                                                           \
        .keygen = keygen_##NAME,                                                                \
        .encaps = encaps_##NAME,                                                                \
        .decaps = decaps_##NAME,                                                                \
        .prepare = prepare_##NAME,                                                              \
        .keygen_prepared = keygen_prepared_##NAME,                                              \
        .encaps_prepared = encaps_prepared_##NAME,                                              \
        .decaps_prepared = decaps_prepared_##NAME,                                              \
    };

/* Hashes of FIPS 203 4.1 on keccak k (hash.c): H = SHA3-256, G = SHA3-512 of a || b,
 * J = SHAKE256(a || b, 32). */
void cs_mlkem_hash_h(const cs_keccak_impl *k, uint8_t out[32], const uint8_t *in, size_t len);
void cs_mlkem_hash_g(const cs_keccak_impl *k, uint8_t out[64], const uint8_t *a, size_t alen,
                     const uint8_t *b, size_t blen);
void cs_mlkem_hash_j(const cs_keccak_impl *k, uint8_t out[32], const uint8_t *a, size_t alen,
                     const uint8_t *b, size_t blen);

/* Portable pieces (poly.c, ntt.c, sample.c) for backends to reuse. */
int16_t cs_mlkem_montgomery_reduce(int32_t a);
int16_t cs_mlkem_barrett_reduce(int16_t a);
extern const int16_t cs_mlkem_zetas[128];
CS_MLKEM_DECLARE_ARITH(, portable);
void cs_mlkem_gen_matrix_portable(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],
                                  int transposed);
void cs_mlkem_sample_noise_portable(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1,
                                    unsigned eta2, const uint8_t seed[32], uint8_t nonce);
/* SampleNTT's rejection step: appends to r (which holds *have of 256) the 12-bit values
 * below q read from len bytes (len a multiple of 3); returns the new count. Public data. */
unsigned cs_mlkem_rej_uniform(int16_t *r, unsigned have, const uint8_t *buf, size_t len);
/* SamplePolyCBD_eta (eta 2 or 3) of 64*eta bytes. */
void cs_mlkem_cbd(cs_mlkem_poly *p, const uint8_t *buf, unsigned eta);

#endif
