/* Component fuzz target: ML-DSA key and signature decoding by each backend
 * this CPU runs against the portable one, on a fixed key per parameter set
 * and its signature of a fixed mu, edited where the input says:
 *  - signatures (ctilde, z, the hint encoding, or a hint encoding built
 *    near the edges of HintBitUnpack's checks) verified with prepared
 *    public keys: the same verdict as portable, a hint encoding FIPS 204
 *    calls malformed (checked here independently) or a z out of range
 *    always rejected, the unedited signature accepted;
 *  - public keys (rho, t1): prepared by both, the same tr and the same
 *    verdict on the fixed signature;
 *  - private keys (s1, s2 fields out of range, t0, tr): pk_from_sk gives
 *    the same return code and public key as portable.
 * Input: parameter set (bits 0-1) and mode (bits 2-5: 9 in 16 signature
 * edits, 5 a built hint encoding, 1 a public key, 1 a private key) in one
 * byte, implementation (byte), then edits (count, then per edit a region,
 * an offset and a byte) or the hint encoding's bytes. */
#include "fuzz_mldsa_parts.h"

static const cs_mldsa_impl *const P = &cs_mldsa_portable;
static const int ps_list[4] = {44, 44, 65, 87};

/* Per parameter set (44, 65, 87): a key, a signature of mu, and the
 * public key prepared by every implementation compared (and portable). */
static struct fixed {
    const cs_mldsa_params *p;
    uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES], sig[CS_MLDSA_MAX_SIG_BYTES];
    cs_mldsa_prepared *prep[8], *prep_p;
} fixed[3];
static uint8_t mu[CS_MLDSA_MU_BYTES];

/* Fixed keys, signatures and prepared public keys, once. */
static void init(void)
{
    mf_init();
    if (fixed[0].p)
        return;
    uint8_t seed[CS_MLDSA_SEED_BYTES], rnd[CS_MLDSA_RND_BYTES] = {0};
    memset(mu, 0x3c, sizeof mu);
    for (int s = 0; s < 3; s++) {
        struct fixed *fx = &fixed[s];
        fx->p = cs_mldsa_params_get(ps_list[s + 1]);
        memset(seed, 0xa0 + s, sizeof seed);
        if (cs_mldsa_keygen(P, fx->p->ps, fx->pk, fx->sk, seed) ||
            cs_mldsa_sign_mu(P, fx->p->ps, fx->sig, fx->sk, mu, rnd))
            abort();
        for (unsigned i = 0; i < mf_nimpls; i++)
            if (!(fx->prep[i] = cs_mldsa_prepare_pk(mf_impls[i], fx->p->ps, fx->pk)))
                abort();
        if (!(fx->prep_p = cs_mldsa_prepare_pk(P, fx->p->ps, fx->pk)))
            abort();
    }
}

/* Applies the input's edits to buf: each picks a region (start, length) of
 * the nregions given, an offset in it and a byte to XOR in or to store.
 * Returns the number of edits that changed a byte. */
static unsigned edit(mf_in *in, uint8_t *buf, const size_t (*regions)[2], unsigned nregions)
{
    unsigned n = 1 + mf_byte(in) % 8, changed = 0;
    for (unsigned e = 0; e < n; e++) {
        unsigned r = mf_byte(in) % nregions, op = mf_byte(in);
        size_t off = regions[r][0] + (size_t)(mf_byte(in) << 8 | mf_byte(in)) % regions[r][1];
        uint8_t v = (uint8_t)mf_byte(in), old = buf[off];
        buf[off] = op & 1 ? v : op & 2 ? 0xff : (uint8_t)(old ^ (v ? v : 1));
        changed += buf[off] != old;
    }
    return changed;
}

/* HintBitUnpack's well-formedness (FIPS 204 Algorithm 21), written out
 * from the standard: running counts nondecreasing and at most omega,
 * positions strictly increasing within a row, unused positions zero. */
static int hint_well_formed(const cs_mldsa_params *p, const uint8_t *y)
{
    unsigned index = 0;
    for (unsigned i = 0; i < p->k; i++) {
        unsigned end = y[p->omega + i];
        if (end < index || end > p->omega)
            return 0;
        for (unsigned first = index; index < end; index++)
            if (index > first && y[index - 1] >= y[index])
                return 0;
    }
    for (; index < p->omega; index++)
        if (y[index])
            return 0;
    return 1;
}

/* A hint encoding near the edges of those checks: counts rising by 0-3
 * (sometimes falling or past omega), positions rising (sometimes not),
 * the unused tail zero (sometimes not). */
static void near_hints(mf_in *in, const cs_mldsa_params *p, uint8_t *y)
{
    unsigned idx = 0;
    memset(y, 0, p->omega + p->k);
    for (unsigned i = 0; i < p->k; i++) {
        unsigned b = mf_byte(in), end = idx + (b & 3);
        if ((b & 0x30) == 0x30)
            end = b & 0x40 ? (idx ? idx - 1 : 0) : p->omega + 1;
        unsigned pos = mf_byte(in);
        for (unsigned j = idx; j < end && j < p->omega; j++) {
            unsigned s = mf_byte(in);
            y[j] = (uint8_t)pos;
            pos += (s & 0xf0) == 0xf0 ? 0u - (s & 1) : 1 + (s & 7);
        }
        y[p->omega + i] = (uint8_t)end;
        idx = end > p->omega ? p->omega : end < idx ? idx : end;
    }
    if (idx < p->omega && (mf_byte(in) & 0xf0) == 0xf0)
        y[idx + mf_byte(in) % (p->omega - idx)] = (uint8_t)(1 + mf_byte(in));
}

/* Whether some coefficient of z is outside (-(gamma1 - beta), gamma1 - beta). */
static int z_out_of_range(const cs_mldsa_params *p, const uint8_t *z)
{
    cs_mldsa_poly a;
    for (unsigned i = 0; i < p->l; i++) {
        P->unpack_z(&a, z + i * p->poly_z_bytes, p->gamma1);
        if (!mldsa_bounded(&a, p->gamma1 - (int32_t)p->beta))
            return 1;
    }
    return 0;
}

/* An edited signature of mu, or one with a built hint encoding
 * (build_hints), verified by implementation `slot` and by portable. */
static void signatures(mf_in *in, const struct fixed *fx, unsigned slot, int build_hints)
{
    const cs_mldsa_params *p = fx->p;
    const cs_mldsa_impl *im = mf_impls[slot];
    uint8_t sig[CS_MLDSA_MAX_SIG_BYTES];
    size_t zlen = p->l * p->poly_z_bytes, hoff = p->ctilde_bytes + zlen;
    const size_t regions[4][2] = {
        {0, p->ctilde_bytes}, {p->ctilde_bytes, zlen}, {hoff, p->omega}, {hoff + p->omega, p->k}};
    memcpy(sig, fx->sig, p->sig_bytes);
    unsigned changed = build_hints ? 1 : edit(in, sig, regions, 4);
    if (build_hints)
        near_hints(in, p, sig + hoff);
    int v1 = cs_mldsa_verify_mu_prepared(fx->prep[slot], sig, p->sig_bytes, mu);
    int v2 = cs_mldsa_verify_mu_prepared(fx->prep_p, sig, p->sig_bytes, mu);
    MF_CHECK(v1 == v2, im, "signature: other verdict");
    if (!hint_well_formed(p, sig + hoff))
        MF_CHECK(v2 != 0, P, "signature: a malformed hint encoding accepted");
    if (z_out_of_range(p, sig + p->ctilde_bytes))
        MF_CHECK(v2 != 0, P, "signature: z out of range accepted");
    if (!changed)
        MF_CHECK(v2 == 0, P, "signature: the unedited signature rejected");
}

/* An edited public key, prepared by implementation `slot` and by portable,
 * verifying the fixed signature. */
static void public_keys(mf_in *in, const struct fixed *fx, unsigned slot)
{
    const cs_mldsa_params *p = fx->p;
    const cs_mldsa_impl *im = mf_impls[slot];
    uint8_t pk[CS_MLDSA_MAX_PK_BYTES];
    const size_t regions[2][2] = {{0, 32}, {32, p->pk_bytes - 32}};
    memcpy(pk, fx->pk, p->pk_bytes);
    unsigned changed = edit(in, pk, regions, 2);
    cs_mldsa_prepared *a = cs_mldsa_prepare_pk(im, p->ps, pk), *b = cs_mldsa_prepare_pk(P, p->ps, pk);
    if (!a || !b)
        abort();
    MF_CHECK(!memcmp(cs_mldsa_prepared_tr(a), cs_mldsa_prepared_tr(b), CS_MLDSA_TR_BYTES), im,
             "public key: other tr");
    int v1 = cs_mldsa_verify_mu_prepared(a, fx->sig, p->sig_bytes, mu);
    int v2 = cs_mldsa_verify_mu_prepared(b, fx->sig, p->sig_bytes, mu);
    MF_CHECK(v1 == v2, im, "public key: other verdict");
    if (!changed)
        MF_CHECK(v2 == 0, P, "public key: the unedited key rejects its signature");
    cs_mldsa_prepared_free(a);
    cs_mldsa_prepared_free(b);
}

/* An edited private key through pk_from_sk of implementation `slot` and of
 * portable. */
static void private_keys(mf_in *in, const struct fixed *fx, unsigned slot)
{
    const cs_mldsa_params *p = fx->p;
    const cs_mldsa_impl *im = mf_impls[slot];
    uint8_t sk[CS_MLDSA_MAX_SK_BYTES], pk1[CS_MLDSA_MAX_PK_BYTES], pk2[CS_MLDSA_MAX_PK_BYTES];
    size_t s12 = (p->k + p->l) * p->poly_eta_bytes;
    const size_t regions[4][2] = {
        {0, 128}, {128, s12}, {128, s12}, {128 + s12, p->k * CS_MLDSA_POLY_T0_BYTES}};
    memcpy(sk, fx->sk, p->sk_bytes);
    unsigned changed = edit(in, sk, regions, 4);
    int r1 = cs_mldsa_pk_from_sk(im, p->ps, pk1, sk), r2 = cs_mldsa_pk_from_sk(P, p->ps, pk2, sk);
    MF_CHECK(r1 == r2, im, "private key: other return code");
    MF_CHECK(!memcmp(pk1, pk2, p->pk_bytes), im, "private key: other public key");
    if (!changed)
        MF_CHECK(r2 == 0 && !memcmp(pk2, fx->pk, p->pk_bytes), P,
                 "private key: the unedited key refused");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    mf_in in = mf_start(data, size);
    unsigned sel = mf_byte(&in), s = ps_list[sel & 3] == 44 ? 0 : ps_list[sel & 3] == 65 ? 1 : 2;
    unsigned slot = mf_byte(&in) % mf_nimpls;
    /* keys cost two ExpandA each: one input in eight */
    unsigned mode = (sel >> 2) % 16;
    if (mode < 9)
        signatures(&in, &fixed[s], slot, 0);
    else if (mode < 14)
        signatures(&in, &fixed[s], slot, 1);
    else if (mode == 14)
        public_keys(&in, &fixed[s], slot);
    else
        private_keys(&in, &fixed[s], slot);
    return 0;
}
