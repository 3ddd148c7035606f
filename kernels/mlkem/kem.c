/* The FIPS 203 driver, one for every implementation: K-PKE key generation,
 * encryption and decryption (algorithms 13-15) and the ML-KEM _internal
 * algorithms over them (16-18: the FO transform with implicit rejection),
 * running on an implementation's cs_mlkem_ops. Secrets (d, z, m, r, s, the
 * noise, the decrypted message) decide no branch or index; rho, ek and the
 * ciphertext written are public and declassified for the ct tests. Each
 * operation also runs on a prepared key (mlkem.h): its A_hat^T, t_hat and
 * H(ek) in place of those derived from ek per call. */
#include "../ct.h"
#include "mlkem_backend.h"

#define K_MAX CS_MLKEM_MAX_K

/* A_hat^T from the rho of ek into at, and out = SHA3-256(m1 || m2) (shake = 0) or
 * SHAKE256(m1 || m2, 32) (shake = 1): in the same Keccak calls where the ops can. */
static void matrix_and_hash(const cs_mlkem_ops *ops, const cs_mlkem_params *p,
                            cs_mlkem_poly *at, const uint8_t *ek, int shake, const uint8_t *m1,
                            size_t l1, const uint8_t *m2, size_t l2, uint8_t out[32])
{
    uint8_t rho[32];
    memcpy(rho, ek + CS_MLKEM_POLY_BYTES * p->k, 32);
    CS_DECLASSIFY(rho, 32);
    if (ops->gen_matrix_hash) {
        ops->gen_matrix_hash(at, p->k, rho, 1, shake, m1, l1, m2, l2, out);
        return;
    }
    ops->gen_matrix(at, p->k, rho, 1);
    if (shake)
        cs_mlkem_hash_j(ops->keccak, out, m1, l1, m2, l2);
    else
        cs_mlkem_hash_h(ops->keccak, out, m1, l1); /* m2 is empty here */
}

/* t_hat of ek decoded into t (the layout of the ops' NTT). */
static void decode_t(const cs_mlkem_ops *ops, const cs_mlkem_params *p, cs_mlkem_poly *t,
                     const uint8_t *ek)
{
    for (unsigned i = 0; i < p->k; i++)
        ops->frombytes(&t[i], ek + CS_MLKEM_POLY_BYTES * i);
}

/* The noise of K-PKE.Encrypt from r: y = noise[0..k), e1 = noise[k..2k), e2 = noise[2k]. */
static void encrypt_noise(const cs_mlkem_ops *ops, const cs_mlkem_params *p,
                          cs_mlkem_poly *noise, const uint8_t r[32])
{
    ops->sample_noise(noise, 2 * p->k + 1, p->k, p->eta1, p->eta2, r, 0);
}

/* K-PKE.Encrypt(ek, m, r) into ct (FIPS 203 algorithm 14), with a = A_hat^T and t = t_hat
 * of ek and the noise encrypt_noise gives for r (consumed: y is transformed in place). */
static void pke_encrypt(const cs_mlkem_ops *ops, const cs_mlkem_params *p, uint8_t *ct,
                        const cs_mlkem_poly *a, const cs_mlkem_poly *t, const uint8_t m[32],
                        cs_mlkem_poly *noise)
{
    const unsigned k = p->k;
    cs_mlkem_poly u, v, mu;

    for (unsigned i = 0; i < k; i++)
        ops->ntt(&noise[i]);
    for (unsigned i = 0; i < k; i++) {
        ops->basemul_acc(&u, &a[i * k], noise, k);
        ops->invntt(&u);
        ops->add_reduce(&u, &u, &noise[k + i]);
        ops->compress(ct + 32 * p->du * i, &u, p->du);
    }
    ops->basemul_acc(&v, t, noise, k);
    ops->invntt(&v);
    ops->decompress(&mu, m, 1);
    ops->add_reduce(&v, &v, &noise[2 * k]);
    ops->add_reduce(&v, &v, &mu);
    ops->compress(ct + 32 * p->du * k, &v, p->dv);
    cs_wipe(&u, sizeof u);
    cs_wipe(&v, sizeof v);
    cs_wipe(&mu, sizeof mu);
}

/* K-PKE.Decrypt(dk_pke, ct) into m (FIPS 203 algorithm 15). */
static void pke_decrypt(const cs_mlkem_ops *ops, const cs_mlkem_params *p, uint8_t m[32],
                        const uint8_t *dk_pke, const uint8_t *ct)
{
    const unsigned k = p->k;
    cs_mlkem_poly u[K_MAX], s[K_MAX], w, v;

    for (unsigned i = 0; i < k; i++) {
        ops->decompress(&u[i], ct + 32 * p->du * i, p->du);
        ops->ntt(&u[i]);
        ops->frombytes(&s[i], dk_pke + CS_MLKEM_POLY_BYTES * i);
    }
    ops->decompress(&v, ct + 32 * p->du * k, p->dv);
    ops->basemul_acc(&w, s, u, k);
    ops->invntt(&w);
    ops->sub_reduce(&w, &v, &w);
    ops->compress(m, &w, 1);
    cs_wipe(s, sizeof s);
    cs_wipe(&w, sizeof w);
}

/* What keygen's rows need: t_hat row i from A_hat row i and s_hat, e_hat. */
typedef struct keygen_rows {
    const cs_mlkem_ops *ops;
    const cs_mlkem_poly *a, *se; /* A_hat; s_hat then e_hat */
    uint8_t *ek, *dk;
    const uint8_t *rho;
    unsigned k;
} keygen_rows;

/* t_hat[i] = A_hat[i] . s_hat + e_hat[i] into ek (public from here on), s_hat[i] into dk, and
 * rho after the last row. */
static void keygen_row(void *vctx, unsigned i)
{
    const keygen_rows *c = vctx;
    cs_mlkem_poly t;
    c->ops->basemul_acc(&t, &c->a[i * c->k], c->se, c->k);
    c->ops->tomont_add(&t, &c->se[c->k + i]);
    c->ops->tobytes(c->ek + CS_MLKEM_POLY_BYTES * i, &t);
    CS_DECLASSIFY(c->ek + CS_MLKEM_POLY_BYTES * i, CS_MLKEM_POLY_BYTES);
    c->ops->tobytes(c->dk + CS_MLKEM_POLY_BYTES * i, &c->se[i]);
    if (i == c->k - 1)
        memcpy(c->ek + CS_MLKEM_POLY_BYTES * c->k, c->rho, 32);
    cs_wipe(&t, sizeof t);
}

/* ML-KEM.KeyGen_internal(d, z) (FIPS 203 algorithms 13 and 16), leaving A_hat (not
 * transposed; public) in a. The noise comes first, so that the matrix rows and H(ek) can
 * follow t_hat's rows (gen_matrix_rows_hash). */
static void keygen_core(const cs_mlkem_ops *ops, const cs_mlkem_params *p, uint8_t *ek,
                        uint8_t *dk, const uint8_t d[32], const uint8_t z[32], cs_mlkem_poly *a)
{
    const unsigned k = p->k;
    cs_mlkem_poly se[2 * K_MAX];
    uint8_t kbyte = (uint8_t)k, rs[64]; /* rho || sigma */
    uint8_t *dk_ek = dk + CS_MLKEM_POLY_BYTES * k, *h = dk_ek + p->ek_bytes;

    cs_mlkem_hash_g(ops->keccak, rs, d, 32, &kbyte, 1);
    CS_DECLASSIFY(rs, 32);
    ops->sample_noise(se, 2 * k, 2 * k, p->eta1, p->eta1, rs + 32, 0);
    for (unsigned i = 0; i < 2 * k; i++)
        ops->ntt(&se[i]);
    keygen_rows c = {ops, a, se, ek, dk, rs, k};
    if (ops->gen_matrix_rows_hash) {
        ops->gen_matrix_rows_hash(a, k, rs, ek, p->ek_bytes, h, keygen_row, &c);
    } else {
        ops->gen_matrix(a, k, rs, 0);
        for (unsigned i = 0; i < k; i++)
            keygen_row(&c, i);
        cs_mlkem_hash_h(ops->keccak, h, ek, p->ek_bytes);
    }
    CS_DECLASSIFY(ek, p->ek_bytes);
    memcpy(dk_ek, ek, p->ek_bytes);
    memcpy(h + 32, z, 32);
    cs_wipe(se, sizeof se);
    cs_wipe(rs, sizeof rs);
}

/* KeyGen with the matrix in a local. */
int cs_mlkem_keygen_ops(const cs_mlkem_ops *ops, int ps, uint8_t *ek, uint8_t *dk,
                        const uint8_t d[32], const uint8_t z[32])
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return -1;
    cs_mlkem_poly a[K_MAX * K_MAX];
    keygen_core(ops, p, ek, dk, d, z, a);
    return 0;
}

/* ML-KEM.Encaps_internal (FIPS 203 algorithm 17), (K, r) = G(m || h), on ek's A_hat^T
 * at, t_hat t and h = H(ek). */
static void encaps_core(const cs_mlkem_ops *ops, const cs_mlkem_params *p, uint8_t *ct,
                        uint8_t ss[32], const cs_mlkem_poly *at, const cs_mlkem_poly *t,
                        const uint8_t h[32], const uint8_t m[32])
{
    cs_mlkem_poly noise[2 * K_MAX + 1];
    uint8_t kr[64];
    cs_mlkem_hash_g(ops->keccak, kr, m, 32, h, 32);
    encrypt_noise(ops, p, noise, kr + 32);
    pke_encrypt(ops, p, ct, at, t, m, noise);
    memcpy(ss, kr, 32);
    cs_wipe(noise, sizeof noise);
    cs_wipe(kr, sizeof kr);
}

/* Encaps deriving A_hat^T and H(ek) (in the same Keccak calls where the ops can) and t_hat
 * from ek. */
int cs_mlkem_encaps_ops(const cs_mlkem_ops *ops, int ps, uint8_t *ct, uint8_t ss[32],
                        const uint8_t *ek, const uint8_t m[32])
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return -1;
    cs_mlkem_poly at[K_MAX * K_MAX], t[K_MAX];
    uint8_t h[32];
    matrix_and_hash(ops, p, at, ek, 0, ek, p->ek_bytes, NULL, 0, h);
    decode_t(ops, p, t, ek);
    encaps_core(ops, p, ct, ss, at, t, h, m);
    return 0;
}

/* ML-KEM.Decaps_internal(dk, ct) (FIPS 203 algorithm 18) on the A_hat^T at and t_hat t of
 * dk's ek, with kbar = J(z || ct) given, or computed here (NULL: in the Keccak calls of G
 * and the noise where the ops can): re-encrypts the decrypted message and returns K' if the
 * ciphertexts match, else kbar, chosen by mask. */
static void decaps_core(const cs_mlkem_ops *ops, const cs_mlkem_params *p, uint8_t ss[32],
                        const uint8_t *ct, const uint8_t *dk, const cs_mlkem_poly *at,
                        const cs_mlkem_poly *t, const uint8_t *kbar_given)
{
    const uint8_t *h = dk + CS_MLKEM_POLY_BYTES * p->k + p->ek_bytes, *z = h + 32;
    cs_mlkem_poly noise[2 * K_MAX + 1];
    uint8_t m[32], kr[64], kbar[32], ct2[1568];

    pke_decrypt(ops, p, m, dk, ct);
    if (kbar_given) {
        memcpy(kbar, kbar_given, 32);
        cs_mlkem_hash_g(ops->keccak, kr, m, 32, h, 32);
        encrypt_noise(ops, p, noise, kr + 32);
    } else if (ops->g_noise_j) {
        ops->g_noise_j(noise, 2 * p->k + 1, p->k, p->eta1, p->eta2, kr, m, h, z, ct,
                       p->ct_bytes, kbar);
    } else {
        cs_mlkem_hash_j(ops->keccak, kbar, z, 32, ct, p->ct_bytes);
        cs_mlkem_hash_g(ops->keccak, kr, m, 32, h, 32);
        encrypt_noise(ops, p, noise, kr + 32);
    }
    pke_encrypt(ops, p, ct2, at, t, m, noise);
    uint64_t diff = 0; /* 8 bytes a step: every ciphertext size is a multiple of 32 */
    for (size_t i = 0; i < p->ct_bytes; i += 8) {
        uint64_t a, b;
        memcpy(&a, ct + i, 8);
        memcpy(&b, ct2 + i, 8);
        diff |= a ^ b;
    }
    uint8_t same = (uint8_t)cs_ct_eq_mask(diff, 0);
    for (unsigned i = 0; i < 32; i++)
        ss[i] = (uint8_t)((kr[i] & same) | (kbar[i] & ~same));
    cs_wipe(noise, sizeof noise);
    cs_wipe(m, sizeof m);
    cs_wipe(kr, sizeof kr);
    cs_wipe(kbar, sizeof kbar);
    cs_wipe(ct2, sizeof ct2);
}

/* J(z || ct) rides in the Keccak calls of the matrix. */
int cs_mlkem_decaps_ops(const cs_mlkem_ops *ops, int ps, uint8_t ss[32], const uint8_t *ct,
                        const uint8_t *dk)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return -1;
    const uint8_t *ek = dk + CS_MLKEM_POLY_BYTES * p->k;
    const uint8_t *z = ek + p->ek_bytes + 32;
    cs_mlkem_poly at[K_MAX * K_MAX], t[K_MAX];
    uint8_t kbar[32];
    matrix_and_hash(ops, p, at, ek, 1, z, 32, ct, p->ct_bytes, kbar);
    decode_t(ops, p, t, ek);
    decaps_core(ops, p, ss, ct, dk, at, t, kbar);
    cs_wipe(kbar, sizeof kbar);
    return 0;
}

/* The prepared key's A_hat^T and t_hat. */
static cs_mlkem_poly *prep_at(const cs_mlkem_prepared *pr)
{
    return (cs_mlkem_poly *)pr->poly;
}

/* (The t_hat part.) */
static cs_mlkem_poly *prep_t(const cs_mlkem_prepared *pr)
{
    return (cs_mlkem_poly *)pr->poly + pr->p->k * pr->p->k;
}

/* Fills pr from ek: the matrix and H(ek) together (matrix_and_hash), t_hat decoded. */
int cs_mlkem_prepare_ops(const cs_mlkem_ops *ops, const cs_mlkem_impl *impl, int ps,
                         cs_mlkem_prepared *pr, const uint8_t *ek)
{
    const cs_mlkem_params *p = pr->p;
    if (p->ps != ps)
        return -1;
    matrix_and_hash(ops, p, prep_at(pr), ek, 0, ek, p->ek_bytes, NULL, 0, pr->h);
    decode_t(ops, p, prep_t(pr), ek);
    pr->impl = impl;
    pr->ops = ops;
    return 0;
}

/* KeyGen's A_hat, transposed polynomial by polynomial (a layout is per polynomial), and
 * its H(ek) fill pr; t_hat is decoded from the ek written, as prepare decodes it. */
int cs_mlkem_keygen_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_impl *impl, int ps,
                                 uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                                 const uint8_t z[32], cs_mlkem_prepared *pr)
{
    const cs_mlkem_params *p = pr->p;
    if (p->ps != ps)
        return -1;
    const unsigned k = p->k;
    cs_mlkem_poly a[K_MAX * K_MAX], *at = prep_at(pr);
    keygen_core(ops, p, ek, dk, d, z, a);
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < k; j++)
            at[j * k + i] = a[i * k + j];
    decode_t(ops, p, prep_t(pr), ek);
    memcpy(pr->h, dk + CS_MLKEM_POLY_BYTES * k + p->ek_bytes, 32);
    pr->impl = impl;
    pr->ops = ops;
    return 0;
}

/* Encaps on pr's A_hat^T, t_hat and H(ek). */
int cs_mlkem_encaps_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_prepared *pr,
                                 uint8_t *ct, uint8_t ss[32], const uint8_t m[32])
{
    if (pr->ops != ops)
        return -1;
    encaps_core(ops, pr->p, ct, ss, prep_at(pr), prep_t(pr), pr->h, m);
    return 0;
}

/* No matrix for J(z || ct) to ride in: decaps_core computes it. */
int cs_mlkem_decaps_prepared_ops(const cs_mlkem_ops *ops, const cs_mlkem_prepared *pr,
                                 uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)
{
    if (pr->ops != ops)
        return -1;
    decaps_core(ops, pr->p, ss, ct, dk, prep_at(pr), prep_t(pr), NULL);
    return 0;
}

/* FIPS 203 7.2: ByteEncode_12(ByteDecode_12(t_hat)) == t_hat, i.e. no 12-bit value >= q. */
int cs_mlkem_check_ek(int ps, const uint8_t *ek)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return 0;
    uint32_t bad = 0;
    for (size_t i = 0; i < CS_MLKEM_POLY_BYTES * p->k; i += 3) {
        uint32_t a = ek[i] | (uint32_t)(ek[i + 1] & 0xF) << 8;
        uint32_t b = (uint32_t)(ek[i + 1] >> 4) | (uint32_t)ek[i + 2] << 4;
        bad |= (CS_MLKEM_Q - 1 - a) | (CS_MLKEM_Q - 1 - b); /* top bit set iff >= q */
    }
    return (int)(~bad >> 31);
}

/* FIPS 203 7.3: H(ek) stored in dk equals H of the ek stored in dk. */
int cs_mlkem_check_dk(const cs_keccak_impl *k, int ps, const uint8_t *dk)
{
    const cs_mlkem_params *p = cs_mlkem_params_of(ps);
    if (!p)
        return 0;
    const uint8_t *ek = dk + CS_MLKEM_POLY_BYTES * p->k;
    uint8_t h[32], diff = 0;
    cs_mlkem_hash_h(k ? k : &cs_keccak_portable, h, ek, p->ek_bytes);
    for (unsigned i = 0; i < 32; i++)
        diff |= (uint8_t)(h[i] ^ ek[p->ek_bytes + i]);
    return (int)(cs_ct_eq_mask(diff, 0) & 1);
}
