/* Component fuzz target: packing and unpacking of every ML-DSA field by
 * each backend this CPU runs against the portable one: t1 (10 bits), t0
 * (13), s1/s2 (eta 2 and 4: 3 and 4 bits, with the out-of-range flag of a
 * corrupted key), z (gamma1 2^17 and 2^19: 18 and 20 bits) and w1 (6 and 4
 * bits, packed only). Any bytes unpack to the same polynomial (and flag);
 * any polynomial in the field's range packs to the same bytes; unpacking
 * then packing gives the bytes back wherever the encoding is one to one.
 * Input: implementation (byte), field (byte), then either the packed
 * bytes or a polynomial (fuzz_mldsa_parts.h) with its coefficients at the
 * edges of the field's range. */
#include "fuzz_mldsa_parts.h"

static const cs_mldsa_impl *const P = &cs_mldsa_portable;

enum field { T1, T0, ETA2, ETA4, Z17, Z19, W1_88, W1_32, NFIELDS };

static const size_t field_bytes[NFIELDS] = {CS_MLDSA_POLY_T1_BYTES, CS_MLDSA_POLY_T0_BYTES,
                                            96, 128, 576, 640, 192, 128};

/* The range [lo, hi] of the field's coefficients. */
static void field_range(enum field f, int32_t *lo, int32_t *hi)
{
    switch (f) {
    case T1: *lo = 0, *hi = (1 << 10) - 1; break;
    case T0: *lo = -(1 << 12) + 1, *hi = 1 << 12; break;
    case ETA2: *lo = -2, *hi = 2; break;
    case ETA4: *lo = -4, *hi = 4; break;
    case Z17: *lo = -(1 << 17) + 1, *hi = 1 << 17; break;
    case Z19: *lo = -(1 << 19) + 1, *hi = 1 << 19; break;
    case W1_88: *lo = 0, *hi = 43; break;
    default: *lo = 0, *hi = 15; break;
    }
}

/* Packs a with im's hook for field f. */
static void pack(const cs_mldsa_impl *im, enum field f, uint8_t *r, const cs_mldsa_poly *a)
{
    switch (f) {
    case T1: im->pack_t1(r, a); break;
    case T0: im->pack_t0(r, a); break;
    case ETA2: im->pack_eta(r, a, 2); break;
    case ETA4: im->pack_eta(r, a, 4); break;
    case Z17: im->pack_z(r, a, 1 << 17); break;
    case Z19: im->pack_z(r, a, 1 << 19); break;
    case W1_88: im->pack_w1(r, a, (MQ - 1) / 88); break;
    default: im->pack_w1(r, a, (MQ - 1) / 32); break;
    }
}

/* Unpacks r with im's hook for field f (not w1); returns unpack_eta's
 * flag, else 0. */
static int unpack(const cs_mldsa_impl *im, enum field f, cs_mldsa_poly *a, const uint8_t *r)
{
    switch (f) {
    case T1: im->unpack_t1(a, r); return 0;
    case T0: im->unpack_t0(a, r); return 0;
    case ETA2: return im->unpack_eta(a, r, 2);
    case ETA4: return im->unpack_eta(a, r, 4);
    case Z17: im->unpack_z(a, r, 1 << 17); return 0;
    default: im->unpack_z(a, r, 1 << 19); return 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_init();
    mf_in in = mf_start(data, size);
    const cs_mldsa_impl *im = mf_impl(mf_byte(&in));
    unsigned sel = mf_byte(&in);
    enum field f = (enum field)(sel % NFIELDS);
    size_t nb = field_bytes[f];
    uint8_t bytes[640], b1[640 + 64], b2[640 + 64];
    cs_mldsa_poly a, x, y;
    int32_t lo, hi;
    field_range(f, &lo, &hi);
    if (f < W1_88 && (sel & 0x80)) {
        /* any bytes: all input, all 0x00, all 0xff or one repeated byte */
        unsigned fill = (sel >> 3) & 3;
        uint8_t v = fill == 1 ? 0 : fill == 2 ? 0xff : (uint8_t)mf_byte(&in);
        for (size_t i = 0; i < nb; i++)
            bytes[i] = fill ? v : (uint8_t)mf_byte(&in);
        int e1 = unpack(im, f, &x, bytes), e2 = unpack(P, f, &y, bytes);
        MF_CHECK(mf_eq(&x, &y), im, "unpack: other coefficients");
        MF_CHECK(!e1 == !e2, im, "unpack_eta: other out-of-range flag");
        memset(b1, 0xa5, sizeof b1);
        memset(b2, 0xa5, sizeof b2);
        pack(im, f, b1, &y);
        pack(P, f, b2, &y);
        if (e2) /* coefficients outside [-eta, eta]: no contract for packing */
            return 0;
        MF_CHECK(!memcmp(b1, b2, sizeof b1), im, "pack of an unpacked polynomial");
        MF_CHECK(!memcmp(b2, bytes, nb), P, "pack(unpack(bytes)) is not bytes");
        return 0;
    }
    mf_poly(&in, &a, lo, hi);
    memset(b1, 0xa5, sizeof b1);
    memset(b2, 0xa5, sizeof b2);
    pack(im, f, b1, &a);
    pack(P, f, b2, &a);
    MF_CHECK(!memcmp(b1, b2, sizeof b1), im, "pack (or wrote past the field)");
    if (f >= W1_88)
        return 0;
    int e1 = unpack(im, f, &x, b2);
    MF_CHECK(!e1 && mf_eq(&x, &a), im, "unpack(pack(a)) is not a");
    return 0;
}
