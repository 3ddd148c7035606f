/* Template (curve_impl.h): the Edwards group of edwards25519 over the
 * including source's field (its `fe` and fe_* functions), and with it
 * static c25519_x25519_base, the Ed25519 entries and CS_ED25519_ENTRIES
 * (the table's pubkey, sign, verify).
 *
 * Points: extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z, xy = T/Z, with
 * the complete a = -1 formulas of Hisil, Wong, Carter, Dawson (2008), so no
 * input needs a special case. The fixed-base multiplication (key
 * generation, public keys, signing) reads the neutral table of
 * ed25519_table.h with a constant-time scan; verification alone uses a
 * variable-time double-scalar multiplication (every input public).
 * Hashing: sha512.h; scalars mod L: scalar25519.h. */
#ifndef CRYPTOSHIM_C25519_ED25519_OPS_H
#define CRYPTOSHIM_C25519_ED25519_OPS_H

#include <string.h>

#include "../ct.h"
#include "ed25519_table.h"
#include "scalar25519.h"
#include "sha512.h"

/* ---- Field helpers over the field header's contract ------------------ */

/* d = -121665/121666, 2d and sqrt(-1) mod p, canonical little-endian. */
static const uint8_t ed_d_bytes[32] = {
    0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
    0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52};
static const uint8_t ed_d2_bytes[32] = {
    0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00,
    0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24};
static const uint8_t ed_sqrtm1_bytes[32] = {
    0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
    0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b};

/* h = z^((p - 5)/8) = z^(2^252 - 3), for the square root in ed_decode:
 * the inversion's chain (x25519_ladder.h) up to 2^250 - 1, then
 * z^(4 (2^250 - 1) + 1). */
static void ed_fe_pow22523(fe *h, const fe *z)
{
    fe t, z11;
    c25519_fe_pow_2_250_1(&t, &z11, z);
    c25519_fe_sqn(&t, &t, 2);
    fe_mul(h, &t, z); /* 2^252 - 3 */
}

/* h = 1/z (0 for z = 0): the divsteps inversion of modinv.h on the
 * canonical encoding where the target has it (about 60% of the Fermat
 * chain's time), else the chain. Constant time. */
static void ed_fe_invert(fe *h, const fe *z)
{
#ifdef __SIZEOF_INT128__
    uint8_t b[32];
    fe_tobytes(b, z);
    c25519_inv_bytes(b, b);
    fe_frombytes(h, b);
    cs_wipe(b, sizeof(b));
#else
    c25519_fe_invert(h, z);
#endif
}

/* ---- Points ---------------------------------------------------------- */

typedef struct {
    fe X, Y, Z, T;
} ed_p3; /* extended */

typedef struct {
    fe X, Y, Z;
} ed_p2; /* projective: x = X/Z, y = Y/Z */

/* A sum or double before its last products ("completed"):
 * X = E*F, Y = G*H, Z = F*G, T = E*H. */
typedef struct {
    fe E, F, G, H;
} ed_p1;

typedef struct {
    fe ypx, ymx, xy2d;
} ed_niels; /* affine: y + x, y - x, 2d*x*y */

/* extended, ready to add: Y + X, Y - X, 2d*T in the affine form's
 * places, then Z */
typedef struct {
    ed_niels n;
    fe Z;
} ed_cached;

/* The C group law below serves whichever of the fixed base and the
 * double-scalar multiplication the field header leaves to C. */
#if !defined(FE_HAVE_BASE_MUL) || !defined(FE_HAVE_DOUBLE_MUL)
#define ED_C_GROUP_LAW 1

static void ed_p1_to_p3(ed_p3 *r, const ed_p1 *p)
{
    fe_mul(&r->X, &p->E, &p->F);
    fe_mul(&r->Y, &p->G, &p->H);
    fe_mul(&r->Z, &p->F, &p->G);
    fe_mul(&r->T, &p->E, &p->H);
}

static void ed_p1_to_p2(ed_p2 *r, const ed_p1 *p)
{
    fe_mul(&r->X, &p->E, &p->F);
    fe_mul(&r->Y, &p->G, &p->H);
    fe_mul(&r->Z, &p->F, &p->G);
}

/* r = 2p (dbl-2008-hwcd, a = -1), with F and H negated: that leaves
 * X, Y, Z, T all negated, the same point, and saves two negations. */
static void ed_dbl(ed_p1 *r, const fe *X, const fe *Y, const fe *Z)
{
    fe a, b, c;
    fe_sq(&a, X);
    fe_sq(&b, Y);
    fe_sq(&c, Z);
    fe_add(&c, &c, &c);
    fe_add(&r->H, &a, &b);    /* -H = X^2 + Y^2 */
    fe_add(&r->E, X, Y);
    fe_sq(&r->E, &r->E);
    fe_sub(&r->E, &r->E, &r->H);  /* E = 2XY */
    fe_sub(&r->G, &b, &a);        /* G = Y^2 - X^2 */
    fe_sub(&r->F, &c, &r->G);     /* -F = 2Z^2 - G */
}

/* r = p + q (sub = 0) or p - q (sub = 1) for q = (y + x, y - x, 2d*t)
 * with z: madd-2008-hwcd when qz is NULL (affine q, z = 1), else
 * add-2008-hwcd-3. sub and qz are public (constants where it is inlined). */
static inline __attribute__((always_inline)) void ed_add_q(ed_p1 *r, const ed_p3 *p,
                                                           const ed_niels *q, const fe *qz,
                                                           int sub)
{
    fe a, b, c, dd;
    fe_sub(&a, &p->Y, &p->X);
    fe_add(&b, &p->Y, &p->X);
    fe_mul(&a, &a, sub ? &q->ypx : &q->ymx);
    fe_mul(&b, &b, sub ? &q->ymx : &q->ypx);
    fe_mul(&c, &p->T, &q->xy2d);
    if (qz) {
        fe_mul(&dd, &p->Z, qz);
        fe_add(&dd, &dd, &dd);
    } else {
        fe_add(&dd, &p->Z, &p->Z);
    }
    fe_sub(&r->E, &b, &a);
    fe_add(&r->H, &b, &a);
    if (sub) {
        fe_add(&r->F, &dd, &c);
        fe_sub(&r->G, &dd, &c);
    } else {
        fe_sub(&r->F, &dd, &c);
        fe_add(&r->G, &dd, &c);
    }
}

/* r = p + q (sub = 0) or p - q (sub = 1) for an affine q; sub is public. */
static void ed_madd(ed_p1 *r, const ed_p3 *p, const ed_niels *q, int sub)
{
    ed_add_q(r, p, q, NULL, sub);
}

/* r = p + q (sub = 0) or p - q (sub = 1), q cached; sub is public. */
static void ed_add(ed_p1 *r, const ed_p3 *p, const ed_cached *q, int sub)
{
    ed_add_q(r, p, &q->n, &q->Z, sub);
}

static void ed_to_cached(ed_cached *r, const ed_p3 *p, const fe *d2)
{
    fe_add(&r->n.ypx, &p->Y, &p->X);
    fe_sub(&r->n.ymx, &p->Y, &p->X);
    fe_copy(&r->Z, &p->Z);
    fe_mul(&r->n.xy2d, &p->T, d2);
}

#endif /* ED_C_GROUP_LAW */

/* The encoding of (X/Z, Y/Z): y with x's sign in the top bit. */
static void ed_encode(uint8_t s[32], const fe *X, const fe *Y, const fe *Z)
{
    fe zi, x, y;
    ed_fe_invert(&zi, Z);
    fe_mul(&x, X, &zi);
    fe_mul(&y, Y, &zi);
    fe_tobytes(s, &y);
    s[31] ^= (uint8_t)(fe_isnegative(&x) << 7);
}

#ifdef ED_C_GROUP_LAW
/* Converts a neutral table entry (ed25519_table.h) to the field's form. */
static void ed_niels_load(ed_niels *r, const uint8_t b[CS_ED25519_NIELS_BYTES])
{
    fe_frombytes(&r->ypx, b);
    fe_frombytes(&r->ymx, b + 32);
    fe_frombytes(&r->xy2d, b + 64);
}
#endif

/* Stack zeroed after the secret work (cs_wipe_stack): at least the deepest
 * callee chain of pubkey, sign and x25519_base, 1.3-1.9 KB measured on
 * x86-64 for the portable and x86_64-adx tables (stack painted, gcc 12 -O2). */
#define ED_WIPE_STACK 2048

/* ---- Fixed-base multiplication (constant time) ----------------------- */

#ifndef FE_HAVE_BASE_MUL /* the C path of ed_base_mul (fe_base_mul has its own) */
/* h = the neutral point (0, 1) in extended coordinates. */
static void ed_p3_0(ed_p3 *h)
{
    fe_0(&h->X);
    fe_1(&h->Y);
    fe_1(&h->Z);
    fe_0(&h->T);
}

/* 16 bytes as two words, for the select below: GCC's generic vectors are
 * SSE2 on x86-64 and plain word pairs elsewhere. */
typedef uint64_t ed_v2 __attribute__((vector_size(16)));

/* t = v * 256^pos * B for a secret digit v in [-8, 8]: all 8 entries of
 * the position are read and the right one kept by masks (the accumulators
 * stay in registers), then negated (swap y+x and y-x, negate 2dxy) under
 * a mask when v < 0. buf (96 bytes, 16-aligned) receives the selected
 * entry; the caller wipes it once at the end. Inlined so that nothing
 * secret is left in a frame of its own. */
static inline __attribute__((always_inline)) void ed_comb_select(ed_niels *t, uint8_t *buf,
                                                                 unsigned pos, int8_t v)
{
    uint64_t neg = (uint64_t)(uint8_t)v >> 7;
    uint64_t mag = (uint64_t)(uint8_t)(v ^ (uint8_t)(0 - neg)) + neg; /* |v| */
    /* (1, 1, 0): the neutral point, the entry for v = 0 */
    ed_v2 a0 = {1, 0}, a1 = {0, 0}, a2 = {1, 0}, a3 = {0, 0}, a4 = {0, 0}, a5 = {0, 0};
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    a0[0] = a2[0] = (uint64_t)1 << 56; /* the byte 1 first in memory */
#endif
    for (unsigned j = 0; j < 8; j++) {
        uint64_t m1 = cs_ct_eq_mask(mag, j + 1);
        ed_v2 m = {m1, m1}, e[6];
        memcpy(e, cs_ed25519_comb[pos][j], sizeof(e));
        a0 ^= (a0 ^ e[0]) & m;
        a1 ^= (a1 ^ e[1]) & m;
        a2 ^= (a2 ^ e[2]) & m;
        a3 ^= (a3 ^ e[3]) & m;
        a4 ^= (a4 ^ e[4]) & m;
        a5 ^= (a5 ^ e[5]) & m;
    }
    memcpy(buf, &a0, 16);
    memcpy(buf + 16, &a1, 16);
    memcpy(buf + 32, &a2, 16);
    memcpy(buf + 48, &a3, 16);
    memcpy(buf + 64, &a4, 16);
    memcpy(buf + 80, &a5, 16);
    ed_niels_load(t, buf);
    fe minus;
    fe_neg(&minus, &t->xy2d);
    fe_cswap(&t->ypx, &t->ymx, (unsigned)neg);
    fe_cmov(&t->xy2d, &minus, (unsigned)neg);
}
#endif /* !FE_HAVE_BASE_MUL */

/* h = a * B for a 32-byte scalar a < 2^255 (a clamped or reduced scalar),
 * constant time in a: 64 signed radix-16 digits, the odd ones summed from
 * the table, multiplied by 16, then the even ones added; all of it by the
 * field header's fe_base_mul(X, Y, Z, T, a, comb, comb16) where it defines
 * FE_HAVE_BASE_MUL (with the second table, 16 times the first, it needs no
 * doubling). */
static void ed_base_mul(ed_p3 *h, const uint8_t a[32])
{
#ifdef FE_HAVE_BASE_MUL
    fe_base_mul(&h->X, &h->Y, &h->Z, &h->T, a, cs_ed25519_comb, cs_ed25519_comb16);
#else
    int8_t e[64];
    int8_t carry = 0;
    uint8_t buf[CS_ED25519_NIELS_BYTES] __attribute__((aligned(16)));
    ed_niels t;
    ed_p1 r;
    ed_p2 s;
    for (unsigned i = 0; i < 32; i++) {
        e[2 * i] = (int8_t)(a[i] & 15);
        e[2 * i + 1] = (int8_t)(a[i] >> 4);
    }
    /* digits to [-8, 8): the top one ends at most 8 since a < 2^255 */
    for (unsigned i = 0; i < 63; i++) {
        e[i] = (int8_t)(e[i] + carry);
        carry = (int8_t)((e[i] + 8) >> 4);
        e[i] = (int8_t)(e[i] - carry * 16);
    }
    e[63] = (int8_t)(e[63] + carry);

    ed_p3_0(h);
    for (unsigned i = 1; i < 64; i += 2) {
        ed_comb_select(&t, buf, i / 2, e[i]);
        ed_madd(&r, h, &t, 0);
        ed_p1_to_p3(h, &r);
    }
    ed_dbl(&r, &h->X, &h->Y, &h->Z);
    ed_p1_to_p2(&s, &r);
    ed_dbl(&r, &s.X, &s.Y, &s.Z);
    ed_p1_to_p2(&s, &r);
    ed_dbl(&r, &s.X, &s.Y, &s.Z);
    ed_p1_to_p2(&s, &r);
    ed_dbl(&r, &s.X, &s.Y, &s.Z);
    ed_p1_to_p3(h, &r);
    for (unsigned i = 0; i < 64; i += 2) {
        ed_comb_select(&t, buf, i / 2, e[i]);
        ed_madd(&r, h, &t, 0);
        ed_p1_to_p3(h, &r);
    }
    cs_wipe(e, sizeof(e));
    cs_wipe(buf, sizeof(buf));
    cs_wipe(&t, sizeof(t));
    cs_wipe(&r, sizeof(r));
    cs_wipe(&s, sizeof(s));
#endif
}

/* out = X25519(scalar, 9): the clamped scalar times the Edwards base
 * point, then u = (1 + y)/(1 - y) = (Z + Y)/(Z - Y), as OpenSSL's
 * ossl_x25519_public_from_private computes it (a clamped scalar is never
 * a multiple of the order, so Z - Y is never 0). */
static void c25519_x25519_base(uint8_t out[32], const uint8_t scalar[32])
{
    uint8_t e[32];
    ed_p3 A;
    fe n, dn;
    memcpy(e, scalar, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
    ed_base_mul(&A, e);
    fe_add(&n, &A.Z, &A.Y);
    fe_sub(&dn, &A.Z, &A.Y);
    ed_fe_invert(&dn, &dn);
    fe_mul(&n, &n, &dn);
    fe_tobytes(out, &n);
    cs_wipe(e, sizeof(e));
    cs_wipe(&A, sizeof(A));
    cs_wipe(&n, sizeof(n));
    cs_wipe(&dn, sizeof(dn));
    cs_wipe_stack(ED_WIPE_STACK);
}

/* ---- Ed25519 (RFC 8032 5.1) ------------------------------------------ */

/* az = SHA-512(sk) with its first half clamped into the secret scalar. */
static void ed_expand(uint8_t az[64], const uint8_t sk[32])
{
    cs_sha512(az, sk, 32);
    az[0] &= 248;
    az[31] &= 63;
    az[31] |= 64;
}

static void c25519_ed25519_pubkey(uint8_t pk[32], const uint8_t sk[32])
{
    uint8_t az[64];
    ed_p3 A;
    ed_expand(az, sk);
    ed_base_mul(&A, az);
    ed_encode(pk, &A.X, &A.Y, &A.Z);
    cs_wipe(az, sizeof(az));
    cs_wipe(&A, sizeof(A));
    cs_wipe_stack(ED_WIPE_STACK);
}

/* out = SHA-512(dom || a || b || msg) reduced mod L. */
static void ed_hash_reduce(uint8_t out[32], const uint8_t *dom, size_t domlen, const uint8_t *a,
                           size_t alen, const uint8_t *b, size_t blen, const uint8_t *msg,
                           size_t msglen)
{
    cs_sha512_ctx c;
    uint8_t h[64];
    cs_sha512_init(&c);
    cs_sha512_update(&c, dom, domlen);
    cs_sha512_update(&c, a, alen);
    cs_sha512_update(&c, b, blen);
    cs_sha512_update(&c, msg, msglen);
    cs_sha512_final(&c, h);
    cs_sc25519_reduce64(out, h);
    cs_wipe(h, sizeof(h));
}

static void c25519_ed25519_sign(uint8_t sig[64], const uint8_t *dom, size_t domlen,
                                const uint8_t *msg, size_t msglen, const uint8_t sk[32],
                                const uint8_t pk[32])
{
    uint8_t az[64], r[32], k[32];
    ed_p3 R;
    ed_expand(az, sk);
    ed_hash_reduce(r, dom, domlen, az + 32, 32, NULL, 0, msg, msglen);
    ed_base_mul(&R, r);
    /* R is the public half of the signature from here on */
    ed_encode(sig, &R.X, &R.Y, &R.Z);
    CS_DECLASSIFY(sig, 32);
    ed_hash_reduce(k, dom, domlen, sig, 32, pk, 32, msg, msglen);
    cs_sc25519_muladd(sig + 32, k, az, r);
    cs_wipe(az, sizeof(az));
    cs_wipe(r, sizeof(r));
    cs_wipe(&R, sizeof(R));
    cs_wipe_stack(ED_WIPE_STACK);
}

/* ---- Verification (variable time: every input is public) ------------- */

/* Decodes pk as OpenSSL's ge_frombytes_vartime does: y from the low 255
 * bits (values >= p taken mod p), x the square root of
 * (y^2 - 1)/(d y^2 + 1) whose parity is the top bit (x = 0 whatever the
 * bit); 0 when there is no root. */
static int ed_decode(ed_p3 *h, const uint8_t s[32])
{
    fe u, v, w, vxx, chk, d;
    fe_frombytes(&d, ed_d_bytes);
    fe_frombytes(&h->Y, s);
    fe_1(&h->Z);
    fe_sq(&u, &h->Y);
    fe_mul(&v, &u, &d);
    fe_sub(&u, &u, &h->Z);      /* y^2 - 1 */
    fe_add(&v, &v, &h->Z);      /* d y^2 + 1, never 0 (d is not a square) */
    /* x = u (uv)^((p - 5)/8): then v x^2 = u (uv)^((p - 1)/4), which is
     * u, -u (fixed by sqrt(-1)), or else u/v has no square root */
    fe_mul(&w, &u, &v);
    ed_fe_pow22523(&h->X, &w);
    fe_mul(&h->X, &h->X, &u);
    fe_sq(&vxx, &h->X);
    fe_mul(&vxx, &vxx, &v);
    fe_sub(&chk, &u, &vxx);
    if (!fe_iszero(&chk)) {
        fe_add(&chk, &vxx, &u);
        if (!fe_iszero(&chk))
            return 0;
        fe_frombytes(&w, ed_sqrtm1_bytes);
        fe_mul(&h->X, &h->X, &w);
    }
    if (fe_isnegative(&h->X) != (s[31] >> 7))
        fe_neg(&h->X, &h->X);
    fe_mul(&h->T, &h->X, &h->Y);
    return 1;
}

/* Width-w non-adjacent form of s < 2^253: r[i] odd in (-2^(w-1), 2^(w-1))
 * or 0, no two nonzero digits within w positions; s = sum r[i] 2^i. */
static void ed_wnaf(int8_t r[256], const uint8_t s[32], unsigned w)
{
    uint64_t x[5] = {0};
    uint64_t width = 1u << w, half = width >> 1;
    unsigned carry = 0, pos = 0;
    for (unsigned i = 0; i < 32; i++)
        x[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
    memset(r, 0, 256);
    while (pos < 256) {
        unsigned idx = pos / 64, bit = pos % 64;
        uint64_t buf = x[idx] >> bit;
        if (bit + w > 64)
            buf |= x[idx + 1] << (64 - bit);
        uint64_t win = carry + (buf & (width - 1));
        if ((win & 1) == 0) {
            pos++;
            continue;
        }
        if (win < half) {
            carry = 0;
            r[pos] = (int8_t)win;
        } else {
            carry = 1;
            r[pos] = (int8_t)((int64_t)win - (int64_t)width);
        }
        pos += w;
    }
}

/* r = a*A + b*B, variable time (public a, A, b). A field header may do
 * the whole multiplication from the digits (FE_HAVE_DOUBLE_MUL:
 * fe_double_mul(X, Y, Z, na, A's X, Y, Z, T, nb), with this function's
 * digits and tables). */
static void ed_double_mul_vartime(ed_p2 *r, const uint8_t a[32], const ed_p3 *A,
                                  const uint8_t b[32])
{
    int8_t na[256], nb[256];
#ifdef FE_HAVE_DOUBLE_MUL
    ed_wnaf(na, a, 5);
    ed_wnaf(nb, b, 8);
    fe_double_mul(&r->X, &r->Y, &r->Z, na, &A->X, &A->Y, &A->Z, &A->T, nb);
#else
    ed_cached Ai[8]; /* A, 3A, ..., 15A */
    ed_p3 t, A2;
    ed_p1 s;
    ed_niels q;
    fe d2;
    int i;
    fe_frombytes(&d2, ed_d2_bytes);
    ed_wnaf(na, a, 5);
    ed_wnaf(nb, b, 8);
    ed_to_cached(&Ai[0], A, &d2);
    ed_dbl(&s, &A->X, &A->Y, &A->Z);
    ed_p1_to_p3(&A2, &s);
    for (unsigned k = 1; k < 8; k++) {
        ed_add(&s, &A2, &Ai[k - 1], 0);
        ed_p1_to_p3(&t, &s);
        ed_to_cached(&Ai[k], &t, &d2);
    }
    fe_0(&r->X);
    fe_1(&r->Y);
    fe_1(&r->Z);
    for (i = 255; i >= 0 && !na[i] && !nb[i]; i--)
        ;
    for (; i >= 0; i--) {
        ed_dbl(&s, &r->X, &r->Y, &r->Z);
        if (na[i]) {
            ed_p1_to_p3(&t, &s);
            ed_add(&s, &t, &Ai[(na[i] < 0 ? -na[i] : na[i]) / 2], na[i] < 0);
        }
        if (nb[i]) {
            ed_p1_to_p3(&t, &s);
            ed_niels_load(&q, cs_ed25519_odd[(nb[i] < 0 ? -nb[i] : nb[i]) / 2]);
            ed_madd(&s, &t, &q, nb[i] < 0);
        }
        ed_p1_to_p2(r, &s);
    }
#endif
}

static int c25519_ed25519_verify(const uint8_t sig[64], const uint8_t *dom, size_t domlen,
                                 const uint8_t *msg, size_t msglen, const uint8_t pk[32])
{
    ed_p3 A;
    ed_p2 R;
    uint8_t k[32], rcheck[32];
    if (!cs_sc25519_is_canonical(sig + 32))
        return 0;
    if (!ed_decode(&A, pk))
        return 0;
    fe_neg(&A.X, &A.X);
    fe_neg(&A.T, &A.T);
    ed_hash_reduce(k, dom, domlen, sig, 32, pk, 32, msg, msglen);
    /* R' = S B - k A, compared with R as encoded bytes (a non-canonical R
     * never matches) */
    ed_double_mul_vartime(&R, k, &A, sig + 32);
    ed_encode(rcheck, &R.X, &R.Y, &R.Z);
    return memcmp(rcheck, sig, 32) == 0;
}

#define CS_ED25519_ENTRIES c25519_ed25519_pubkey, c25519_ed25519_sign, c25519_ed25519_verify

#endif
