/* FIPS 204 ML-DSA on top of the backend hooks: KeyGen_internal,
 * Sign_internal, Verify_internal, the pure ML-DSA wrappers with context
 * strings, and the key and signature encodings. NTT-domain data is only
 * handed between hooks (see mldsa_backend.h), never read here.
 *
 * Large polynomial vectors live in a heap workspace (at most ~124 KB, for
 * ML-DSA-87 signing: below glibc's default mmap threshold, so no system
 * call per operation) rather than on the caller's stack, which may be a
 * small thread stack in the program we are preloaded into. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa_backend.h"

#define Q CS_MLDSA_Q
#define MAXK CS_MLDSA_MAX_K
#define MAXL CS_MLDSA_MAX_L

/* Heap workspace aligned for cs_mldsa_poly's 32-byte SIMD loads (malloc
 * promises only 16), rounded up to a whole number of cache lines as
 * aligned_alloc requires a multiple of the alignment. */
static void *ws_alloc(size_t n)
{
    return aligned_alloc(64, (n + 63) & ~(size_t)63);
}

/* One-shot SHAKE256 over up to three input pieces on Keccak table k. */
static void shake256_3(const cs_keccak_impl *k, uint8_t *out, size_t outlen,
                       const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                       const uint8_t *c, size_t clen)
{
    cs_shake sp;
    cs_shake_init(&sp, k, CS_SHAKE256_RATE);
    cs_shake_absorb(&sp, a, alen);
    if (blen)
        cs_shake_absorb(&sp, b, blen);
    if (clen)
        cs_shake_absorb(&sp, c, clen);
    cs_shake_squeeze(&sp, out, outlen);
    cs_wipe(&sp, sizeof sp);
}

/* c = reduce32(sum of n Montgomery products), fused when impl can. */
static void acc_reduce(const cs_mldsa_impl *impl, cs_mldsa_poly *c, const cs_mldsa_poly *a,
                       const cs_mldsa_poly *b, unsigned n)
{
    if (impl->pointwise_acc_reduce) {
        impl->pointwise_acc_reduce(c, a, b, n);
        return;
    }
    impl->pointwise_acc_mont(c, a, b, n);
    impl->reduce32(c);
}

/* Row i of invNTT(A * s1hat), |t_i| < q; s1hat is NTT(s1). */
static void t_row_as1(const cs_mldsa_impl *impl, const cs_mldsa_params *p, cs_mldsa_poly *t,
                      const cs_mldsa_poly *arow, const cs_mldsa_poly *s1hat)
{
    acc_reduce(impl, t, arow, s1hat, p->l);
    impl->invntt_tomont(t);
}

/* Row i of t = invNTT(A * s1hat) + s2, in [0, q); s1hat is NTT(s1). */
static void t_row(const cs_mldsa_impl *impl, const cs_mldsa_params *p, cs_mldsa_poly *t,
                  const cs_mldsa_poly *arow, const cs_mldsa_poly *s1hat, const cs_mldsa_poly *s2)
{
    t_row_as1(impl, p, t, arow, s1hat);
    impl->add(t, t, s2);
    impl->reduce32(t);
    impl->caddq(t);
}

/* t = invNTT(A * s1hat) + s2 in [0, q) for rows 0..k-1 (pk_from_sk). s1
 * is in the normal domain on entry and clobbered. */
static void compute_t(const cs_mldsa_impl *impl, const cs_mldsa_params *p, cs_mldsa_poly *t,
                      const cs_mldsa_poly *mat, cs_mldsa_poly *s1, const cs_mldsa_poly *s2)
{
    for (unsigned i = 0; i < p->l; i++)
        impl->ntt(&s1[i]);
    for (unsigned i = 0; i < p->k; i++)
        t_row(impl, p, &t[i], &mat[i * p->l], s1, &s2[i]);
}

/* pk = rho || t1 packed; also returns t0 if wanted. */
static void pack_pk(const cs_mldsa_impl *impl, const cs_mldsa_params *p, uint8_t *pk,
                    const uint8_t rho[32], const cs_mldsa_poly *t1)
{
    memcpy(pk, rho, 32);
    for (unsigned i = 0; i < p->k; i++)
        impl->pack_t1(pk + 32 + i * CS_MLDSA_POLY_T1_BYTES, &t1[i]);
}

struct keygen_ws {
    cs_mldsa_poly mat[MAXK * MAXL];
    cs_mldsa_poly s1[MAXL], s2[MAXK], t[MAXK], t1[MAXK], t0[MAXK];
    uint8_t seedbuf[128];
};

/* Keygen's state for computing pk row by row while ExpandA runs. */
struct keygen_job {
    cs_mldsa_side side; /* first: the backend sees only this */
    const cs_mldsa_impl *impl;
    const cs_mldsa_params *p;
    struct keygen_ws *w;
    uint8_t *pk, *sk;
    int s_packed; /* s1, s2 packed into sk and s1 in the NTT domain */
};

/* Packs s1 and s2 into sk and moves s1 to the NTT domain: once, before
 * the first row of t (s1 and s2 are final by then). */
static void keygen_pack_s(struct keygen_job *j)
{
    const cs_mldsa_params *p = j->p;
    struct keygen_ws *w = j->w;
    uint8_t *s = j->sk + 128;
    for (unsigned i = 0; i < p->l; i++, s += p->poly_eta_bytes)
        j->impl->pack_eta(s, &w->s1[i], p->eta);
    for (unsigned i = 0; i < p->k; i++, s += p->poly_eta_bytes)
        j->impl->pack_eta(s, &w->s2[i], p->eta);
    for (unsigned i = 0; i < p->l; i++)
        j->impl->ntt(&w->s1[i]);
    j->s_packed = 1;
}

/* rows_done for keygen: rows of t (t1 packed into pk, t0 kept) up to
 * `rows`, which makes pk[0 .. 32 + 320 * rows) available to the side
 * sponge. */
static void keygen_rows(cs_mldsa_side *side, unsigned rows)
{
    struct keygen_job *j = (struct keygen_job *)side;
    struct keygen_ws *w = j->w;
    const cs_mldsa_params *p = j->p;
    if (!j->s_packed)
        keygen_pack_s(j);
    for (unsigned i = side->rows; i < rows; i++) {
        uint8_t *t1p = j->pk + 32 + i * CS_MLDSA_POLY_T1_BYTES;
        if (j->impl->t_row_finish) {
            t_row_as1(j->impl, p, &w->t[i], &w->mat[i * p->l], w->s1);
            j->impl->t_row_finish(t1p, &w->t0[i], &w->t[i], &w->s2[i]);
        } else {
            t_row(j->impl, p, &w->t[i], &w->mat[i * p->l], w->s1, &w->s2[i]);
            j->impl->power2round(&w->t1[i], &w->t0[i], &w->t[i]);
            j->impl->pack_t1(t1p, &w->t1[i]);
        }
        CS_DECLASSIFY(j->pk + 32 + i * CS_MLDSA_POLY_T1_BYTES, CS_MLDSA_POLY_T1_BYTES);
    }
    side->rows = rows;
    side->avail = 32 + (size_t)rows * CS_MLDSA_POLY_T1_BYTES;
}

/* KeyGen_internal. ExpandS comes first so that each row of t (and of pk)
 * can be computed as soon as its row of A is final; a backend with
 * expand_a_side then absorbs tr = H(pk) alongside ExpandA's own
 * permutations, one with expand_sa_side also finishes ExpandS there.
 * Same outputs either way. */
int cs_mldsa_keygen(const cs_mldsa_impl *impl, int ps, uint8_t *pk, uint8_t *sk,
                    const uint8_t seed[CS_MLDSA_SEED_BYTES])
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p)
        return -1;
    struct keygen_ws *w = ws_alloc(sizeof *w);
    if (!w)
        return -1;
    uint8_t in[34];
    memcpy(in, seed, 32);
    in[32] = (uint8_t)p->k;
    in[33] = (uint8_t)p->l;
    shake256_3(impl->keccak, w->seedbuf, 128, in, 34, NULL, 0, NULL, 0);
    const uint8_t *rho = w->seedbuf, *rhoprime = w->seedbuf + 32, *key = w->seedbuf + 96;
    CS_DECLASSIFY(w->seedbuf, 32); /* rho is public (part of pk) */

    struct keygen_job job = {.impl = impl, .p = p, .w = w, .pk = pk, .sk = sk};
    memcpy(pk, rho, 32);
    cs_shake_init(&job.side.sp, impl->keccak, CS_SHAKE256_RATE);
    job.side.data = pk;
    job.side.avail = 32;
    job.side.rows_done = keygen_rows;
    /* s1 and s2 are packed and NTT(s1) taken by the first rows_done */
    if (impl->expand_sa_side) {
        impl->expand_sa_side(impl, w->s1, w->s2, rhoprime, p->eta, w->mat, rho, p->k, p->l,
                             &job.side);
    } else {
        impl->expand_s(impl, w->s1, w->s2, rhoprime, p->k, p->l, p->eta);
        if (impl->expand_a_side)
            impl->expand_a_side(impl, w->mat, rho, p->k, p->l, &job.side);
        else
            impl->expand_a(impl, w->mat, rho, p->k, p->l);
    }
    if (job.side.rows < p->k)
        keygen_rows(&job.side, p->k);
    CS_DECLASSIFY(pk, p->pk_bytes);
    cs_shake_absorb(&job.side.sp, pk + job.side.used, p->pk_bytes - job.side.used);
    cs_shake_squeeze(&job.side.sp, sk + 64, 64);

    uint8_t *s = sk + 128 + (p->l + p->k) * p->poly_eta_bytes;
    for (unsigned i = 0; i < p->k; i++, s += CS_MLDSA_POLY_T0_BYTES)
        impl->pack_t0(s, &w->t0[i]);
    memcpy(sk, rho, 32);
    memcpy(sk + 32, key, 32);

    /* Secrets only, and only the rows this parameter set used (the
     * workspace is sized for ML-DSA-87: wiping it all cost more than
     * packing the key). A, t1 and the H(pk) sponge are public. */
    cs_wipe(in, sizeof in);
    cs_wipe(w->s1, p->l * sizeof w->s1[0]);
    cs_wipe(w->s2, p->k * sizeof w->s2[0]);
    cs_wipe(w->t, p->k * sizeof w->t[0]);
    cs_wipe(w->t0, p->k * sizeof w->t0[0]);
    cs_wipe(w->seedbuf, sizeof w->seedbuf);
    free(w);
    return 0;
}

int cs_mldsa_pk_tr(const cs_mldsa_impl *impl, int ps, uint8_t tr[CS_MLDSA_TR_BYTES],
                   const uint8_t *pk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p)
        return -1;
    shake256_3(impl->keccak, tr, 64, pk, p->pk_bytes, NULL, 0, NULL, 0);
    return 0;
}

struct pkfromsk_ws {
    cs_mldsa_poly mat[MAXK * MAXL];
    cs_mldsa_poly s1[MAXL], s2[MAXK], t[MAXK], t1[MAXK], t0[MAXK];
    uint8_t t0packed[CS_MLDSA_POLY_T0_BYTES];
    uint8_t tr[CS_MLDSA_TR_BYTES];
};

/* Byte difference of a and b ORed together: 0 iff equal, read in full. */
static uint32_t diff_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint32_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (uint32_t)(a[i] ^ b[i]);
    return d;
}

/* Every defect is ORed into one flag while the secret parts are read, and
 * only the verdict is declassified: whether a key is well formed is
 * public (OpenSSL refuses a malformed one), which coefficient is not. */
int cs_mldsa_pk_from_sk(const cs_mldsa_impl *impl, int ps, uint8_t *pk, const uint8_t *sk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p)
        return -1;
    struct pkfromsk_ws *w = ws_alloc(sizeof *w);
    if (!w)
        return -1;
    uint32_t bad = 0, range = 0;
    const uint8_t *s = sk + 128;
    for (unsigned i = 0; i < p->l; i++, s += p->poly_eta_bytes)
        range |= (uint32_t)impl->unpack_eta(&w->s1[i], s, p->eta);
    for (unsigned i = 0; i < p->k; i++, s += p->poly_eta_bytes)
        range |= (uint32_t)impl->unpack_eta(&w->s2[i], s, p->eta);
    uint8_t rho[32];
    memcpy(rho, sk, 32);
    CS_DECLASSIFY(rho, 32); /* public: it is also in pk */
    impl->expand_a(impl, w->mat, rho, p->k, p->l);
    compute_t(impl, p, w->t, w->mat, w->s1, w->s2);
    for (unsigned i = 0; i < p->k; i++, s += CS_MLDSA_POLY_T0_BYTES) {
        impl->power2round(&w->t1[i], &w->t0[i], &w->t[i]);
        /* t0 from (rho, s1, s2) must be the key's own */
        impl->pack_t0(w->t0packed, &w->t0[i]);
        bad |= diff_bytes(w->t0packed, s, CS_MLDSA_POLY_T0_BYTES);
    }
    pack_pk(impl, p, pk, rho, w->t1);
    /* pk depends on the secret s1, s2 but is public once computed (the
     * key's owner publishes it), as in keygen */
    CS_DECLASSIFY(pk, p->pk_bytes);
    shake256_3(impl->keccak, w->tr, sizeof w->tr, pk, p->pk_bytes, NULL, 0, NULL, 0);
    bad |= diff_bytes(w->tr, sk + 64, sizeof w->tr);
    bad = 0u - ((bad | (0u - bad)) >> 31); /* all ones iff any defect */
    range = 0u - ((range | (0u - range)) >> 31);
    CS_DECLASSIFY(&bad, sizeof bad);
    CS_DECLASSIFY(&range, sizeof range);
    cs_wipe(w->s1, sizeof *w - offsetof(struct pkfromsk_ws, s1));
    free(w);
    return range ? -2 : bad ? -1 : 0;
}

/* HintBitPack: positions of ones per row, then running counts. h is
 * public at this point (the signature is accepted), its words are 0 or 1
 * and at most omega are 1. */
static void pack_hint(const cs_mldsa_params *p, uint8_t *r, const cs_mldsa_poly *h)
{
    unsigned idx = 0;
    uint8_t pos[80 + 1]; /* omega <= 80 (ML-DSA-44) */
    memset(r, 0, p->omega + p->k);
    for (unsigned i = 0; i < p->k; i++) {
        /* at most omega ones in k * 256 words: skip zero groups of eight
         * with one test (h is public here) */
        for (unsigned j = 0; j < 256; j += 8) {
            uint64_t g[4];
            memcpy(g, h[i].c + j, sizeof g);
            if (!(g[0] | g[1] | g[2] | g[3]))
                continue;
            /* every position written, kept only where h is 1 (the
             * positions' branch mispredicted); idx <= omega throughout */
            for (unsigned t = j; t < j + 8; t++) {
                pos[idx] = (uint8_t)t;
                idx += (unsigned)h[i].c[t];
            }
        }
        r[p->omega + i] = (uint8_t)idx;
    }
    memcpy(r, pos, idx);
}

/* HintBitUnpack (FIPS 204 Algorithm 21) with its malformed-input checks;
 * returns -1 on a non-canonical encoding. */
static int unpack_hint(const cs_mldsa_params *p, cs_mldsa_poly *h, const uint8_t *r)
{
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        memset(h[i].c, 0, sizeof h[i].c);
        unsigned end = r[p->omega + i];
        if (end < idx || end > p->omega)
            return -1;
        unsigned first = idx;
        for (; idx < end; idx++) {
            if (idx > first && r[idx - 1] >= r[idx])
                return -1;
            h[i].c[r[idx]] = 1;
        }
    }
    for (; idx < p->omega; idx++)
        if (r[idx])
            return -1;
    return 0;
}

/* Per-key state for signing and verifying: everything that depends only on
 * the key, computed once. With impl->ntt_challenge the key vectors are in
 * the NTT domain (impl's order, reduced by reduce32: |x| < q), so they only
 * ever meet impl's hooks; otherwise they stay in the normal domain for
 * mul_challenge. */
struct cs_mldsa_prepared {
    cs_mldsa_poly *mat;                   /* A-hat, k x l */
    cs_mldsa_poly *s1hat, *s2hat, *t0hat; /* private key: (NTT of) s1, s2, t0 */
    cs_mldsa_poly *t1hat;                 /* public key: (NTT of) t1 * 2^d */
    const cs_mldsa_impl *impl;
    const cs_mldsa_params *p;
    size_t bytes; /* of the whole allocation, wiped on free */
    int priv;
    uint8_t rho[32], key[32], tr[64];
};

/* Points the vectors of pr into polys (room for k*l + l + 2k polynomials
 * for a private key, k*l + k for a public one). */
static void prep_layout(cs_mldsa_prepared *pr, cs_mldsa_poly *polys, const cs_mldsa_impl *impl,
                        const cs_mldsa_params *p, int priv)
{
    pr->impl = impl;
    pr->p = p;
    pr->priv = priv;
    pr->mat = polys;
    pr->s1hat = pr->s2hat = pr->t0hat = pr->t1hat = NULL;
    if (priv) {
        pr->s1hat = polys + p->k * p->l;
        pr->s2hat = pr->s1hat + p->l;
        pr->t0hat = pr->s2hat + p->k;
    } else {
        pr->t1hat = polys + p->k * p->l;
    }
}

/* NTT of a in place, then reduced to |a_i| < q, if impl multiplies by the
 * challenge in the NTT domain; else a stays as it is. */
static void ntt_reduced(const cs_mldsa_impl *impl, cs_mldsa_poly *a)
{
    if (!impl->ntt_challenge)
        return;
    impl->ntt(a);
    impl->reduce32(a);
}

/* r = c * s for a challenge c: with ntt_challenge, c and s are NTT-domain
 * and r is congruent to the product with |r| < q; else the exact product
 * by mul_challenge. The products are far below q/2, so reduce32 turns
 * either into the exact value. */
static void challenge_mul(const cs_mldsa_impl *impl, cs_mldsa_poly *r, const cs_mldsa_poly *c,
                          const cs_mldsa_poly *s)
{
    if (impl->ntt_challenge) {
        impl->pointwise_mont(r, c, s);
        impl->invntt_tomont(r);
    } else {
        impl->mul_challenge(r, c, s);
    }
}

/* Fills a laid-out private-key state from the expanded private key sk
 * (FIPS 204 skDecode, ExpandA, and the NTTs Sign_internal needs). */
static void prep_fill_sk(cs_mldsa_prepared *pr, const uint8_t *sk)
{
    const cs_mldsa_impl *impl = pr->impl;
    const cs_mldsa_params *p = pr->p;
    const uint8_t *s = sk + 128;
    memcpy(pr->rho, sk, 32);
    CS_DECLASSIFY(pr->rho, 32); /* public: it is also in pk */
    memcpy(pr->key, sk + 32, 32);
    memcpy(pr->tr, sk + 64, 64);
    for (unsigned i = 0; i < p->l; i++, s += p->poly_eta_bytes) {
        impl->unpack_eta(&pr->s1hat[i], s, p->eta);
        ntt_reduced(impl, &pr->s1hat[i]);
    }
    for (unsigned i = 0; i < p->k; i++, s += p->poly_eta_bytes) {
        impl->unpack_eta(&pr->s2hat[i], s, p->eta);
        ntt_reduced(impl, &pr->s2hat[i]);
    }
    for (unsigned i = 0; i < p->k; i++, s += CS_MLDSA_POLY_T0_BYTES) {
        impl->unpack_t0(&pr->t0hat[i], s);
        ntt_reduced(impl, &pr->t0hat[i]);
    }
    impl->expand_a(impl, pr->mat, pr->rho, p->k, p->l);
}

/* rows_done for a side sponge whose data is all there from the start. */
static void side_rows_only(cs_mldsa_side *side, unsigned rows)
{
    side->rows = rows;
}

/* ExpandA into pr->mat and tr = H(pk) into pr->tr: with expand_a_side the
 * hash runs in ExpandA's spare permutation capacity (the whole of pk is
 * there from the start), the part left after it here; same tr either way.
 * A new key per verification (a TLS client checking a certificate chain)
 * pays both, so this is most of what a fresh key costs beyond ExpandA. */
static void expand_a_tr(cs_mldsa_prepared *pr, const uint8_t *pk)
{
    const cs_mldsa_impl *impl = pr->impl;
    const cs_mldsa_params *p = pr->p;
    if (!impl->expand_a_side) {
        impl->expand_a(impl, pr->mat, pr->rho, p->k, p->l);
        shake256_3(impl->keccak, pr->tr, 64, pk, p->pk_bytes, NULL, 0, NULL, 0);
        return;
    }
    cs_mldsa_side side = {.data = pk, .avail = p->pk_bytes, .rows_done = side_rows_only};
    cs_shake_init(&side.sp, impl->keccak, CS_SHAKE256_RATE);
    impl->expand_a_side(impl, pr->mat, pr->rho, p->k, p->l, &side);
    cs_shake_absorb(&side.sp, pk + side.used, p->pk_bytes - side.used);
    cs_shake_squeeze(&side.sp, pr->tr, 64);
}

/* Fills a laid-out public-key state from pk (pkDecode, ExpandA, NTT(t1*2^d)
 * and, if want_tr, tr = H(pk)). */
static void prep_fill_pk(cs_mldsa_prepared *pr, const uint8_t *pk, int want_tr)
{
    const cs_mldsa_impl *impl = pr->impl;
    const cs_mldsa_params *p = pr->p;
    memcpy(pr->rho, pk, 32);
    memset(pr->key, 0, sizeof pr->key);
    for (unsigned i = 0; i < p->k; i++) {
        impl->unpack_t1(&pr->t1hat[i], pk + 32 + i * CS_MLDSA_POLY_T1_BYTES);
        impl->shiftl(&pr->t1hat[i]);
        ntt_reduced(impl, &pr->t1hat[i]);
    }
    if (want_tr) {
        expand_a_tr(pr, pk);
    } else {
        impl->expand_a(impl, pr->mat, pr->rho, p->k, p->l);
        memset(pr->tr, 0, sizeof pr->tr);
    }
}

/* Size of a state for p's key sizes: header, then the polynomials. */
static size_t prep_bytes(const cs_mldsa_params *p, int priv)
{
    size_t hdr = (sizeof(cs_mldsa_prepared) + 63) & ~(size_t)63;
    size_t npoly = p->k * p->l + (priv ? p->l + 2 * p->k : p->k);
    return hdr + npoly * sizeof(cs_mldsa_poly);
}

/* Allocates a state for p's key sizes. */
static cs_mldsa_prepared *prep_alloc(const cs_mldsa_impl *impl, const cs_mldsa_params *p,
                                     int priv)
{
    size_t hdr = (sizeof(cs_mldsa_prepared) + 63) & ~(size_t)63;
    uint8_t *m = ws_alloc(prep_bytes(p, priv));
    if (!m)
        return NULL;
    cs_mldsa_prepared *pr = (cs_mldsa_prepared *)m;
    prep_layout(pr, (cs_mldsa_poly *)(m + hdr), impl, p, priv);
    pr->bytes = prep_bytes(p, priv);
    return pr;
}

/* The split layout: header and the secret vectors in one block, A-hat
 * (public) in the other; bytes covers the secret block only. */
int cs_mldsa_prepared_sk_sizes(int ps, size_t *secret, size_t *public_part)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p)
        return -1;
    size_t hdr = (sizeof(cs_mldsa_prepared) + 63) & ~(size_t)63;
    *secret = hdr + (p->l + 2 * p->k) * sizeof(cs_mldsa_poly);
    *public_part = p->k * p->l * sizeof(cs_mldsa_poly);
    return 0;
}

cs_mldsa_prepared *cs_mldsa_prepare_sk_in(const cs_mldsa_impl *impl, int ps, const uint8_t *sk,
                                          void *secret, void *public_part)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    size_t sb, pb;
    if (!p || !secret || !public_part || ((uintptr_t)secret & 63) != 0 ||
        ((uintptr_t)public_part & 63) != 0 || cs_mldsa_prepared_sk_sizes(ps, &sb, &pb) != 0)
        return NULL;
    size_t hdr = (sizeof(cs_mldsa_prepared) + 63) & ~(size_t)63;
    cs_mldsa_prepared *pr = secret;
    cs_mldsa_poly *polys = (cs_mldsa_poly *)((uint8_t *)secret + hdr);
    pr->impl = impl;
    pr->p = p;
    pr->priv = 1;
    pr->mat = public_part;
    pr->t1hat = NULL;
    pr->s1hat = polys;
    pr->s2hat = pr->s1hat + p->l;
    pr->t0hat = pr->s2hat + p->k;
    pr->bytes = sb;
    prep_fill_sk(pr, sk);
    return pr;
}

void *cs_mldsa_prepared_public_part(const cs_mldsa_prepared *pr)
{
    return pr->mat;
}

void cs_mldsa_prepared_wipe(cs_mldsa_prepared *pr)
{
    if (pr)
        cs_wipe(pr, pr->bytes);
}

cs_mldsa_prepared *cs_mldsa_prepare_sk(const cs_mldsa_impl *impl, int ps, const uint8_t *sk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    cs_mldsa_prepared *pr = p ? prep_alloc(impl, p, 1) : NULL;
    if (pr)
        prep_fill_sk(pr, sk);
    return pr;
}

cs_mldsa_prepared *cs_mldsa_prepare_pk(const cs_mldsa_impl *impl, int ps, const uint8_t *pk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    cs_mldsa_prepared *pr = p ? prep_alloc(impl, p, 0) : NULL;
    if (pr)
        prep_fill_pk(pr, pk, 1);
    return pr;
}

void cs_mldsa_prepared_free(cs_mldsa_prepared *pr)
{
    if (!pr)
        return;
    cs_wipe(pr, pr->bytes);
    free(pr);
}

int cs_mldsa_prepared_ps(const cs_mldsa_prepared *pr)
{
    return pr->p->ps;
}

const cs_mldsa_impl *cs_mldsa_prepared_impl(const cs_mldsa_prepared *pr)
{
    return pr->impl;
}

const uint8_t *cs_mldsa_prepared_tr(const cs_mldsa_prepared *pr)
{
    return pr->tr;
}

struct sign_ws {
    cs_mldsa_poly y[MAXL + 3], z[MAXL]; /* y: a round's l, then the carried streams */
    cs_mldsa_poly w0[MAXK], w1[MAXK], h[MAXK]; /* LowBits(w), HighBits(w), hints */
    cs_mldsa_poly c, tmp;
    uint8_t w1buf[MAXK * 192];
    uint8_t rhopp[64];
};

/* Wipes the parts of a signing workspace that parameter set p used. */
static void sign_ws_wipe(struct sign_ws *w, const cs_mldsa_params *p)
{
    cs_wipe(w->y, sizeof w->y); /* carried streams can reach its end */
    cs_wipe(w->z, p->l * sizeof w->z[0]);
    cs_wipe(w->w0, p->k * sizeof w->w0[0]);
    cs_wipe(w->w1, p->k * sizeof w->w1[0]);
    cs_wipe(w->h, p->k * sizeof w->h[0]);
    cs_wipe(&w->c, offsetof(struct sign_ws, rhopp) + sizeof w->rhopp - offsetof(struct sign_ws, c));
}

/* c = reduce32(a + b) (or a - b if sub), nonzero iff ||c|| >= bound;
 * fused when impl has the hook. */
static int sum_chknorm(const cs_mldsa_impl *impl, cs_mldsa_poly *c, const cs_mldsa_poly *a,
                       const cs_mldsa_poly *b, int sub, int32_t bound)
{
    if (impl->sum_chknorm)
        return impl->sum_chknorm(c, a, b, sub, bound);
    if (sub)
        impl->sub(c, a, b);
    else
        impl->add(c, a, b);
    impl->reduce32(c);
    return impl->chknorm(c, bound);
}

/* y[0..l) = ExpandMask(rho'', kappa) for a round. With mask_batch the
 * streams come from batch-wide expand_mask calls: *carry polynomials left
 * after y[l] by the previous round (nonces kappa, kappa + 1, ...) move to
 * the front, passes fill the rest, and the surplus stays for the next
 * round. */
static void mask_round(const cs_mldsa_impl *impl, const cs_mldsa_params *p, cs_mldsa_poly *y,
                       unsigned *carry, const uint8_t rhopp[64], uint16_t kappa)
{
    const unsigned l = p->l, cap = MAXL + 3;
    if (!impl->mask_batch) {
        impl->expand_mask(impl, y, rhopp, kappa, l, p->gamma1);
        return;
    }
    unsigned have = *carry;
    memmove(y, y + l, have * sizeof y[0]);
    /* Batches as wide as the workspace allows: have < l <= MAXL, so
     * cap - have >= 4, a whole four-stream batch. */
    while (have < l) {
        unsigned n = cap - have < impl->mask_batch ? cap - have : impl->mask_batch;
        impl->expand_mask(impl, y + have, rhopp, (uint16_t)(kappa + have), n, p->gamma1);
        have += n;
    }
    *carry = have - l;
}

/* Sign_internal (FIPS 204 Algorithm 7) on mu with a prepared private key.
 * The challenge products c*s1, c*s2, c*t0 come from challenge_mul and
 * reduce32 (exact), so the output is FIPS 204's on every impl. Three
 * outcomes are declassified, each deciding a loop iteration: the z check,
 * the r0 check, and the ct0 and hint checks together (the split lets a
 * round that fails on r0, the likeliest failure after z, skip the k
 * products c*t0). ctilde is declassified too (a hash output that becomes
 * public in the accepted signature; in rejected rounds it is independent
 * of everything the attacker sees). Nothing else secret decides a branch.
 *
 * r0 is taken as w0 - c*s2 rather than from a second Decompose of
 * w - c*s2: with |c*s2| <= beta, ||w0 - c*s2|| < gamma2 - beta holds
 * exactly when ||LowBits(w - c*s2)|| < gamma2 - beta does, and then
 * LowBits(w - c*s2) = w0 - c*s2 and HighBits(w - c*s2) = w1, so every
 * decision and every hint is FIPS 204's. */
static void sign_core(const cs_mldsa_prepared *pr, struct sign_ws *w, uint8_t *sig,
                      const uint8_t mu[64], const uint8_t rnd[32])
{
    const cs_mldsa_impl *impl = pr->impl;
    const cs_mldsa_params *p = pr->p;
    const unsigned k = p->k, l = p->l;
    shake256_3(impl->keccak, w->rhopp, 64, pr->key, 32, rnd, 32, mu, 64);

    const size_t w1_bytes = k * p->poly_w1_bytes;
    uint8_t *ctilde = sig;
    uint8_t *zout = sig + p->ctilde_bytes;
    unsigned carry = 0;
    for (uint16_t kappa = 0;; kappa = (uint16_t)(kappa + l)) {
        mask_round(impl, p, w->y, &carry, w->rhopp, kappa);
        /* w = A * NTT(y), back in the normal domain, in [0, q), kept as
         * (w1, w0) = Decompose(w). */
        for (unsigned i = 0; i < l; i++) {
            w->z[i] = w->y[i];
            impl->ntt(&w->z[i]);
        }
        for (unsigned i = 0; i < k; i++) {
            acc_reduce(impl, &w->tmp, &pr->mat[i * l], w->z, l);
            impl->invntt_tomont(&w->tmp);
            impl->caddq(&w->tmp);
            impl->decompose(&w->w1[i], &w->w0[i], &w->tmp, p->gamma2);
            impl->pack_w1(w->w1buf + i * p->poly_w1_bytes, &w->w1[i], p->gamma2);
        }
        shake256_3(impl->keccak, ctilde, p->ctilde_bytes, mu, 64, w->w1buf, w1_bytes, NULL, 0);
        CS_DECLASSIFY(ctilde, p->ctilde_bytes);
        cs_mldsa_sample_in_ball(impl, &w->c, ctilde, p->ctilde_bytes, p->tau);
        if (impl->ntt_challenge)
            impl->ntt(&w->c); /* c-hat from here on */

        /* z = y + c*s1, rejected if ||z|| >= gamma1 - beta. */
        int reject = 0;
        for (unsigned i = 0; i < l; i++) {
            challenge_mul(impl, &w->z[i], &w->c, &pr->s1hat[i]);
            reject |= sum_chknorm(impl, &w->z[i], &w->z[i], &w->y[i], 0,
                                  p->gamma1 - (int32_t)p->beta);
        }
        CS_DECLASSIFY(&reject, sizeof reject);
        if (reject)
            continue;

        /* r0 = w0 - c*s2 (exact), rejected if ||r0|| >= gamma2 - beta. */
        for (unsigned i = 0; i < k; i++) {
            challenge_mul(impl, &w->tmp, &w->c, &pr->s2hat[i]);
            reject |= sum_chknorm(impl, &w->w0[i], &w->w0[i], &w->tmp, 1,
                                  p->gamma2 - (int32_t)p->beta);
        }
        CS_DECLASSIFY(&reject, sizeof reject);
        if (reject)
            continue;

        /* c*t0, rejected if ||ct0|| >= gamma2; hints from r0 + ct0 and w1,
         * rejected if more than omega. */
        unsigned ones = 0;
        for (unsigned i = 0; i < k; i++) {
            challenge_mul(impl, &w->tmp, &w->c, &pr->t0hat[i]);
            impl->reduce32(&w->tmp);
            reject |= impl->chknorm(&w->tmp, p->gamma2);
            impl->add(&w->tmp, &w->w0[i], &w->tmp);
            ones += impl->make_hint(&w->h[i], &w->tmp, &w->w1[i], p->gamma2);
        }
        reject |= ones > p->omega;
        CS_DECLASSIFY(&reject, sizeof reject);
        if (reject)
            continue;

        for (unsigned i = 0; i < l; i++)
            impl->pack_z(zout + i * p->poly_z_bytes, &w->z[i], p->gamma1);
        CS_DECLASSIFY(w->h, sizeof w->h[0] * k);
        pack_hint(p, zout + l * p->poly_z_bytes, w->h);
        break;
    }
    CS_DECLASSIFY(sig, p->sig_bytes);
}

/* mu = H(tr || 0 || ctxlen || ctx || msg), the pure ML-DSA message
 * representative (FIPS 204 Algorithms 2 and 3), on impl's scalar Keccak. */
static void compute_mu(const cs_mldsa_impl *impl, uint8_t mu[64], const uint8_t tr[64],
                       const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen)
{
    cs_shake st;
    uint8_t pre[2] = {0, (uint8_t)ctxlen};
    cs_shake_init(&st, impl->keccak, CS_SHAKE256_RATE);
    cs_shake_absorb(&st, tr, 64);
    cs_shake_absorb(&st, pre, 2);
    cs_shake_absorb(&st, ctx, ctxlen);
    cs_shake_absorb(&st, msg, msglen);
    cs_shake_squeeze(&st, mu, 64);
}

/* Signs mu with a prepared key in a fresh workspace. */
static int sign_with(const cs_mldsa_prepared *pr, uint8_t *sig, const uint8_t mu[64],
                     const uint8_t rnd[32])
{
    struct sign_ws *w = ws_alloc(sizeof *w);
    if (!w)
        return -1;
    sign_core(pr, w, sig, mu, rnd);
    sign_ws_wipe(w, pr->p);
    free(w);
    return 0;
}

int cs_mldsa_sign_mu_prepared(const cs_mldsa_prepared *pr, uint8_t *sig,
                              const uint8_t mu[CS_MLDSA_MU_BYTES],
                              const uint8_t rnd[CS_MLDSA_RND_BYTES])
{
    if (!pr || !pr->priv)
        return -1;
    return sign_with(pr, sig, mu, rnd);
}

int cs_mldsa_sign_prepared(const cs_mldsa_prepared *pr, uint8_t *sig, const uint8_t *msg,
                           size_t msglen, const uint8_t *ctx, size_t ctxlen,
                           const uint8_t rnd[CS_MLDSA_RND_BYTES])
{
    uint8_t mu[64];
    if (!pr || !pr->priv || ctxlen > CS_MLDSA_MAX_CTX_BYTES || (ctxlen && !ctx))
        return -1;
    compute_mu(pr->impl, mu, pr->tr, msg, msglen, ctx, ctxlen);
    return sign_with(pr, sig, mu, rnd);
}

/* Unprepared signing: the key state lives in the workspace for one call. */
struct sign_full_ws {
    cs_mldsa_prepared pr;
    cs_mldsa_poly polys[MAXK * MAXL + MAXL + 2 * MAXK];
    struct sign_ws s;
};

/* Sign_internal on the expanded private key sk: prepares, signs, wipes. */
static int sign_internal(const cs_mldsa_impl *impl, const cs_mldsa_params *p, uint8_t *sig,
                         const uint8_t *sk, const uint8_t mu[64], const uint8_t rnd[32])
{
    struct sign_full_ws *w = ws_alloc(sizeof *w);
    if (!w)
        return -1;
    prep_layout(&w->pr, w->polys, impl, p, 1);
    prep_fill_sk(&w->pr, sk);
    sign_core(&w->pr, &w->s, sig, mu, rnd);
    cs_wipe(&w->pr, sizeof w->pr);
    /* the key's vectors; A-hat in front of them is public */
    cs_wipe(w->polys + p->k * p->l, (p->l + 2 * p->k) * sizeof w->polys[0]);
    sign_ws_wipe(&w->s, p);
    free(w);
    return 0;
}

int cs_mldsa_sign_mu(const cs_mldsa_impl *impl, int ps, uint8_t *sig, const uint8_t *sk,
                     const uint8_t mu[CS_MLDSA_MU_BYTES], const uint8_t rnd[CS_MLDSA_RND_BYTES])
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p)
        return -1;
    return sign_internal(impl, p, sig, sk, mu, rnd);
}

int cs_mldsa_sign(const cs_mldsa_impl *impl, int ps, uint8_t *sig, const uint8_t *sk,
                  const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                  const uint8_t rnd[CS_MLDSA_RND_BYTES])
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    uint8_t mu[64];
    if (!p || ctxlen > CS_MLDSA_MAX_CTX_BYTES || (ctxlen && !ctx))
        return -1;
    compute_mu(impl, mu, sk + 64, msg, msglen, ctx, ctxlen);
    return sign_internal(impl, p, sig, sk, mu, rnd);
}

struct verify_ws {
    cs_mldsa_poly z[MAXL], h[MAXK], w[MAXK];
    cs_mldsa_poly c, tmp;
    uint8_t w1buf[MAXK * 192];
};

/* Verify_internal (FIPS 204 Algorithm 8) on mu with a prepared public key:
 * w'approx = invNTT(A-hat * NTT(z) - NTT(c) * NTT(t1 * 2^d)) with
 * ntt_challenge, else invNTT(A-hat * NTT(z)) - c * t1 * 2^d (exact, sparse),
 * then UseHint on its canonical value (the same either way). Public data
 * only. */
static int verify_core(const cs_mldsa_prepared *pr, struct verify_ws *w, const uint8_t *sig,
                       const uint8_t mu[64])
{
    const cs_mldsa_impl *impl = pr->impl;
    const cs_mldsa_params *p = pr->p;
    const unsigned k = p->k, l = p->l;
    const uint8_t *ctilde = sig, *zin = sig + p->ctilde_bytes;
    if (unpack_hint(p, w->h, zin + l * p->poly_z_bytes))
        return -1;
    for (unsigned i = 0; i < l; i++) {
        impl->unpack_z(&w->z[i], zin + i * p->poly_z_bytes, p->gamma1);
        if (impl->chknorm(&w->z[i], p->gamma1 - (int32_t)p->beta))
            return -1;
        impl->ntt(&w->z[i]);
    }
    cs_mldsa_sample_in_ball(impl, &w->c, ctilde, p->ctilde_bytes, p->tau);
    if (impl->ntt_challenge)
        impl->ntt(&w->c);
    for (unsigned i = 0; i < k; i++) {
        impl->pointwise_acc_mont(&w->w[i], &pr->mat[i * l], w->z, l);
        if (impl->ntt_challenge) {
            impl->pointwise_mont(&w->tmp, &w->c, &pr->t1hat[i]);
            impl->sub(&w->w[i], &w->w[i], &w->tmp);
            impl->reduce32(&w->w[i]);
            impl->invntt_tomont(&w->w[i]);
        } else {
            impl->reduce32(&w->w[i]);
            impl->invntt_tomont(&w->w[i]);
            impl->mul_challenge(&w->tmp, &w->c, &pr->t1hat[i]);
            impl->sub(&w->w[i], &w->w[i], &w->tmp);
            impl->reduce32(&w->w[i]);
        }
        impl->caddq(&w->w[i]);
        impl->use_hint(&w->tmp, &w->w[i], &w->h[i], p->gamma2);
        impl->pack_w1(w->w1buf + i * p->poly_w1_bytes, &w->tmp, p->gamma2);
    }
    uint8_t c2[64];
    shake256_3(impl->keccak, c2, p->ctilde_bytes, mu, 64, w->w1buf, k * p->poly_w1_bytes, NULL, 0);
    return memcmp(c2, ctilde, p->ctilde_bytes) ? -1 : 0;
}

/* Verifies with a prepared key in a fresh workspace. */
static int verify_with(const cs_mldsa_prepared *pr, const uint8_t *sig, const uint8_t mu[64])
{
    struct verify_ws *w = ws_alloc(sizeof *w);
    if (!w)
        return -1;
    int ret = verify_core(pr, w, sig, mu);
    free(w);
    return ret;
}

int cs_mldsa_verify_mu_prepared(const cs_mldsa_prepared *pr, const uint8_t *sig, size_t siglen,
                                const uint8_t mu[CS_MLDSA_MU_BYTES])
{
    if (!pr || pr->priv || siglen != pr->p->sig_bytes)
        return -1;
    return verify_with(pr, sig, mu);
}

int cs_mldsa_verify_prepared(const cs_mldsa_prepared *pr, const uint8_t *sig, size_t siglen,
                             const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                             size_t ctxlen)
{
    uint8_t mu[64];
    if (!pr || pr->priv || siglen != pr->p->sig_bytes || ctxlen > CS_MLDSA_MAX_CTX_BYTES ||
        (ctxlen && !ctx))
        return -1;
    compute_mu(pr->impl, mu, pr->tr, msg, msglen, ctx, ctxlen);
    return verify_with(pr, sig, mu);
}

/* Unprepared verification: the key state lives in the workspace. */
struct verify_full_ws {
    cs_mldsa_prepared pr;
    cs_mldsa_poly polys[MAXK * MAXL + MAXK];
    struct verify_ws v;
};

/* Verify_internal on pk (tr computed only if want_tr; then mu is computed
 * from msg/ctx here, else mu is given). */
static int verify_pk(const cs_mldsa_impl *impl, const cs_mldsa_params *p, const uint8_t *sig,
                     const uint8_t *mu_in, const uint8_t *pk, const uint8_t *msg, size_t msglen,
                     const uint8_t *ctx, size_t ctxlen)
{
    struct verify_full_ws *w = ws_alloc(sizeof *w);
    uint8_t mu[64];
    if (!w)
        return -1;
    prep_layout(&w->pr, w->polys, impl, p, 0);
    prep_fill_pk(&w->pr, pk, mu_in == NULL);
    if (!mu_in) {
        compute_mu(impl, mu, w->pr.tr, msg, msglen, ctx, ctxlen);
        mu_in = mu;
    }
    int ret = verify_core(&w->pr, &w->v, sig, mu_in);
    free(w);
    return ret;
}

int cs_mldsa_verify_mu(const cs_mldsa_impl *impl, int ps, const uint8_t *sig, size_t siglen,
                       const uint8_t mu[CS_MLDSA_MU_BYTES], const uint8_t *pk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p || siglen != p->sig_bytes)
        return -1;
    return verify_pk(impl, p, sig, mu, pk, NULL, 0, NULL, 0);
}

int cs_mldsa_verify(const cs_mldsa_impl *impl, int ps, const uint8_t *sig, size_t siglen,
                    const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                    const uint8_t *pk)
{
    const cs_mldsa_params *p = cs_mldsa_params_get(ps);
    if (!p || siglen != p->sig_bytes || ctxlen > CS_MLDSA_MAX_CTX_BYTES || (ctxlen && !ctx))
        return -1;
    return verify_pk(impl, p, sig, NULL, pk, msg, msglen, ctx, ctxlen);
}
