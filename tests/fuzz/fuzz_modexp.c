/* Differential fuzz target: the interposed BN_mod_exp_mont and
 * BN_mod_exp_mont_consttime (through cs_modexp_entry, the body of both)
 * against libcrypto's own functions, with the kernel the input picks forced
 * (or the built-in policy). Same return, same error code, same result.
 * Input: kernel, flags, flags2, modulus length (2 bytes), exponent length
 * (2 bytes), then modulus, exponent and base bytes (big-endian). */
#include "fuzz_bn.h"

/* flags: BN_FLG_CONSTTIME on a/p/m (bits 0-2), r aliases a (bit 3), the
 * caller's BN_MONT_CTX (bit 4), consttime entry (bit 5), a negative (bit 6),
 * m negative (bit 7). flags2: p negative (bit 0), a flag the shim does not
 * know on p (bit 1). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bn_init();
    fuzz_in in = {data, size};
    const char *kname = fuzz_force(fuzz_byte(&in));
    unsigned flags = fuzz_byte(&in), flags2 = fuzz_byte(&in);
    size_t mlen = fuzz_len(&in, CS_BN_MAX_BITS / 8 + 16);
    /* At most 16 bytes above 4096 bits, 64 above 2048: longer exponents at
     * those sizes are only a loop count for the kernels. */
    size_t plen = fuzz_exp_len(&in, mlen, mlen > 512 ? 16 : mlen > 256 ? 64 : mlen + 16);
    BIGNUM *m = fuzz_bn(&in, mlen), *p = fuzz_bn(&in, plen), *a = fuzz_bn(&in, in.left);
    BIGNUM *want = BN_new(), *got = BN_new();
    fuzz_mark((flags >> 6) | (flags2 & 1) << 2, (BIGNUM *[]){a, m, p}, 3, 0);
    if (flags2 & 2)
        BN_set_flags(p, 0x4000);
    fuzz_mark(flags, (BIGNUM *[]){a, p, m}, 3, 1);
    BN_MONT_CTX *mont = fuzz_mont(flags & 16, m);
    int ct_entry = (flags >> 5) & 1;

    ERR_clear_error();
    int rw = ct_entry ? BN_mod_exp_mont_consttime(want, a, p, m, fuzz_ctx, mont)
                      : BN_mod_exp_mont(want, a, p, m, fuzz_ctx, mont);
    unsigned long ew = fuzz_take_error();
    const BIGNUM *base = flags & 8 ? fuzz_alias(got, a) : a; /* r aliases a */
    int rg = cs_modexp_entry(&fuzz_api, ct_entry, got, base, p, m, fuzz_ctx, mont);
    unsigned long eg = fuzz_take_error();
    fuzz_agree(kname, rw, rg, ew, eg, BN_cmp(want, got) == 0, "result");
    BN_free(a), BN_free(p), BN_free(m), BN_free(want), BN_free(got);
    BN_MONT_CTX_free(mont);
    return 0;
}
