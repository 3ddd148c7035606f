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
    fuzz_mark(flags, (BIGNUM *[]){a1, p1, a2, p2, m}, 5, 1);
    fuzz_mark(flags2, (BIGNUM *[]){a1, a2, m}, 3, 0);
    BN_MONT_CTX *mont = fuzz_mont(flags & 128, m);

    ERR_clear_error();
    int rw = BN_mod_exp2_mont(want, a1, p1, a2, p2, m, fuzz_ctx, mont);
    unsigned long ew = fuzz_take_error();
    const BIGNUM *ga1 = flags & 32 ? fuzz_alias(got, a1) : a1;
    const BIGNUM *gp2 = !(flags & 32) && (flags & 64) ? fuzz_alias(got, p2) : p2;
    int rg = cs_modexp2_entry(&fuzz_api, got, ga1, p1, a2, gp2, m, fuzz_ctx, mont);
    unsigned long eg = fuzz_take_error();
    fuzz_agree(kname, rw, rg, ew, eg, BN_cmp(want, got) == 0, "result");
    BN_free(a1), BN_free(p1), BN_free(a2), BN_free(p2), BN_free(m);
    BN_free(want), BN_free(got);
    BN_MONT_CTX_free(mont);
    return 0;
}
