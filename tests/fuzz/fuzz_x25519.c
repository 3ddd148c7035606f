/* Fuzz target for the X25519 ladder (kernels/c25519): every table this CPU
 * runs (cs_c25519_impls, found at run time, so tables are fuzzed as they
 * land) against the portable one and, on one input in four, against
 * libcrypto's EVP derive. Input: mode (byte), then a scalar (32 bytes) and
 * a peer value (32 bytes; missing bytes are zero):
 *  - mode & 3 == 0: the peer as given;
 *  - 1: the peer's low 16 bytes kept, the rest 0xff (u >= p and around it,
 *    top bit from the mode's bit 7);
 *  - 2: a low-order encoding picked by the peer's first byte (0, 1, p-1,
 *    the two of order 8, p, p+1; top bit from the mode's bit 7): the
 *    all-zero result, returned as 0;
 *  - 3: the peer's words kept or set to 0 or all ones by its first byte
 *    (carry edges of the field).
 * Checked: the same return value and bytes everywhere (out all zero
 * exactly when 0 is returned), libcrypto refusing exactly those; mode bit
 * 6: x25519_base(scalar) against the ladder on 9 too. On x86-64 the
 * tables include the emulated x86_64-ifma table (tests/fuzz/fuzz_c25519.h),
 * its ladder run where the scalar's two low bits are 0. */
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
#define XF_CHECK(ok, impl, what) FUZZ_EXPECT(ok, what, "%s", (impl))

static void init(void)
{
    if (!nimpls)
        nimpls = fuzz_c25519_tables(impls, 8, 0);
}

static const uint8_t low_order[7][32] = {
    {0},
    {1},
    {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a,
     0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
    {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b,
     0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
    {0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t k[32] = {0}, u[32] = {0}, mode;
    init();
    if (size < 1 || !nimpls)
        return 0;
    mode = data[0];
    data++, size--;
    memcpy(k, data, size < 32 ? size : 32);
    if (size > 32)
        memcpy(u, data + 32, size - 32 < 32 ? size - 32 : 32);
    switch (mode & 3) {
    case 1:
        memset(u + 16, 0xff, 16);
        u[31] = (uint8_t)(0x7f | (mode & 0x80));
        break;
    case 2: {
        unsigned i = u[0] % 7;
        memcpy(u, low_order[i], 32);
        u[31] |= mode & 0x80;
        break;
    }
    case 3: {
        uint8_t sel = u[0];
        for (unsigned w = 0; w < 4; w++) {
            unsigned how = (sel >> (2 * w)) & 3;
            if (how == 1)
                memset(u + 8 * w, 0, 8);
            else if (how == 2)
                memset(u + 8 * w, 0xff, 8);
        }
        break;
    }
    default: break;
    }

    static const uint8_t zero[32];
    uint8_t want[32], got[32];
    const cs_c25519_impl *ref = &cs_c25519_portable;
    int rw = ref->x25519(want, k, u);
    XF_CHECK(rw == !!memcmp(want, zero, 32), ref->name, "return value and all-zero result");
    if ((mode & 3) == 2)
        XF_CHECK(rw == 0, ref->name, "low-order peer not refused");
    for (unsigned i = 0; i < nimpls; i++) {
        /* The emulated ladder costs several native ones: it runs on one
         * input in four, picked by two scalar bits clamping clears. */
        if (impls[i] == ref || (fuzz_c25519_emulated(impls[i]) && (k[0] & 3)))
            continue;
        int r = impls[i]->x25519(got, k, u);
        XF_CHECK(r == rw && !memcmp(got, want, 32), impls[i]->name, "x25519 differs from portable");
    }
    if ((mode & 0x30) == 0) {
        int rs = stock_x25519(got, k, u);
        XF_CHECK(rs == rw && (!rs || !memcmp(got, want, 32)), ref->name,
                 "x25519 differs from libcrypto");
    }
    if (mode & 0x40) {
        static const uint8_t nine[32] = {9};
        ref->x25519(want, k, nine);
        for (unsigned i = 0; i < nimpls; i++) {
            impls[i]->x25519_base(got, k);
            XF_CHECK(!memcmp(got, want, 32), impls[i]->name, "x25519_base differs from the ladder on 9");
        }
    }
    return 0;
}
