/* Differential fuzz target: the interposed BN_mod_exp_mont_consttime_x2
 * (cs_modexp_x2_entry, RSA's paired CRT halves) against libcrypto's own
 * function, with the kernel the input picks forced (or the built-in policy).
 * Same return, same error code, same two results.
 * Input: kernel (bit 7 set: one of the kernels with a paired exp_x2, found
 * at run time, so new paired kernels are fuzzed as they land), flags, then
 * per half: modulus length (2 bytes; in size-class mode one byte naming
 * 1024, 1536 or 2048 bits and a small offset, the sizes the paired kernels
 * serve), exponent length (2 bytes), then modulus, exponent and base bytes
 * of half 1, then of half 2 (base 2 takes what is left). */
#include "fuzz_bn.h"

/* One half's operands, with BN_FLG_CONSTTIME on the exponent as RSA sets it. */
struct half {
    BIGNUM *a, *p, *m;
    BN_MONT_CTX *mont;
};

/* Size-class mode: a modulus of RSA-2048/3072/4096's half sizes, a few bits
 * off them, or (bit 6 of the class byte) anything within 256 bits of them,
 * where the paired kernels' ranges end (each serves digit counts of its
 * own: 987..1038, 1455..1662, 1871..2078 bits for IFMA, 999..1048 for
 * FMA today), read from two more bytes. Odd unless bit 7 says otherwise.
 * Returns the bit count. */
static unsigned class_bits(fuzz_in *in, unsigned c)
{
    static const unsigned sizes[3] = {1024, 1536, 2048};
    static const int offsets[8] = {0, -1, 1, -8, 8, -31, -52, 0};
    int off = c & 0x40 ? (int)(fuzz_u16(in) % 513) - 256 : offsets[(c >> 2) & 7];
    return (unsigned)((int)sizes[c % 3] + off);
}

/* Reads one half; `last` gives the base every remaining byte. `mont_bit`
 * set: the caller's BN_MONT_CTX for an odd positive modulus. `*bits`
 * nonzero: size-class mode, a modulus of that many bits (0: this half
 * reads its class and sets *bits). */
static void read_half(fuzz_in *in, struct half *h, int last, int mont_bit, int neg_a,
                      int size_class, unsigned *bits)
{
    unsigned c = 0;
    size_t mlen;
    if (size_class) {
        c = fuzz_byte(in);
        if (!*bits)
            *bits = class_bits(in, c);
        mlen = (*bits + 7) / 8;
    } else {
        mlen = fuzz_len(in, CS_BN_MAX_BITS / 16 + 8); /* CRT halves: up to 4096 bits */
    }
    size_t plen = fuzz_exp_len(in, mlen, size_class ? mlen / 2
                                         : mlen > 256 ? 16 : mlen > 128 ? 64 : mlen + 16);
    h->m = fuzz_bn(in, mlen);
    if (size_class) {
        BN_mask_bits(h->m, (int)*bits);
        if (!BN_set_bit(h->m, (int)*bits - 1) || (!(c & 0x80) && !BN_set_bit(h->m, 0)))
            abort();
    }
    h->p = fuzz_bn(in, plen);
    h->a = fuzz_bn(in, last ? in->left : (in->left ? fuzz_byte(in) % (mlen + 9) : 0));
    BN_set_flags(h->p, BN_FLG_CONSTTIME);
    if (neg_a)
        BN_set_negative(h->a, 1);
    h->mont = fuzz_mont(mont_bit, h->m);
}

/* Frees one half's operands. */
static void free_half(struct half *h)
{
    BN_free(h->a), BN_free(h->p), BN_free(h->m);
    BN_MONT_CTX_free(h->mont);
}

/* flags: caller's BN_MONT_CTX for half 1/2 (bits 0-1), rr1 aliases a1 (bit
 * 2), rr2 aliases a2 (bit 3), half 2 the same modulus as half 1 (bit 4), a1/a2
 * negative (bits 5-6), size-class mode (bit 7: both halves of one class). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bn_init();
    fuzz_in in = {data, size};
    unsigned pick = fuzz_byte(&in);
    const char *kname = fuzz_force(pick & 0x80 && fuzz_nx2
                                       ? fuzz_x2_slots[(pick & 0x7f) % fuzz_nx2] : pick);
    unsigned flags = fuzz_byte(&in), bits = 0;
    struct half h1, h2;
    read_half(&in, &h1, 0, flags & 1, flags & 32, flags & 128, &bits);
    read_half(&in, &h2, 1, flags & 2, flags & 64, flags & 128, &bits);
    if (flags & 16) { /* RSA-like: both halves of one size */
        BN_free(h2.m);
        h2.m = BN_dup(h1.m);
        BN_MONT_CTX_free(h2.mont);
        h2.mont = fuzz_mont(flags & 2, h2.m);
    }
    BIGNUM *w1 = BN_new(), *w2 = BN_new(), *g1 = BN_new(), *g2 = BN_new();

    ERR_clear_error();
    int rw = BN_mod_exp_mont_consttime_x2(w1, h1.a, h1.p, h1.m, h1.mont, w2, h2.a, h2.p, h2.m,
                                          h2.mont, fuzz_ctx);
    unsigned long ew = fuzz_take_error();
    const BIGNUM *b1 = flags & 4 ? fuzz_alias(g1, h1.a) : h1.a;
    const BIGNUM *b2 = flags & 8 ? fuzz_alias(g2, h2.a) : h2.a;
    int rg = cs_modexp_x2_entry(&fuzz_api, g1, b1, h1.p, h1.m, h1.mont, g2, b2, h2.p, h2.m,
                                h2.mont, fuzz_ctx);
    unsigned long eg = fuzz_take_error();
    fuzz_agree(kname, rw, rg, ew, eg, BN_cmp(w1, g1) == 0 && BN_cmp(w2, g2) == 0, "results");
    free_half(&h1), free_half(&h2);
    BN_free(w1), BN_free(w2), BN_free(g1), BN_free(g2);
    return 0;
}
