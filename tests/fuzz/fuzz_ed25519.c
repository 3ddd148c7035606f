/* Fuzz target for the Ed25519 kernels (kernels/c25519): every
 * implementation this CPU runs (cs_c25519_impls, found at run time, so
 * tables are fuzzed as they land; on x86-64 also the emulated
 * x86_64-ifma table, tests/fuzz/fuzz_c25519.h) against the portable one
 * and against libcrypto's EVP raw keys. Input: mode (byte), implementation (byte),
 * then the mode's bytes:
 *  - 0, keys and signatures: a private key (32 bytes), a context length
 *    (byte) and context, the message: the same public key and X25519 public
 *    value (x25519_base, also = the ladder on 9) and signature everywhere,
 *    libcrypto's for plain Ed25519; the signature verifies;
 *  - 1, verification of arbitrary bytes: public key (32), signature (64),
 *    message: the same verdict everywhere and libcrypto's;
 *  - 2, verification of an edited valid signature: a private key (32),
 *    then up to 8 edits (position in signature || key, xor byte, and kind:
 *    xor, set to the input byte, add L to S, set y >= p or a small-order
 *    encoding), then the message: as mode 1. */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/c25519/c25519.h"
#include "tests/fuzz/fuzz_c25519.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/unit/support/c25519_stock.h"

static const cs_c25519_impl *impls[8];
static unsigned nimpls;

/* Stops the run (a finding) with what differed, if `ok` is false. */
#define EF_CHECK(ok, impl, what) FUZZ_EXPECT(ok, what, "%s", (impl)->name)

static void init(void)
{
    if (!nimpls)
        nimpls = fuzz_c25519_tables(impls, 8, 1);
}

/* libcrypto's Ed25519 public key, X25519 public value and plain Ed25519
 * signature of msg for sk; stops the run where libcrypto fails. */
static void stock_keys(const uint8_t sk[32], uint8_t pk[32], uint8_t xpub[32], uint8_t sig[64],
                       const uint8_t *msg, size_t n)
{
    if (!stock_pubkey(EVP_PKEY_ED25519, pk, sk) || !stock_pubkey(EVP_PKEY_X25519, xpub, sk) ||
        !stock_ed25519_sign(sig, sk, msg, n)) {
        fprintf(stderr, "libcrypto failed\n");
        abort();
    }
}

/* The verdict of im, portable and libcrypto on (sig, msg, pk) must agree. */
static void verdicts(const cs_c25519_impl *im, const uint8_t sig[64], const uint8_t *msg, size_t n,
                     const uint8_t pk[32])
{
    int ours = im->ed25519_verify(sig, NULL, 0, msg, n, pk);
    EF_CHECK(ours == cs_c25519_portable.ed25519_verify(sig, NULL, 0, msg, n, pk), im,
             "verdict differs from portable");
    EF_CHECK(ours == stock_ed25519_verify(sig, msg, n, pk), im, "verdict differs from libcrypto");
}

static void keys(const cs_c25519_impl *im, const uint8_t *d, size_t n)
{
    static const uint8_t nine[32] = {9};
    uint8_t sk[32] = {0}, dom[34 + 255], pk[32], pk2[32], spk[32], sig[64], sig2[64], ssig[64];
    uint8_t xp[32], xp2[32], sxp[32];
    size_t take = n < 32 ? n : 32, clen, dlen = 0;
    memcpy(sk, d, take);
    d += take, n -= take;
    clen = n ? *d++ : 0;
    n -= n ? 1 : 0;
    if (clen) { /* Ed25519ctx or ph (F = clen & 1) with the next bytes as context */
        clen = (clen >> 1) < n ? (clen >> 1) : n;
        memcpy(dom, "SigEd25519 no Ed25519 collisions", 32);
        dom[32] = (uint8_t)(d[-1] & 1);
        dom[33] = (uint8_t)clen;
        memcpy(dom + 34, d, clen);
        dlen = 34 + clen;
        d += clen, n -= clen;
    }
    im->ed25519_pubkey(pk, sk);
    cs_c25519_portable.ed25519_pubkey(pk2, sk);
    EF_CHECK(!memcmp(pk, pk2, 32), im, "public key differs from portable");
    im->ed25519_sign(sig, dom, dlen, d, n, sk, pk);
    cs_c25519_portable.ed25519_sign(sig2, dom, dlen, d, n, sk, pk);
    EF_CHECK(!memcmp(sig, sig2, 64), im, "signature differs from portable");
    EF_CHECK(im->ed25519_verify(sig, dom, dlen, d, n, pk) == 1, im, "own signature refused");
    im->x25519_base(xp, sk);
    im->x25519(xp2, sk, nine);
    EF_CHECK(!memcmp(xp, xp2, 32), im, "x25519_base differs from the ladder");
    stock_keys(sk, spk, sxp, ssig, d, n);
    EF_CHECK(!memcmp(pk, spk, 32), im, "public key differs from libcrypto");
    EF_CHECK(!memcmp(xp, sxp, 32), im, "X25519 public value differs from libcrypto");
    if (!dlen)
        EF_CHECK(!memcmp(sig, ssig, 64), im, "signature differs from libcrypto");
}

static const uint8_t L_BYTES[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                    0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                    [31] = 0x10};
static const uint8_t ORDER8[32] = {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b,
                                   0x76, 0x0d, 0x10, 0x67, 0x0f, 0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39,
                                   0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a};

static void edited(const cs_c25519_impl *im, const uint8_t *d, size_t n)
{
    uint8_t sk[32] = {0}, buf[96]; /* signature || public key */
    size_t take = n < 32 ? n : 32;
    memcpy(sk, d, take);
    d += take, n -= take;
    unsigned edits = n ? *d++ % 9 : 0;
    n -= n ? 1 : 0;
    const uint8_t *edit = d;
    size_t elen = edits * 3 < n ? edits * 3 : n - n % 3;
    d += elen, n -= elen;
    cs_c25519_portable.ed25519_pubkey(buf + 64, sk);
    cs_c25519_portable.ed25519_sign(buf, NULL, 0, d, n, sk, buf + 64);
    for (size_t e = 0; e + 3 <= elen; e += 3) {
        unsigned pos = edit[e] % 96, val = edit[e + 1], kind = edit[e + 2] % 5;
        uint8_t *enc = pos < 32 ? buf : pos < 64 ? buf + 32 : buf + 64;
        switch (kind) {
        case 0:
            buf[pos] ^= (uint8_t)(val | 1);
            break;
        case 1:
            buf[pos] = (uint8_t)val;
            break;
        case 2: { /* S += L */
            unsigned c = 0;
            for (unsigned i = 0; i < 32; i++) {
                c += buf[32 + i] + L_BYTES[i];
                buf[32 + i] = (uint8_t)c;
                c >>= 8;
            }
            break;
        }
        case 3: /* y = p + (val % 19), the sign bit from val */
            memset(enc, 0xff, 32);
            enc[0] = (uint8_t)(0xed + val % 19);
            enc[31] = (val & 0x80) ? 0xff : 0x7f;
            break;
        default: /* a small-order encoding */
            if (val % 4 == 0)
                memcpy(enc, ORDER8, 32);
            else
                memset(enc, 0, 32), enc[0] = (uint8_t)(val % 4 == 1);
            enc[31] ^= (uint8_t)(val & 0x80);
            break;
        }
    }
    verdicts(im, buf, d, n, buf + 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size < 2 || !nimpls)
        return 0;
    unsigned mode = data[0] % 3;
    const cs_c25519_impl *im = impls[data[1] % nimpls];
    data += 2, size -= 2;
    if (size > 1200)
        size = 1200;
    if (mode == 0)
        keys(im, data, size);
    else if (mode == 1 && size >= 96)
        verdicts(im, data + 32, data + 96, size - 96, data);
    else if (mode == 2)
        edited(im, data, size);
    return 0;
}
