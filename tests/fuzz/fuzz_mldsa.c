/* Differential fuzz target for ML-DSA: an implementation this CPU runs
 * (avx2; avx512 where the CPU has it; portable itself where nothing else
 * runs) against the portable one, on key generation, key import (public key
 * from an expanded private key), signing and verification. Same return
 * codes, same bytes. One parameter set, one operation and one implementation
 * per input: each costs one or two signatures, not eight.
 * Input: selector (bits 0-1 the parameter set: ML-DSA-44 twice as often as
 * 65 and 87, the cheapest; bits 2-7 the implementation), mode, then
 * mode-specific bytes:
 *   0 keygen: seed (32), then sign/verify of the rest as message
 *   1 import: an expanded private key (padded with zeros), pk_from_sk
 *   2 verify: pk, signature, message from the input (mostly invalid)
 *   3 tamper: a fixed key's deterministic signature of the message, with
 *     bytes of signature or public key flipped where the input says. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa.h"
#include "runtime/cpu.h"
#include "tests/fuzz/fuzz_common.h"

/* The implementations compared with portable (portable alone if none). */
static const cs_mldsa_impl *impls[8];
static unsigned nimpls;
/* Per parameter set (44, 65, 87): a key from a fixed seed, for mode 3. */
static uint8_t fixed_pk[3][CS_MLDSA_MAX_PK_BYTES], fixed_sk[3][CS_MLDSA_MAX_SK_BYTES];

static const int ps_list[4] = {44, 44, 65, 87};

/* Stops the run with what differed (a finding). */
static void check(int ok, const cs_mldsa_impl *impl, int ps, const char *what)
{
    FUZZ_EXPECT(ok, what, "%s, ML-DSA-%d", cs_mldsa_impl_name(impl), ps);
}

static void init(void)
{
    uint32_t have = cs_cpu_probe();
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i && nimpls < 8; i++)
        if (*i != &cs_mldsa_portable && (cs_mldsa_impl_cpu_features(*i) & ~have) == 0)
            impls[nimpls++] = *i;
    if (!nimpls)
        impls[nimpls++] = &cs_mldsa_portable;
    uint8_t seed[CS_MLDSA_SEED_BYTES];
    for (int s = 0; s < 3; s++) {
        memset(seed, 0x5a + s, sizeof seed);
        if (cs_mldsa_keygen(&cs_mldsa_portable, ps_list[s + 1], fixed_pk[s], fixed_sk[s], seed))
            abort();
    }
}

/* Splits the rest of the input into a context string (first byte: its
 * length) and a message. */
static void ctx_msg(const uint8_t *d, size_t n, const uint8_t **ctx, size_t *ctxlen,
                    const uint8_t **msg, size_t *msglen)
{
    size_t cl = n ? d[0] : 0;
    d += n ? 1 : 0, n -= n ? 1 : 0;
    if (cl > n)
        cl = n;
    *ctx = d, *ctxlen = cl, *msg = d + cl, *msglen = n - cl;
}

/* Mode 0: key generation, signing (deterministic and hedged with the same
 * rnd) and verification, `im` against portable. */
static void keygen_sign(const cs_mldsa_impl *im, int ps, const uint8_t *d, size_t n)
{
    uint8_t seed[CS_MLDSA_SEED_BYTES] = {0}, rnd[CS_MLDSA_RND_BYTES] = {0};
    memcpy(seed, d, n < sizeof seed ? n : sizeof seed);
    d += n < sizeof seed ? n : sizeof seed, n -= n < sizeof seed ? n : sizeof seed;
    if (n && (d[0] & 1))
        memcpy(rnd, seed, sizeof rnd); /* hedged: any fixed rnd will do */
    const uint8_t *ctx, *msg;
    size_t ctxlen, msglen;
    ctx_msg(d, n, &ctx, &ctxlen, &msg, &msglen);
    static uint8_t pk0[CS_MLDSA_MAX_PK_BYTES], sk0[CS_MLDSA_MAX_SK_BYTES],
        sig0[CS_MLDSA_MAX_SIG_BYTES], pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES],
        sig[CS_MLDSA_MAX_SIG_BYTES];
    size_t pkb = cs_mldsa_pk_bytes(ps), skb = cs_mldsa_sk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    check(cs_mldsa_keygen(&cs_mldsa_portable, ps, pk0, sk0, seed) == 0, &cs_mldsa_portable, ps,
          "keygen failed");
    int rs0 = cs_mldsa_sign(&cs_mldsa_portable, ps, sig0, sk0, msg, msglen, ctx, ctxlen, rnd);
    check(rs0 == 0, &cs_mldsa_portable, ps, "sign failed");
    check(cs_mldsa_keygen(im, ps, pk, sk, seed) == 0, im, ps, "keygen failed");
    check(!memcmp(pk, pk0, pkb) && !memcmp(sk, sk0, skb), im, ps, "keygen bytes");
    check(cs_mldsa_sign(im, ps, sig, sk, msg, msglen, ctx, ctxlen, rnd) == 0, im, ps,
          "sign failed");
    check(!memcmp(sig, sig0, sigb), im, ps, "signature bytes");
    check(cs_mldsa_verify(im, ps, sig0, sigb, msg, msglen, ctx, ctxlen, pk0) == 0, im, ps,
          "own signature rejected");
}

/* Mode 1: the public key recomputed from an arbitrary expanded private key. */
static void import_sk(const cs_mldsa_impl *im, int ps, const uint8_t *d, size_t n)
{
    static uint8_t sk[CS_MLDSA_MAX_SK_BYTES], pk0[CS_MLDSA_MAX_PK_BYTES], pk[CS_MLDSA_MAX_PK_BYTES];
    size_t skb = cs_mldsa_sk_bytes(ps), pkb = cs_mldsa_pk_bytes(ps);
    /* Short inputs: a valid key with the input laid over its start. */
    memcpy(sk, fixed_sk[ps == 44 ? 0 : ps == 65 ? 1 : 2], skb);
    memcpy(sk, d, n < skb ? n : skb);
    int r0 = cs_mldsa_pk_from_sk(&cs_mldsa_portable, ps, pk0, sk);
    int r = cs_mldsa_pk_from_sk(im, ps, pk, sk);
    check(r == r0, im, ps, "pk_from_sk return");
    check(r || !memcmp(pk, pk0, pkb), im, ps, "pk_from_sk bytes");
}

/* Mode 2: verification of input bytes as public key, signature, message. */
static void verify_raw(const cs_mldsa_impl *im, int ps, const uint8_t *d, size_t n)
{
    static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sig[CS_MLDSA_MAX_SIG_BYTES];
    size_t pkb = cs_mldsa_pk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    size_t take = n < pkb ? n : pkb;
    memset(pk, 0, pkb), memcpy(pk, d, take), d += take, n -= take;
    take = n < sigb ? n : sigb;
    memset(sig, 0, sigb), memcpy(sig, d, take), d += take, n -= take;
    const uint8_t *ctx, *msg;
    size_t ctxlen, msglen;
    ctx_msg(d, n, &ctx, &ctxlen, &msg, &msglen);
    int r0 = cs_mldsa_verify(&cs_mldsa_portable, ps, sig, sigb, msg, msglen, ctx, ctxlen, pk);
    check(cs_mldsa_verify(im, ps, sig, sigb, msg, msglen, ctx, ctxlen, pk) == r0, im, ps,
          "verify of arbitrary bytes");
}

/* Mode 3: a valid signature by the fixed key, then up to 8 byte flips in
 * the signature or public key (offset 2 bytes, xor 1 byte each); every
 * implementation must give portable's verdict, and unflipped must verify. */
static void tamper(const cs_mldsa_impl *im, int ps, const uint8_t *d, size_t n)
{
    int s = ps == 44 ? 0 : ps == 65 ? 1 : 2;
    static uint8_t sig[CS_MLDSA_MAX_SIG_BYTES], pk[CS_MLDSA_MAX_PK_BYTES];
    uint8_t rnd[CS_MLDSA_RND_BYTES] = {0};
    size_t pkb = cs_mldsa_pk_bytes(ps), sigb = cs_mldsa_sig_bytes(ps);
    unsigned flips = n ? d[0] % 9 : 0;
    d += n ? 1 : 0, n -= n ? 1 : 0;
    size_t fl = flips * 3 < n ? flips * 3 : n - n % 3;
    const uint8_t *fd = d;
    d += fl, n -= fl;
    const uint8_t *ctx, *msg;
    size_t ctxlen, msglen;
    ctx_msg(d, n, &ctx, &ctxlen, &msg, &msglen);
    if (cs_mldsa_sign(&cs_mldsa_portable, ps, sig, fixed_sk[s], msg, msglen, ctx, ctxlen, rnd))
        abort();
    memcpy(pk, fixed_pk[s], pkb);
    int changed = 0;
    for (size_t f = 0; f + 3 <= fl; f += 3) {
        size_t off = ((size_t)fd[f] << 8 | fd[f + 1]) % (sigb + pkb);
        if (off < sigb)
            sig[off] ^= fd[f + 2];
        else
            pk[off - sigb] ^= fd[f + 2];
        changed |= fd[f + 2] != 0;
    }
    int r0 = cs_mldsa_verify(&cs_mldsa_portable, ps, sig, sigb, msg, msglen, ctx, ctxlen, pk);
    check(changed || r0 == 0, &cs_mldsa_portable, ps, "untampered signature rejected");
    check(cs_mldsa_verify(im, ps, sig, sigb, msg, msglen, ctx, ctxlen, pk) == r0, im, ps,
          "verify of a tampered signature");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nimpls)
        init();
    if (size < 2)
        return 0;
    int ps = ps_list[data[0] & 3];
    const cs_mldsa_impl *im = impls[(data[0] >> 2) % nimpls];
    unsigned mode = data[1] % 4;
    data += 2, size -= 2;
    switch (mode) {
    case 0: keygen_sign(im, ps, data, size); break;
    case 1: import_sk(im, ps, data, size); break;
    case 2: verify_raw(im, ps, data, size); break;
    default: tamper(im, ps, data, size); break;
    }
    return 0;
}
