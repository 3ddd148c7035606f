/* Differential fuzz target: the interposed BN_mod_exp2_mont (DSA
 * verification; cs_modexp2_entry) against libcrypto's own function, with the
 * kernel the input picks forced (or the built-in policy). Same return, same
 * error code, same result.
 * Input: kernel, flags, modulus length (2 bytes), exponent lengths (2 bytes
 * each), base-1 length (2 bytes), then modulus, p1, p2, a1 bytes, and a2
 * from what is left. */
#include "fuzz_bn.h"

/* flags: BN_FLG_CONSTTIME on a1/p1/a2/p2/m (bits 0-4, each passes the call
 * through), rr aliases a1 (bit 5) or p2 (bit 6), the caller's BN_MONT_CTX
 * (bit 7). flags2: a1/a2/m negative (bits 0-2). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bn_init();
    fuzz_in in = {data, size};
    const char *kname = fuzz_force(fuzz_byte(&in));
    unsigned flags = fuzz_byte(&in), flags2 = fuzz_byte(&in);
    size_t mlen = fuzz_len(&in, CS_BN_MAX_BITS / 16 + 16); /* DSA sizes: up to 4096 bits */
    size_t pcap = mlen > 256 ? 32 : mlen + 16;
    size_t p1len = fuzz_exp_len(&in, mlen, pcap), p2len = fuzz_exp_len(&in, mlen, pcap);
    size_t a1len = fuzz_u16(&in) % (mlen + 17);
    BIGNUM *m = fuzz_bn(&in, mlen), *p1 = fuzz_bn(&in, p1len), *p2 = fuzz_bn(&in, p2len);
    BIGNUM *a1 = fuzz_bn(&in, a1len), *a2 = fuzz_bn(&in, in.left);
    BIGNUM *want = BN_new(), *got = BN_new();
    BIGNUM *args[5] = {a1, p1, a2, p2, m};
    for (int i = 0; i < 5; i++)
        if (flags & (1u << i))
            BN_set_flags(args[i], BN_FLG_CONSTTIME);
    if (flags2 & 1)
        BN_set_negative(a1, 1);
    if (flags2 & 2)
        BN_set_negative(a2, 1);
    if (flags2 & 4)
        BN_set_negative(m, 1);
    BN_MONT_CTX *mont = NULL;
    if ((flags & 128) && BN_is_odd(m) && !BN_is_negative(m)) {
        mont = BN_MONT_CTX_new();
        if (!BN_MONT_CTX_set(mont, m, fuzz_ctx))
            abort();
    }

    ERR_clear_error();
    int rw = BN_mod_exp2_mont(want, a1, p1, a2, p2, m, fuzz_ctx, mont);
    unsigned long ew = fuzz_take_error();
    const BIGNUM *ga1 = a1, *gp2 = p2;
    if (flags & 32) {
        if (!BN_copy(got, a1))
            abort();
        BN_set_flags(got, BN_get_flags(a1, BN_FLG_CONSTTIME));
        ga1 = got;
    } else if (flags & 64) {
        if (!BN_copy(got, p2))
            abort();
        BN_set_flags(got, BN_get_flags(p2, BN_FLG_CONSTTIME));
        gp2 = got;
    }
    int rg = cs_modexp2_entry(&fuzz_api, got, ga1, p1, a2, gp2, m, fuzz_ctx, mont);
    unsigned long eg = fuzz_take_error();

    FUZZ_CHECK(rw == rg, kname, "return value");
    FUZZ_CHECK(ew == eg, kname, "error queue");
    FUZZ_CHECK(!rw || BN_cmp(want, got) == 0, kname, "result");
    BN_free(a1), BN_free(p1), BN_free(a2), BN_free(p2), BN_free(m);
    BN_free(want), BN_free(got);
    BN_MONT_CTX_free(mont);
    return 0;
}
