/* The field checks the Curve25519 kernel tests share (kernel_c25519 for
 * fe51, kernel_c25519_fe64 for fe64): a slow reference modulo
 * p = 2^255 - 19 over support/bn_ref.h and one pass of the field
 * operations on two values against it. A template: include it after the
 * field's header (fe, fe_mul, fe_sq, fe_add, fe_sub, fe_mul121666,
 * fe_tobytes, and c25519_fe_invert from x25519_ladder.h), bn_ref.h and
 * tap.h; the test defines ref_of (below). */
#ifndef CRYPTOSHIM_TEST_FE25519_REF_H
#define CRYPTOSHIM_TEST_FE25519_REF_H

#include <stdint.h>
#include <string.h>

/* The counters of fe_ref_check, one per kind of miss. */
enum { FE_BAD_MUL, FE_BAD_SQ, FE_BAD_ADD, FE_BAD_SUB, FE_BAD_MUL121666, FE_BAD_BYTES,
       FE_BAD_BOUNDS, FE_BAD_INVERT, FE_BAD_KINDS };

/* p = 2^255 - 19 in 32-bit digits. */
static const uint32_t P32[8] = {0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff,
                                0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff};

/* r (8 digits) = the value of f modulo p: the test's, for its field. */
static void ref_of(uint32_t r[8], const fe *f);

/* r = a*b mod p, 8-digit operands. */
static void p_mulmod(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t t[16];
    ref_mul(t, a, 8, b, 8);
    ref_mod(r, t, 16, P32, 8);
}

/* fe_mul, fe_sq, fe_add, fe_sub (undone by fe_add), fe_mul121666 and
 * fe_tobytes's digits on f and g against the reference, each output's
 * bound by bounded (whether it is a valid input again; NULL: not
 * checked), and with invert set c25519_fe_invert(f) * f (1, or 0 for
 * f = 0): each miss counted in bad[FE_BAD_*]. rf is set to the reference
 * value of f for the caller's own checks. */
static void fe_ref_check(unsigned bad[FE_BAD_KINDS], uint32_t rf[8], const fe *f, const fe *g,
                         int (*bounded)(const fe *), int invert)
{
    fe h;
    uint32_t rg[8], rh[8], want[8], tmp[9];
    ref_of(rf, f);
    ref_of(rg, g);
    fe_mul(&h, f, g);
    bad[FE_BAD_BOUNDS] += bounded && !bounded(&h);
    ref_of(rh, &h);
    p_mulmod(want, rf, rg);
    bad[FE_BAD_MUL] += memcmp(rh, want, 32) != 0;
    fe_sq(&h, f);
    bad[FE_BAD_BOUNDS] += bounded && !bounded(&h);
    ref_of(rh, &h);
    p_mulmod(want, rf, rf);
    bad[FE_BAD_SQ] += memcmp(rh, want, 32) != 0;
    fe_add(&h, f, g);
    bad[FE_BAD_BOUNDS] += bounded && !bounded(&h);
    ref_of(rh, &h);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) {
        c += (uint64_t)rf[i] + rg[i];
        tmp[i] = (uint32_t)c;
        c >>= 32;
    }
    tmp[8] = (uint32_t)c;
    ref_mod(want, tmp, 9, P32, 8);
    bad[FE_BAD_ADD] += memcmp(rh, want, 32) != 0;
    fe_sub(&h, f, g);
    bad[FE_BAD_BOUNDS] += bounded && !bounded(&h);
    fe_add(&h, &h, g);
    ref_of(rh, &h);
    bad[FE_BAD_SUB] += memcmp(rh, rf, 32) != 0;
    fe_mul121666(&h, f);
    bad[FE_BAD_BOUNDS] += bounded && !bounded(&h);
    ref_of(rh, &h);
    uint32_t k[8] = {121666};
    p_mulmod(want, rf, k);
    bad[FE_BAD_MUL121666] += memcmp(rh, want, 32) != 0;
    uint8_t s[32];
    fe_tobytes(s, f);
    for (int i = 0; i < 8; i++)
        bad[FE_BAD_BYTES] += (uint32_t)(s[4 * i] | s[4 * i + 1] << 8 | s[4 * i + 2] << 16 |
                                        (uint32_t)s[4 * i + 3] << 24) != rf[i];
    if (invert) {
        c25519_fe_invert(&h, f);
        fe_mul(&h, &h, f);
        int zero = 1;
        for (int i = 0; i < 8; i++)
            zero &= rf[i] == 0;
        fe_tobytes(s, &h);
        bad[FE_BAD_INVERT] += s[0] != !zero;
        for (int i = 1; i < 32; i++)
            bad[FE_BAD_INVERT] += s[i] != 0;
    }
}

/* One TAP line per kind of miss that what names (NULL: not checked):
 * "<field> <what> against the reference". */
static void fe_ref_report(const char *field, const unsigned bad[FE_BAD_KINDS],
                          const char *const what[FE_BAD_KINDS])
{
    for (int i = 0; i < FE_BAD_KINDS; i++)
        if (what[i])
            tap_ok(bad[i] == 0, "%s %s against the reference (%u differ)", field, what[i], bad[i]);
}

#endif
