/* A slow, independent big-number reference for the kernel tests: 32-bit
 * digits whatever the kernel's limb size, schoolbook products and Knuth's
 * long division, no Montgomery arithmetic. Numbers are little-endian digit
 * arrays of a stated length. Header-only so each test can include it. */
#ifndef CRYPTOSHIM_TEST_BN_REF_H
#define CRYPTOSHIM_TEST_BN_REF_H

#include <stdint.h>
#include <string.h>

#define REF_MAX 1024 /* digits: 32768 bits, enough for a product of two 8192-bit numbers and more */

/* Digits in use (index of the top non-zero digit + 1; 0 for zero). */
static size_t ref_len(const uint32_t *a, size_t n)
{
    while (n > 0 && a[n - 1] == 0)
        n--;
    return n;
}

/* -1, 0, 1 as a <, ==, > b (both n digits). */
static int ref_cmp(const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (a[i] != b[i])
            return a[i] > b[i] ? 1 : -1;
    return 0;
}

/* r = a*b (an and bn digits; r has an+bn digits and must not alias). */
static void ref_mul(uint32_t *r, const uint32_t *a, size_t an, const uint32_t *b, size_t bn)
{
    memset(r, 0, (an + bn) * sizeof(uint32_t));
    for (size_t i = 0; i < an; i++) {
        uint64_t c = 0;
        for (size_t j = 0; j < bn; j++) {
            c += (uint64_t)a[i] * b[j] + r[i + j];
            r[i + j] = (uint32_t)c;
            c >>= 32;
        }
        r[i + bn] = (uint32_t)c;
    }
}

/* r (vn digits) = u mod v, u of un digits, v of vn digits with v[vn-1] != 0
 * (Knuth, TAOCP vol. 2, 4.3.1, algorithm D; quotient digits discarded). */
static void ref_mod(uint32_t *r, const uint32_t *u, size_t un, const uint32_t *v, size_t vn)
{
    static uint32_t nu[REF_MAX + 1], nv[REF_MAX];
    if (un < vn) {
        memset(r, 0, vn * sizeof(uint32_t));
        memcpy(r, u, un * sizeof(uint32_t));
        return;
    }
    if (vn == 1) {
        uint64_t rem = 0;
        for (size_t i = un; i-- > 0;)
            rem = ((rem << 32) | u[i]) % v[0];
        r[0] = (uint32_t)rem;
        return;
    }
    unsigned s = (unsigned)__builtin_clz(v[vn - 1]);
    /* Normalise so the divisor's top bit is set. */
    for (size_t i = vn; i-- > 0;)
        nv[i] = (v[i] << s) | (s && i ? v[i - 1] >> (32 - s) : 0);
    nu[un] = s ? u[un - 1] >> (32 - s) : 0;
    for (size_t i = un; i-- > 0;)
        nu[i] = (u[i] << s) | (s && i ? u[i - 1] >> (32 - s) : 0);

    for (size_t j = un - vn + 1; j-- > 0;) {
        uint64_t num = ((uint64_t)nu[j + vn] << 32) | nu[j + vn - 1];
        uint64_t qhat = num / nv[vn - 1], rhat = num % nv[vn - 1];
        while (qhat >> 32 || qhat * nv[vn - 2] > ((rhat << 32) | nu[j + vn - 2])) {
            qhat--;
            rhat += nv[vn - 1];
            if (rhat >> 32)
                break;
        }
        /* nu[j..j+vn] -= qhat * nv, tracking the borrow separately. */
        uint64_t mulc = 0;
        uint32_t borrow = 0;
        for (size_t i = 0; i < vn; i++) {
            uint64_t p = qhat * nv[i] + mulc;
            mulc = p >> 32;
            uint64_t d = (uint64_t)nu[i + j] - (uint32_t)p - borrow;
            nu[i + j] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        }
        uint64_t d = (uint64_t)nu[j + vn] - mulc - borrow;
        nu[j + vn] = (uint32_t)d;
        if (d >> 63) { /* qhat was one too large: add the divisor back */
            uint64_t c = 0;
            for (size_t i = 0; i < vn; i++) {
                c += (uint64_t)nu[i + j] + nv[i];
                nu[i + j] = (uint32_t)c;
                c >>= 32;
            }
            nu[j + vn] += (uint32_t)c;
        }
    }
    for (size_t i = 0; i < vn; i++)
        r[i] = (nu[i] >> s) | (s ? nu[i + 1] << (32 - s) : 0);
}

/* r = a mod m by shifting and subtracting one bit at a time: slower still,
 * used only to check ref_mod. m has mn digits, m != 0. */
static void ref_mod_bitwise(uint32_t *r, const uint32_t *a, size_t an, const uint32_t *m, size_t mn)
{
    uint32_t x[REF_MAX + 1];
    memset(x, 0, sizeof(x[0]) * (mn + 1));
    for (size_t bit = an * 32; bit-- > 0;) {
        uint32_t c = 0;
        for (size_t i = 0; i <= mn; i++) {
            uint32_t t = x[i] >> 31;
            x[i] = (x[i] << 1) | c;
            c = t;
        }
        x[0] |= (a[bit / 32] >> (bit % 32)) & 1;
        uint32_t mm[REF_MAX + 1];
        memcpy(mm, m, mn * sizeof(uint32_t));
        mm[mn] = 0;
        if (ref_cmp(x, mm, mn + 1) >= 0) {
            uint64_t b = 0;
            for (size_t i = 0; i <= mn; i++) {
                uint64_t d = (uint64_t)x[i] - mm[i] - b;
                x[i] = (uint32_t)d;
                b = d >> 63;
            }
        }
    }
    memcpy(r, x, mn * sizeof(uint32_t));
}

/* r = a*b mod m (a, b, r of mn digits; m's top digit non-zero). */
static void ref_mulmod(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m, size_t mn)
{
    uint32_t t[2 * REF_MAX];
    ref_mul(t, a, mn, b, mn);
    ref_mod(r, t, 2 * mn, m, mn);
}

/* r = a^e mod m by plain left-to-right square and multiply; e has ebits bits. */
static void ref_expmod(uint32_t *r, const uint32_t *a, const uint32_t *e, size_t ebits,
                       const uint32_t *m, size_t mn)
{
    uint32_t acc[REF_MAX], one[1] = {1};
    ref_mod(acc, one, 1, m, mn); /* 1 mod m (0 when m = 1) */
    for (size_t i = ebits; i-- > 0;) {
        ref_mulmod(acc, acc, acc, m, mn);
        if ((e[i / 32] >> (i % 32)) & 1)
            ref_mulmod(acc, acc, a, m, mn);
    }
    memcpy(r, acc, mn * sizeof(uint32_t));
}

#endif
