/* Fuzz target for ML-KEM decoding (FIPS 203): every implementation this
 * CPU runs (cs_mlkem_impls, found at run time, so backends are fuzzed as
 * they land) against the portable one and against FIPS 203's definitions
 * written out here with libcrypto's SHA3, on a fixed key per parameter set
 * and its encapsulation, edited where the input says:
 *  - encapsulation keys: cs_mlkem_check_ek agrees with the modulus check
 *    of FIPS 203 7.2 (every 12-bit field below q); a key that passes gives
 *    the same ciphertext and secret with every implementation;
 *  - decapsulation keys: cs_mlkem_check_dk agrees with the hash check of
 *    7.3 (H(ek) inside dk); a key that passes decapsulates the fixed
 *    ciphertext to the same secret everywhere;
 *  - ciphertexts: the same secret everywhere; the unedited one gives the
 *    encapsulated secret, an edited one the implicit rejection secret
 *    J(z || c) (a re-encryption matching other bytes is negligible);
 *  - each of these also on the implementation's prepared entries (mlkem.h:
 *    the key prepared from the ek, or from the ek inside the dk), which
 *    must give the unprepared bytes.
 * Input: parameter set and mode (byte), implementation (byte), then edits
 * (count, then per edit a region, an offset and a byte; in a key, some set
 * a 12-bit field to q's edge). */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem_backend.h"
#include "runtime/cpu.h"
#include "tests/fuzz/fuzz_common.h"

#define KQ CS_MLKEM_Q
#define MAX_EK 1568
#define MAX_DK 3168
#define MAX_CT 1568

static const cs_mlkem_impl *impls[8];
static unsigned nimpls;
static const int ps_list[3] = {512, 768, 1024};

/* Per parameter set: a key from fixed d and z, an encapsulation of it. */
static struct fixed {
    int ps;
    size_t ekb, dkb, ctb;
    uint8_t ek[MAX_EK], dk[MAX_DK], ct[MAX_CT], ss[32];
} fixed[3];

/* Stops the run (a finding) with what differed, if `ok` is false. */
#define KF_CHECK(ok, impl, ps, what) FUZZ_EXPECT(ok, what, "%s, ML-KEM-%d", (impl)->name, (ps))

/* The implementations this CPU runs, fixed keys and encapsulations, once. */
static void init(void)
{
    if (nimpls)
        return;
    uint32_t have = cs_cpu_probe();
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i && nimpls < 8; i++)
        if (((*i)->cpu_features & ~have) == 0)
            impls[nimpls++] = *i;
    uint8_t d[32], z[32], m[32];
    for (int s = 0; s < 3; s++) {
        struct fixed *fx = &fixed[s];
        fx->ps = ps_list[s];
        fx->ekb = cs_mlkem_ek_bytes(fx->ps), fx->dkb = cs_mlkem_dk_bytes(fx->ps);
        fx->ctb = cs_mlkem_ct_bytes(fx->ps);
        memset(d, 0x11 + s, 32), memset(z, 0x77 + s, 32), memset(m, 0x42 + s, 32);
        if (cs_mlkem_portable.keygen(fx->ps, fx->ek, fx->dk, d, z) ||
            cs_mlkem_portable.encaps(fx->ps, fx->ct, fx->ss, fx->ek, m))
            abort();
    }
}

/* A cursor over the input; reads past the end give zeros. */
typedef struct kf_in {
    const uint8_t *p;
    size_t left;
} kf_in;

/* The next input byte, 0 past the end. */
static unsigned kf_byte(kf_in *in)
{
    if (!in->left)
        return 0;
    in->left--;
    return *in->p++;
}

/* Applies the input's edits to buf within [start, start + len) (len
 * nonzero). An edit XORs in or stores a byte, or (keys, when fields12 is
 * set) stores a 12-bit field of an encoded polynomial at q's edge.
 * Returns the number of edits that changed a byte. */
static unsigned edit(kf_in *in, uint8_t *buf, size_t start, size_t len, int fields12)
{
    static const unsigned edge[4] = {KQ - 1, KQ, KQ + 1, 4095};
    unsigned n = 1 + kf_byte(in) % 4, changed = 0;
    for (unsigned e = 0; e < n; e++) {
        unsigned op = kf_byte(in);
        size_t off = (size_t)(kf_byte(in) << 8 | kf_byte(in)) % len;
        uint8_t v = (uint8_t)kf_byte(in), before[2];
        if (fields12 && (op & 3) == 3 && len >= 3) {
            off %= len - len % 3; /* whole groups only */
            /* field pairs live in 3-byte groups: even field low, odd high */
            size_t g = start + (off / 3) * 3;
            unsigned f = edge[v & 3];
            uint8_t *b = buf + g;
            memcpy(before, b + (v & 4 ? 1 : 0), 2);
            if (v & 4)
                b[1] = (uint8_t)((b[1] & 0x0f) | (f & 0x0f) << 4), b[2] = (uint8_t)(f >> 4);
            else
                b[0] = (uint8_t)f, b[1] = (uint8_t)((b[1] & 0xf0) | f >> 8);
            changed += memcmp(before, b + (v & 4 ? 1 : 0), 2) != 0;
            continue;
        }
        uint8_t *b = buf + start + off, old = *b;
        *b = op & 1 ? v : (uint8_t)(old ^ (v ? v : 1));
        changed += *b != old;
    }
    return changed;
}

/* The key ek (which passed check_ek) prepared by im; stops the run if that fails. */
static cs_mlkem_prepared *prepared(const cs_mlkem_impl *im, int ps, const uint8_t *ek)
{
    cs_mlkem_prepared *pr = cs_mlkem_prepared_new(ps);
    KF_CHECK(pr && !im->prepare(ps, pr, ek) && cs_mlkem_prepared_impl(pr) == im, im, ps,
             "prepare");
    return pr;
}

/* FIPS 203 7.2: ByteEncode_12(ByteDecode_12(ek)) == ek, i.e. every 12-bit
 * field of the k encoded polynomials is below q. */
static int ref_check_ek(const struct fixed *fx, const uint8_t *ek)
{
    size_t n = fx->ekb - 32;
    for (size_t i = 0; i < n; i += 3) {
        unsigned f0 = ek[i] | (ek[i + 1] & 0x0f) << 8, f1 = ek[i + 1] >> 4 | ek[i + 2] << 4;
        if (f0 >= KQ || f1 >= KQ)
            return 0;
    }
    return 1;
}

/* out = md(a || b): SHA3-256, or 32 bytes of SHAKE256 (xof set). */
static void digest(const EVP_MD *md, int xof, uint8_t out[32], const uint8_t *a, size_t alen,
                   const uint8_t *b, size_t blen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c || !EVP_DigestInit_ex(c, md, NULL) || !EVP_DigestUpdate(c, a, alen) ||
        !EVP_DigestUpdate(c, b, blen) ||
        !(xof ? EVP_DigestFinalXOF(c, out, 32) : EVP_DigestFinal_ex(c, out, NULL)))
        abort();
    EVP_MD_CTX_free(c);
}

/* FIPS 203 7.3: H(ek) stored in dk is SHA3-256 of the ek stored in dk. */
static int ref_check_dk(const struct fixed *fx, const uint8_t *dk)
{
    size_t pke = fx->ekb - 32; /* dk_PKE: 384 bytes a polynomial, as ek without rho */
    uint8_t h[32];
    digest(EVP_sha3_256(), 0, h, dk + pke, fx->ekb, NULL, 0);
    return !memcmp(h, dk + pke + fx->ekb, 32);
}

/* An edited encapsulation key: its check, then encapsulation if it passes. */
static void ek_case(kf_in *in, const struct fixed *fx, const cs_mlkem_impl *im)
{
    uint8_t ek[MAX_EK], ct1[MAX_CT], ct2[MAX_CT], ss1[32], ss2[32], m[32];
    memcpy(ek, fx->ek, fx->ekb);
    edit(in, ek, 0, fx->ekb, 1);
    int ok = cs_mlkem_check_ek(fx->ps, ek);
    KF_CHECK(ok == ref_check_ek(fx, ek), &cs_mlkem_portable, fx->ps,
             "check_ek: not FIPS 203's modulus check");
    if (!ok)
        return;
    for (int i = 0; i < 32; i++)
        m[i] = (uint8_t)kf_byte(in);
    KF_CHECK(!im->encaps(fx->ps, ct1, ss1, ek, m) &&
                 !cs_mlkem_portable.encaps(fx->ps, ct2, ss2, ek, m) &&
                 !memcmp(ct1, ct2, fx->ctb) && !memcmp(ss1, ss2, 32),
             im, fx->ps, "encaps with an edited key");
    cs_mlkem_prepared *pr = prepared(im, fx->ps, ek);
    KF_CHECK(!im->encaps_prepared(pr, ct1, ss1, m) && !memcmp(ct1, ct2, fx->ctb) &&
                 !memcmp(ss1, ss2, 32),
             im, fx->ps, "encaps_prepared with an edited key");
    cs_mlkem_prepared_free(pr);
}

/* A decapsulation key edited in one region (dk_PKE, ek, H(ek), z): its
 * check, then decapsulation of the fixed ciphertext if it passes. */
static void dk_case(kf_in *in, const struct fixed *fx, const cs_mlkem_impl *im)
{
    uint8_t dk[MAX_DK], ss1[32], ss2[32];
    memcpy(dk, fx->dk, fx->dkb);
    /* regions: dk_PKE, ek, H(ek), z */
    size_t pke = fx->dkb - fx->ekb - 64;
    const size_t reg[4][2] = {{0, pke}, {pke, fx->ekb}, {pke + fx->ekb, 32}, {fx->dkb - 32, 32}};
    unsigned r = kf_byte(in) % 4;
    edit(in, dk, reg[r][0], reg[r][1], r < 2);
    int ok = cs_mlkem_check_dk(NULL, fx->ps, dk);
    KF_CHECK(ok == ref_check_dk(fx, dk), &cs_mlkem_portable, fx->ps,
             "check_dk: not FIPS 203's hash check");
    if (!ok)
        return;
    KF_CHECK(!im->decaps(fx->ps, ss1, fx->ct, dk) &&
                 !cs_mlkem_portable.decaps(fx->ps, ss2, fx->ct, dk) && !memcmp(ss1, ss2, 32),
             im, fx->ps, "decaps with an edited key");
    const uint8_t *ek = dk + pke;
    if (!cs_mlkem_check_ek(fx->ps, ek))
        return; /* an ek edited to >= q whose H(ek) still matches: negligible */
    cs_mlkem_prepared *pr = prepared(im, fx->ps, ek);
    KF_CHECK(!im->decaps_prepared(pr, ss1, fx->ct, dk) && !memcmp(ss1, ss2, 32), im, fx->ps,
             "decaps_prepared with an edited key");
    cs_mlkem_prepared_free(pr);
}

/* An edited ciphertext decapsulated with the fixed key. */
static void ct_case(kf_in *in, const struct fixed *fx, const cs_mlkem_impl *im)
{
    uint8_t ct[MAX_CT], ss1[32], ss2[32], want[32];
    memcpy(ct, fx->ct, fx->ctb);
    unsigned changed = edit(in, ct, 0, fx->ctb, 0);
    KF_CHECK(!im->decaps(fx->ps, ss1, ct, fx->dk) &&
                 !cs_mlkem_portable.decaps(fx->ps, ss2, ct, fx->dk) && !memcmp(ss1, ss2, 32),
             im, fx->ps, "decaps of an edited ciphertext");
    cs_mlkem_prepared *pr = prepared(im, fx->ps, fx->ek);
    KF_CHECK(!im->decaps_prepared(pr, ss1, ct, fx->dk) && !memcmp(ss1, ss2, 32), im, fx->ps,
             "decaps_prepared of an edited ciphertext");
    cs_mlkem_prepared_free(pr);
    if (memcmp(ct, fx->ct, fx->ctb))
        digest(EVP_shake256(), 1, want, fx->dk + fx->dkb - 32, 32, ct, fx->ctb);
    else
        memcpy(want, fx->ss, 32);
    KF_CHECK(!memcmp(ss2, want, 32), &cs_mlkem_portable, fx->ps,
             changed ? "decaps: an edited ciphertext not rejected implicitly (J(z || c))"
                     : "decaps: the unedited ciphertext");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    kf_in in = {data, size};
    unsigned sel = kf_byte(&in);
    const struct fixed *fx = &fixed[(sel & 3) % 3];
    const cs_mlkem_impl *im = impls[kf_byte(&in) % nimpls];
    switch ((sel >> 2) % 3) {
    case 0: ek_case(&in, fx, im); break;
    case 1: dk_case(&in, fx, im); break;
    default: ct_case(&in, fx, im);
    }
    return 0;
}
