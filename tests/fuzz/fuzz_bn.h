/* Shared by the modular-exponentiation fuzz targets: reading operands from
 * the fuzz input, forcing the kernel the input picks (or the built-in policy)
 * through the shim's own controls, and stopping on any difference from
 * libcrypto. Header-only, like tests/unit/support/diff_common.h. */
#ifndef CRYPTOSHIM_FUZZ_BN_H
#define CRYPTOSHIM_FUZZ_BN_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "runtime/controls.h"
#include "runtime/dispatch.h"
#include "bn/modexp.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/unit/support/force_kernel.h"

/* A cursor over the fuzz input; reads past the end give zeros. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t left;
} fuzz_in;

static inline unsigned fuzz_byte(fuzz_in *in)
{
    if (!in->left)
        return 0;
    in->left--;
    return *in->p++;
}

static inline unsigned fuzz_u16(fuzz_in *in)
{
    unsigned hi = fuzz_byte(in);
    return hi << 8 | fuzz_byte(in);
}

/* A modulus length of up to `max` bytes from 2 input bytes, biased to the
 * small end where executions are cheap: half the values give 0..80 bytes
 * (below the kernels' 256-bit minimum, their minimum sizes, the vector
 * kernels' 512), a quarter up to max/8 (1024-bit specialisations), an eighth
 * up to max/4, an eighth the whole range. tests/fuzz/seeds.py inverts this. */
static inline size_t fuzz_len(fuzz_in *in, size_t max)
{
    unsigned v = fuzz_u16(in), c = v >> 13;
    size_t top = c < 4 ? (max < 80 ? max : 80) : c < 6 ? max / 8 : c < 7 ? max / 4 : max;
    return v % (top + 1);
}

/* An exponent length for a modulus of `mlen` bytes from 2 input bytes. Seven
 * values in eight keep mlen^2 * length under a fixed budget (an execution
 * costs about that): long exponents at small moduli (every window size),
 * 2-24 bytes at 1024-8192 bits. The rest take up to `cap` bytes, the
 * occasional long exponent at a big modulus. */
static inline size_t fuzz_exp_len(fuzz_in *in, size_t mlen, size_t cap)
{
    unsigned v = fuzz_u16(in);
    if ((v >> 13) != 7) {
        size_t m = mlen ? mlen : 1, budget = 64 * 64 * 96 / (m * m);
        cap = budget < 2 ? 2 : budget < cap ? budget : cap;
    }
    return v % (cap + 1);
}

/* A BIGNUM from the next min(len, what is left) bytes (big-endian). */
static inline BIGNUM *fuzz_bn(fuzz_in *in, size_t len)
{
    if (len > in->left)
        len = in->left;
    BIGNUM *x = BN_bin2bn(in->p, (int)len, NULL);
    in->p += len, in->left -= len;
    if (!x)
        abort();
    return x;
}

/* Kernels usable on this CPU, and the number of them; slot `count` means
 * "no kernel forced" (the built-in policy decides). */
static const cs_bn_kernel *fuzz_kernels[32];
static unsigned fuzz_nkernels;
/* Slots in fuzz_kernels of the usable kernels with a paired exp_x2. */
static unsigned fuzz_x2_slots[32];
static unsigned fuzz_nx2;
static int fuzz_forced = -2; /* slot last forced; -2: none yet */
static cs_ossl fuzz_api = {.version = "OPENSSL_3.0.0"};
static BN_CTX *fuzz_ctx;

/* One-time set-up: libcrypto's functions, the usable kernels, a BN_CTX. */
static inline void fuzz_bn_init(void)
{
    if (fuzz_ctx)
        return;
    if (!cs_ossl_resolve_from(&fuzz_api, RTLD_DEFAULT)) {
        fprintf(stderr, "libcrypto functions not resolved\n");
        abort();
    }
    cs_controls_load();
    for (const cs_bn_kernel *const *k = cs_bn_kernels; *k && fuzz_nkernels < 32; k++)
        if (cs_bn_kernel_usable(*k)) {
            if ((*k)->exp_x2)
                fuzz_x2_slots[fuzz_nx2++] = fuzz_nkernels;
            fuzz_kernels[fuzz_nkernels++] = *k;
        }
    fuzz_ctx = BN_CTX_new();
}

/* Forces the kernel in slot `pick` modulo (kernels + 1) as CRYPTOSHIM_KERNELS
 * would; the last slot unsets it. Re-reads the controls only on a change.
 * Returns the kernel's name ("policy" for the built-in policy). */
static inline const char *fuzz_force(unsigned pick)
{
    int slot = (int)(pick % (fuzz_nkernels + 1));
    const char *name = slot < (int)fuzz_nkernels ? fuzz_kernels[slot]->name : NULL;
    if (slot != fuzz_forced) {
        force_kernel(name);
        fuzz_forced = slot;
    }
    return name ? name : "policy";
}

/* The first error code on the queue (0 if empty), clearing the queue. */
static inline unsigned long fuzz_take_error(void)
{
    unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    return e;
}

/* Stops the run (a finding) with what differed, if `ok` is false. */
#define FUZZ_CHECK(ok, kernel, what) FUZZ_EXPECT(ok, what, "kernel %s", (kernel))

/* Sets BN_FLG_CONSTTIME (consttime) or the negative sign on each x[i] (n
 * of them) whose bit i is set in bits. */
static inline void fuzz_mark(unsigned bits, BIGNUM *const *x, int n, int consttime)
{
    for (int i = 0; i < n; i++)
        if (bits & (1u << i)) {
            if (consttime)
                BN_set_flags(x[i], BN_FLG_CONSTTIME);
            else
                BN_set_negative(x[i], 1);
        }
}

/* The caller's BN_MONT_CTX for m when asked (want) and m is odd and
 * positive, else NULL. */
static inline BN_MONT_CTX *fuzz_mont(int want, const BIGNUM *m)
{
    if (!want || !BN_is_odd(m) || BN_is_negative(m))
        return NULL;
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    if (!BN_MONT_CTX_set(mont, m, fuzz_ctx))
        abort();
    return mont;
}

/* r = a copy of x with its BN_FLG_CONSTTIME (an output that aliases an
 * input); returns r. */
static inline const BIGNUM *fuzz_alias(BIGNUM *r, const BIGNUM *x)
{
    if (!BN_copy(r, x))
        abort();
    BN_set_flags(r, BN_get_flags(x, BN_FLG_CONSTTIME));
    return r;
}

/* Stops the run unless the shim's call (return rg, error eg) and
 * libcrypto's (rw, ew) agree, and, where both succeeded, same_result
 * (what: the results' name). */
static inline void fuzz_agree(const char *kernel, int rw, int rg, unsigned long ew,
                              unsigned long eg, int same_result, const char *what)
{
    FUZZ_CHECK(rw == rg, kernel, "return value");
    FUZZ_CHECK(ew == eg, kernel, "error queue");
    FUZZ_CHECK(!rw || same_result, kernel, what);
}

#endif
