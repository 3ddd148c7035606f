/* Ed25519 kernels (kernels/c25519): SHA-512 against FIPS 180-4's
 * examples, scalars mod L against values computed independently, the
 * neutral base-point tables against the Edwards group itself; then every
 * implementation in cs_c25519_impls this CPU runs on RFC 8032's vectors
 * (7.1 Ed25519, 7.2 Ed25519ctx, 7.3 Ed25519ph: public key, signature byte
 * for byte, verification), Wycheproof's ed25519_test.json, x25519_base
 * against the ladder on 9, and random keys and messages against the
 * portable table. No OpenSSL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/c25519/c25519.h"
#include "kernels/c25519/ed25519_table.h"
#include "kernels/c25519/scalar25519.h"
#include "kernels/c25519/sha512.h"
#include "runtime/cpu.h"
/* The template functions this test does not call. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "support/json.h"
#include "support/c25519_runs.h"
#include "support/tap.h"
#include "support/vectors.h"

#ifdef __SIZEOF_INT128__
/* The templates over the portable field, for the table check. */
#include "kernels/c25519/fe51.h"
#include "kernels/c25519/curve_impl.h"
#endif

static void unhex(uint8_t *out, size_t n, const char *hex)
{
    if (vec_unhex(out, n, hex, strlen(hex)) != (long)n)
        memset(out, 0xee, n);
}

/* ---- SHA-512 ---------------------------------------------------------- */

static void sha512_vectors(void)
{
    static const char *const digest[4] = {
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
        "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
        "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
        "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"};
    static const char *const msg[3] = {
        "", "abc",
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"};
    uint8_t out[64], want[64];
    int ok = 1;
    for (unsigned i = 0; i < 3; i++) {
        cs_sha512(out, msg[i], strlen(msg[i]));
        unhex(want, 64, digest[i]);
        ok &= !memcmp(out, want, 64);
    }
    /* a million 'a', absorbed in pieces of 1 to 300 bytes */
    static uint8_t a[300];
    memset(a, 'a', sizeof a);
    cs_sha512_ctx c;
    cs_sha512_init(&c);
    for (size_t left = 1000000, k = 1; left; k = k % 300 + 1) {
        size_t n = k < left ? k : left;
        cs_sha512_update(&c, a, n);
        left -= n;
    }
    cs_sha512_final(&c, out);
    unhex(want, 64, digest[3]);
    ok &= !memcmp(out, want, 64);
    tap_ok(ok, "SHA-512: FIPS 180-4 examples (empty, abc, 896 bits, a million a)");

    /* one-shot against random splits, every length to 3 blocks */
    uint8_t m[400], d2[64];
    unsigned bad = 0;
    tap_rng_bytes(m, sizeof m);
    for (size_t n = 0; n <= 3 * 128 + 1; n++) {
        size_t cut = n ? tap_rng_u64() % (n + 1) : 0;
        cs_sha512(out, m, n);
        cs_sha512_init(&c);
        cs_sha512_update(&c, m, cut);
        cs_sha512_update(&c, NULL, 0);
        cs_sha512_update(&c, m + cut, n - cut);
        cs_sha512_final(&c, d2);
        bad += memcmp(out, d2, 64) != 0;
    }
    tap_ok(bad == 0, "SHA-512: one-shot = split updates, lengths 0..385 (%u differ)", bad);
}

/* ---- Scalars mod L ------------------------------------------------------ */

/* Values computed with Python's integers (scripts, not this code). */
/* {x (64 bytes), x mod L} */
static const char *const reduce_vec[][2] = {
    {"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000"},
    {"edd3f55c1a631258d69cf7a2def9de14000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000"},
    {"ecd3f55c1a631258d69cf7a2def9de14000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000000",
     "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"},
    {"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "000f9c44e31106a447938568a71b0ed065bef517d273ecce3d9a307c1b419903"},
    {"ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010689faee7d21893c0b2e6bc17f5cef7a600000000000000000000000000000080",
     "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"},
    {"b2b725541252f10e4ee8b3fbf0655605133f91f5108126cd644f17ebd58acde87a4137cae19bd348ce5d04e0c0c21e1466651a00d90da580cb5a82a09b302c2d",
     "f97f3c71efa6c2681f7f6641f138e4c3c58be73023c712e3c64d093e7dd2a806"},
    {"2682653fd65bf8446068feba19bc00a75c13b16ef7c5505d37f0618f895da144814ef38a175ce713195a7f931dd9686841a1ccd35f43717d44a846fb6655d463",
     "8a6e10951335cda716909a34fca4aad874a2a9e0de3384ba59cdac0ee98ef007"},
    {"0000000000000000000000000000000000000000000000000000000000000000edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
     "0000000000000000000000000000000000000000000000000000000000000000"},
};
/* {a, b, c, (a*b + c) mod L} */
static const char *const muladd_vec[][4] = {
    {"ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1f", "f6967115716b01d1b8938ae92caa312401000000000000000000000000000000"},
    {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000000000000000000000000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000", "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
     "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"},
    {"14d2755831c49dc101a65ccedf754865cecfa6e36b98493e17c15e6402775d05", "8ae59a1f049e9e83f7cd547ff3159cb3ea82c0c3a36b1b3484af31864227ac25",
     "7f69222b1f3dcf002cb90898ae863fff7103ae62b72194e6f96925fc39afd30f", "958408a499abd08d412628d9933e7fdbde6cf2635b0f4de0b6081320deb2db07"},
    {"ac6988f094799541ae007b9cf5185a09f98d703ca23b71a077ecd981bb7ccb0e", "dff154a69ad9ff81ed2dc44b19bde273dc1da6fc48ce33ba6ae5a2157c159bd8",
     "620c583d4585f7fef88db35f049a0b6f008b74f0a169c4b609bc818b63cd8400", "3e28887c53ee56717df4328849739766c43c69e77151e8fafd8f874e5bbd4502"},
};

static void scalars(void)
{
    uint8_t x[64], out[32], want[32], a[32], b[32], c[32];
    unsigned bad = 0, n = 0;
    for (size_t i = 0; i < sizeof reduce_vec / sizeof reduce_vec[0]; i++, n++) {
        unhex(x, 64, reduce_vec[i][0]);
        unhex(want, 32, reduce_vec[i][1]);
        cs_sc25519_reduce64(out, x);
        bad += memcmp(out, want, 32) != 0;
        /* in place, as the header allows */
        cs_sc25519_reduce64(x, x);
        bad += memcmp(x, want, 32) != 0;
    }
    for (size_t i = 0; i < sizeof muladd_vec / sizeof muladd_vec[0]; i++, n++) {
        unhex(a, 32, muladd_vec[i][0]);
        unhex(b, 32, muladd_vec[i][1]);
        unhex(c, 32, muladd_vec[i][2]);
        unhex(want, 32, muladd_vec[i][3]);
        cs_sc25519_muladd(out, a, b, c);
        bad += memcmp(out, want, 32) != 0;
        cs_sc25519_muladd(a, a, b, c);
        bad += memcmp(a, want, 32) != 0;
    }
    tap_ok(bad == 0, "scalars: %u reductions and products mod L (%u differ)", n, bad);

    /* S < L decided at every byte boundary around L */
    static const uint8_t l_bytes[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                        0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                        [31] = 0x10};
    int ok = !cs_sc25519_is_canonical(l_bytes);
    for (unsigned i = 0; i < 32; i++) {
        uint8_t s[32];
        memcpy(s, l_bytes, 32);
        if (s[i] != 0) {
            s[i]--; /* L - 256^i < L */
            ok &= cs_sc25519_is_canonical(s);
        }
        memcpy(s, l_bytes, 32);
        if (s[i] != 0xff) {
            s[i]++; /* L + 256^i > L */
            ok &= !cs_sc25519_is_canonical(s);
        }
    }
    uint8_t zero[32] = {0}, ff[32];
    memset(ff, 0xff, 32);
    ok &= cs_sc25519_is_canonical(zero) && !cs_sc25519_is_canonical(ff);
    tap_ok(ok, "scalars: S < L at L, L +- 256^i, 0 and 2^256 - 1");
}

/* ---- The tables against the group --------------------------------------- */

#ifdef __SIZEOF_INT128__
/* The neutral encoding of p (ed25519_table.h). */
static void niels_bytes(uint8_t out[96], const ed_p3 *p)
{
    fe zi, x, y, t, d2;
    c25519_fe_invert(&zi, &p->Z);
    fe_mul(&x, &p->X, &zi);
    fe_mul(&y, &p->Y, &zi);
    fe_add(&t, &y, &x);
    fe_tobytes(out, &t);
    fe_sub(&t, &y, &x);
    fe_tobytes(out + 32, &t);
    fe_frombytes(&d2, ed_d2_bytes);
    fe_mul(&t, &x, &y);
    fe_mul(&t, &t, &d2);
    fe_tobytes(out + 64, &t);
}

static void p3_add(ed_p3 *r, const ed_p3 *p, const ed_p3 *q)
{
    ed_cached c;
    ed_p1 s;
    fe d2;
    fe_frombytes(&d2, ed_d2_bytes);
    ed_to_cached(&c, q, &d2);
    ed_add(&s, p, &c, 0);
    ed_p1_to_p3(r, &s);
}

/* The base point from its encoding (y = 4/5, x even), through ed_decode. */
static int base_point(ed_p3 *B)
{
    uint8_t enc[32];
    memset(enc, 0x66, 32);
    enc[0] = 0x58;
    return ed_decode(B, enc);
}

/* How many entries of the comb table c differ from (j + 1) 256^i P. */
static unsigned comb_bad(const uint8_t c[32][8][96], ed_p3 P)
{
    ed_p3 Q;
    ed_p1 s;
    uint8_t e[96];
    unsigned bad = 0;
    for (unsigned i = 0; i < 32; i++) {
        Q = P;
        for (unsigned j = 0; j < 8; j++) {
            niels_bytes(e, &Q);
            bad += memcmp(e, c[i][j], 96) != 0;
            p3_add(&Q, &Q, &P);
        }
        for (unsigned k = 0; k < 8; k++) { /* P *= 256 */
            ed_dbl(&s, &P.X, &P.Y, &P.Z);
            ed_p1_to_p3(&P, &s);
        }
    }
    return bad;
}

static void tables(void)
{
    ed_p3 B, P, Q, B2;
    ed_p1 s;
    uint8_t e[96];
    unsigned bad = 0;
    if (!base_point(&B)) {
        tap_ok(0, "tables: decode the base point");
        return;
    }
    bad = comb_bad(cs_ed25519_comb, B);
    tap_ok(bad == 0, "tables: cs_ed25519_comb[i][j] = (j+1) 256^i B (%u of 256 differ)", bad);
    P = B;
    for (unsigned k = 0; k < 4; k++) { /* P = 16 B */
        ed_dbl(&s, &P.X, &P.Y, &P.Z);
        ed_p1_to_p3(&P, &s);
    }
    bad = comb_bad(cs_ed25519_comb16, P);
    tap_ok(bad == 0, "tables: cs_ed25519_comb16[i][j] = 16 (j+1) 256^i B (%u of 256 differ)",
           bad);
    tap_ok(((uintptr_t)cs_ed25519_comb | (uintptr_t)cs_ed25519_comb16) % 64 == 0,
           "tables: both comb tables 64-byte aligned");
    bad = 0;
    ed_dbl(&s, &B.X, &B.Y, &B.Z);
    ed_p1_to_p3(&B2, &s);
    Q = B;
    for (unsigned k = 0; k < 64; k++) {
        niels_bytes(e, &Q);
        bad += memcmp(e, cs_ed25519_odd[k], 96) != 0;
        p3_add(&Q, &Q, &B2);
    }
    tap_ok(bad == 0, "tables: cs_ed25519_odd[k] = (2k+1) B (%u of 64 differ)", bad);
}
#endif

/* ---- RFC 8032 ------------------------------------------------------------ */

/* dom2(F, C) = "SigEd25519 no Ed25519 collisions" || F || |C| || C. */
static size_t dom2(uint8_t *out, int ph, const uint8_t *ctx, size_t ctxlen)
{
    static const char tag[] = "SigEd25519 no Ed25519 collisions";
    memcpy(out, tag, 32);
    out[32] = (uint8_t)ph;
    out[33] = (uint8_t)ctxlen;
    memcpy(out + 34, ctx, ctxlen);
    return 34 + ctxlen;
}

/* RFC 8032 7.1 (TEST 1, 2, 3, 1024, SHA(abc)), 7.2 (foo, bar, foo2, foo3),
 * 7.3 (TEST abc): variant (0 Ed25519, 1 ctx, 2 ph), sk, pk, message,
 * context, signature. */
static const struct rfc_vec {
    int variant;
    const char *sk, *pk, *msg, *ctx, *sig;
} rfc8032[] = {
    {0, "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {0, "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72", "",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
    {0, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82", "",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
    {0, "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
     "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
     "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1"
     "e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
     "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a"
     "7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
     "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10"
     "3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
     "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d"
     "502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
     "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089b"
     "eccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
     "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969b"
     "e3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
     "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988d"
     "cda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
     "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7"
     "984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
     "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac09"
     "43bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
     "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f161"
     "0e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
     "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8ca"
     "c60c905c15fc910840b94c00a0b9d0",
     "",
     "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"},
    {0, "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"},
    {1, "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
     "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
     "f726936d19c800494e3fdaff20b276a8", "666f6f",
     "55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d"},
    {1, "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
     "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
     "f726936d19c800494e3fdaff20b276a8", "626172",
     "fc60d5872fc46b3aa69f8b5b4351d5808f92bcc044606db097abab6dbcb1aee3216c48e8b3b66431b5b186d1d28f8ee15a5ca2df6668346291c2043d4eb3e90d"},
    {1, "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
     "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
     "508e9e6882b979fea900f62adceaca35", "666f6f",
     "8b70c1cc8310e1de20ac53ce28ae6e7207f33c3295e03bb5c0732a1d20dc64908922a8b052cf99b7c4fe107a5abb5b2c4085ae75890d02df26269d8945f84b0b"},
    {1, "ab9c2853ce297ddab85c993b3ae14bcad39b2c682beabc27d6d4eb20711d6560",
     "0f1d1274943b91415889152e893d80e93275a1fc0b65fd71b4b0dda10ad7d772",
     "f726936d19c800494e3fdaff20b276a8", "666f6f",
     "21655b5f1aa965996b3f97b3c849eafba922a0a62992f73b3d1b73106a84ad85e9b86a7b6005ea868337ff2d20a7f5fbd4cd10b0be49a68da2b2e0dc0ad8960f"},
    {2, "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf", "616263", "",
     "98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae4131f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406"},
};

static void rfc_vectors(const cs_c25519_impl *im)
{
    static const char *const section[3] = {"7.1 Ed25519", "7.2 Ed25519ctx", "7.3 Ed25519ph"};
    unsigned bad[3] = {0}, count[3] = {0};
    for (size_t i = 0; i < sizeof rfc8032 / sizeof rfc8032[0]; i++) {
        const struct rfc_vec *v = &rfc8032[i];
        uint8_t sk[32], pk[32], want_pk[32], sig[64], want_sig[64], msg[1024], ctx[8], dom[64];
        uint8_t ph[64];
        size_t mlen = strlen(v->msg) / 2, clen = strlen(v->ctx) / 2, dlen = 0;
        unhex(sk, 32, v->sk);
        unhex(want_pk, 32, v->pk);
        unhex(want_sig, 64, v->sig);
        unhex(msg, mlen, v->msg);
        unhex(ctx, clen, v->ctx);
        const uint8_t *m = msg;
        if (v->variant)
            dlen = dom2(dom, v->variant == 2, ctx, clen);
        if (v->variant == 2) { /* Ed25519ph signs SHA-512(M) */
            cs_sha512(ph, msg, mlen);
            m = ph;
            mlen = 64;
        }
        im->ed25519_pubkey(pk, sk);
        im->ed25519_sign(sig, dom, dlen, m, mlen, sk, pk);
        int ok = !memcmp(pk, want_pk, 32) && !memcmp(sig, want_sig, 64) &&
                 im->ed25519_verify(sig, dom, dlen, m, mlen, pk) == 1;
        /* a flipped bit of the message, or a plain Ed25519 check of a
         * ctx/ph signature, must fail */
        if (mlen) {
            uint8_t m2[1024];
            memcpy(m2, m, mlen);
            m2[0] ^= 1;
            ok &= im->ed25519_verify(sig, dom, dlen, m2, mlen, pk) == 0;
        }
        if (dlen)
            ok &= im->ed25519_verify(sig, NULL, 0, m, mlen, pk) == 0;
        count[v->variant]++;
        bad[v->variant] += !ok;
    }
    for (unsigned s = 0; s < 3; s++)
        tap_ok(bad[s] == 0, "%s: RFC 8032 %s, %u vectors: public key, signature, verification (%u fail)",
               im->name, section[s], count[s], bad[s]);
}

/* Wycheproof ed25519_test.json: every case's verdict (a signature that is
 * not 64 bytes is refused before the kernel, as the provider does). */
static void wycheproof(const cs_c25519_impl *im, vec_wyc *w)
{
    unsigned n = 0, bad = 0;
    vec_wyc_rewind(w);
    for (const json *grp; (grp = vec_wyc_group(w));) {
        const char *pkhex = json_get_str(json_get(grp, "publicKey"), "pk");
        uint8_t pk[32];
        if (!pkhex || strlen(pkhex) != 64 || !w->tests) {
            bad++;
            continue;
        }
        unhex(pk, 32, pkhex);
        for (const json *c; (c = vec_wyc_test(w));) {
            const char *msghex = json_get_str(c, "msg"), *sighex = json_get_str(c, "sig"),
                       *res = json_get_str(c, "result");
            size_t mlen = strlen(msghex) / 2;
            uint8_t *msg = malloc(mlen + 1), sig[64];
            int want = !strcmp(res, "valid"), got = 0;
            vec_unhex(msg, mlen + 1, msghex, strlen(msghex));
            if (strlen(sighex) == 128) {
                unhex(sig, 64, sighex);
                got = im->ed25519_verify(sig, NULL, 0, msg, mlen, pk);
            }
            if (got != want) {
                bad++;
                tap_diag("%s: tcId %d: %d, expected %d", im->name, (int)json_get(c, "tcId")->num,
                         got, want);
            }
            n++;
            free(msg);
        }
    }
    tap_ok(n == 151 && bad == 0, "%s: Wycheproof ed25519_test.json, %u cases (%u differ)", im->name,
           n, bad);
}

/* x25519_base(k) = x25519(k, 9) for random and edge scalars. */
static void base_vs_ladder(const cs_c25519_impl *im)
{
    static const uint8_t nine[32] = {9};
    uint8_t k[32], a[32], b[32];
    unsigned bad = 0;
    for (unsigned t = 0; t < 500; t++) {
        if (t < 4)
            memset(k, t == 0 ? 0 : t == 1 ? 0xff : t == 2 ? 0x80 : 0x7f, 32);
        else
            tap_rng_bytes(k, 32);
        im->x25519_base(a, k);
        im->x25519(b, k, nine);
        bad += memcmp(a, b, 32) != 0;
    }
    tap_ok(bad == 0, "%s: x25519_base = x25519(k, 9), 500 scalars (%u differ)", im->name, bad);
}

/* pubkey, sign, verify (valid and corrupted) as the reference table. */
static void against(const cs_c25519_impl *im, const cs_c25519_impl *ref)
{
    unsigned bad = 0;
    for (unsigned t = 0; t < 300; t++) {
        uint8_t sk[32], pk[2][32], sig[2][64], msg[300], dom[64], ctx[16];
        size_t mlen = tap_rng_u64() % sizeof msg, dlen = 0;
        tap_rng_bytes(sk, 32);
        tap_rng_bytes(msg, mlen);
        if (t % 3 == 1) {
            size_t clen = tap_rng_u64() % sizeof ctx;
            tap_rng_bytes(ctx, clen);
            dlen = dom2(dom, t % 2, ctx, clen);
        }
        const cs_c25519_impl *two[2] = {ref, im};
        for (unsigned i = 0; i < 2; i++) {
            two[i]->ed25519_pubkey(pk[i], sk);
            two[i]->ed25519_sign(sig[i], dom, dlen, msg, mlen, sk, pk[0]);
        }
        int ok = !memcmp(pk[0], pk[1], 32) && !memcmp(sig[0], sig[1], 64);
        ok &= im->ed25519_verify(sig[0], dom, dlen, msg, mlen, pk[0]) == 1;
        sig[0][tap_rng_u64() % 64] ^= (uint8_t)(1u << (t % 8));
        ok &= im->ed25519_verify(sig[0], dom, dlen, msg, mlen, pk[0]) ==
              ref->ed25519_verify(sig[0], dom, dlen, msg, mlen, pk[0]);
        bad += !ok;
    }
    tap_ok(bad == 0, "%s: 300 random keys and messages as %s (%u differ)", im->name, ref->name,
           bad);
}

int main(void)
{
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(8032);
    sha512_vectors();
    scalars();
#ifdef __SIZEOF_INT128__
    tables();
#endif
    if (!cs_c25519_impls[0]) {
        tap_skip("c25519: no implementation built for this target");
        return tap_done();
    }
    vec_wyc w;
    int have_vectors = vec_wyc_open(&w, "wycheproof/ed25519_test.json") == 0;
    tap_ok(have_vectors, "read and parse wycheproof/ed25519_test.json");
    for (const cs_c25519_impl *const *i = cs_c25519_impls; *i; i++) {
        const cs_c25519_impl *im = *i;
        if (!c25519_runs(im, have, 1))
            continue;
        rfc_vectors(im);
        if (have_vectors)
            wycheproof(im, &w);
        base_vs_ladder(im);
#ifdef __SIZEOF_INT128__
        against(im, &cs_c25519_portable);
#endif
    }
    vec_wyc_close(&w);
    return tap_done();
}
