/* Component fuzz target: the ML-DSA rejection samplers of each backend
 * this CPU runs against the portable ones: rej_uniform (RejNTTPoly's inner
 * loop), rej_eta for eta 2 and 4 (RejBoundedPoly's), and SampleInBall (the
 * challenge, on the backend's Keccak) for each (ctilde bytes, tau) pair.
 * Same count, same values, nothing written past the requested length (a
 * vector store past it would clobber the next polynomial); the portable
 * samplers checked against FIPS 204's definitions written out here.
 * Input: implementation (byte), operation (byte), lengths, then the
 * sampled bytes, each 3-byte group (rej_uniform) or byte (rej_eta) drawn
 * from the input or set to a value at the acceptance edge. */
#include "fuzz_mldsa_parts.h"

static const cs_mldsa_impl *const P = &cs_mldsa_portable;

#define FILL 0x5A5A5A5A

/* 1 if r[from..to) still hold the fill. */
static int untouched(const int32_t *r, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        if (r[i] != FILL)
            return 0;
    return 1;
}

/* RejNTTPoly's inner loop as FIPS 204 defines it (Algorithm 14,
 * CoeffFromThreeBytes). */
static unsigned ref_uniform(int32_t *a, unsigned len, const uint8_t *buf, unsigned buflen)
{
    unsigned n = 0;
    for (unsigned i = 0; i + 3 <= buflen && n < len; i += 3) {
        uint32_t v = (uint32_t)buf[i] | (uint32_t)buf[i + 1] << 8 |
                     (uint32_t)(buf[i + 2] & 0x7f) << 16;
        if (v < MQ)
            a[n++] = (int32_t)v;
    }
    return n;
}

/* RejBoundedPoly's inner loop (Algorithm 15, CoeffFromHalfByte). */
static unsigned ref_eta(int32_t *a, unsigned len, const uint8_t *buf, unsigned buflen,
                        unsigned eta)
{
    unsigned n = 0;
    for (unsigned i = 0; i < buflen && n < len; i++)
        for (unsigned half = 0; half < 2 && n < len; half++) {
            unsigned b = half ? buf[i] >> 4 : buf[i] & 15;
            if (eta == 2 && b < 15)
                a[n++] = 2 - (int32_t)(b % 5);
            else if (eta == 4 && b < 9)
                a[n++] = 4 - (int32_t)b;
        }
    return n;
}

/* Three bytes of a rej_uniform buffer: from the input, or a 23-bit value
 * at q's edge with the ignored top bit set or not. */
static void group3(mf_in *in, uint8_t *g)
{
    static const uint32_t edge[8] = {MQ - 1, MQ, MQ + 1, 0x7fffff, 0, 1, MQ - 2, 0x7fe000};
    unsigned b = mf_byte(in);
    if (b < 0xa0) {
        g[0] = (uint8_t)b, g[1] = (uint8_t)mf_byte(in), g[2] = (uint8_t)mf_byte(in);
        return;
    }
    uint32_t v = edge[b & 7] | (b & 8 ? 0x800000u : 0);
    g[0] = (uint8_t)v, g[1] = (uint8_t)(v >> 8), g[2] = (uint8_t)(v >> 16);
}

/* A rej_eta byte: from the input, or two nibbles at the edge for eta. */
static uint8_t eta_byte(mf_in *in, unsigned eta)
{
    unsigned b = mf_byte(in);
    if (b < 0xa0)
        return (uint8_t)b;
    unsigned lo = eta == 2 ? 14 : 8, e[4] = {lo, lo + 1, 15, 0};
    return (uint8_t)(e[b & 3] | e[(b >> 2) & 3] << 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_init();
    mf_in in = mf_start(data, size);
    const cs_mldsa_impl *im = mf_impl(mf_byte(&in));
    unsigned op = mf_byte(&in);
    uint8_t buf[3 * 281];
    int32_t r1[CS_MLDSA_N], r2[CS_MLDSA_N], r3[CS_MLDSA_N];
    unsigned len = 1 + mf_byte(&in), n1, n2, n3;
    if (len > CS_MLDSA_N)
        len = CS_MLDSA_N;
    memset(r1, 0x5A, sizeof r1);
    switch (op % 3) {
    case 0: { /* rej_uniform: up to 280 groups (ExpandA's 5 blocks and more) */
        unsigned groups = mf_byte(&in) | (op & 0x80 ? 0x100u : 0);
        groups = groups > 280 ? 280 : groups;
        for (unsigned i = 0; i < groups; i++)
            group3(&in, buf + 3 * i);
        n1 = im->rej_uniform(r1, len, buf, 3 * groups);
        n2 = P->rej_uniform(r2, len, buf, 3 * groups);
        n3 = ref_uniform(r3, len, buf, 3 * groups);
        MF_CHECK(n1 == n2 && !memcmp(r1, r2, n1 * sizeof r1[0]), im, "rej_uniform");
        MF_CHECK(untouched(r1, len, CS_MLDSA_N), im, "rej_uniform: wrote past len");
        MF_CHECK(n2 == n3 && !memcmp(r2, r3, n2 * sizeof r2[0]), P, "rej_uniform: not FIPS 204's");
        break;
    }
    case 1: { /* rej_eta, eta 2 or 4, up to 272 bytes (ExpandS's 2 blocks) */
        unsigned eta = op & 8 ? 4 : 2, blen = mf_byte(&in) | (op & 0x80 ? 0x100u : 0);
        blen = blen > 272 ? 272 : blen;
        for (unsigned i = 0; i < blen; i++)
            buf[i] = eta_byte(&in, eta);
        n1 = im->rej_eta(r1, len, buf, blen, eta);
        n2 = P->rej_eta(r2, len, buf, blen, eta);
        n3 = ref_eta(r3, len, buf, blen, eta);
        MF_CHECK(n1 == n2 && !memcmp(r1, r2, n1 * sizeof r1[0]), im, "rej_eta");
        MF_CHECK(untouched(r1, len, CS_MLDSA_N), im, "rej_eta: wrote past len");
        MF_CHECK(n2 == n3 && !memcmp(r2, r3, n2 * sizeof r2[0]), P, "rej_eta: not FIPS 204's");
        break;
    }
    default: { /* SampleInBall for ML-DSA-44/65/87's (lambda/4, tau) */
        static const unsigned bytes[3] = {32, 48, 64}, taus[3] = {39, 49, 60};
        unsigned s = (op >> 3) % 3;
        uint8_t ctilde[64];
        mf_bytes(&in, ctilde, bytes[s]);
        cs_mldsa_poly c1, c2;
        cs_mldsa_sample_in_ball(im, &c1, ctilde, bytes[s], taus[s]);
        cs_mldsa_sample_in_ball(P, &c2, ctilde, bytes[s], taus[s]);
        MF_CHECK(mf_eq(&c1, &c2), im, "sample_in_ball");
        unsigned ones = 0;
        for (unsigned i = 0; i < CS_MLDSA_N; i++) {
            MF_CHECK(c2.c[i] >= -1 && c2.c[i] <= 1, P, "sample_in_ball: a coefficient not in {-1, 0, 1}");
            ones += c2.c[i] != 0;
        }
        MF_CHECK(ones == taus[s], P, "sample_in_ball: not tau nonzero coefficients");
    }
    }
    return 0;
}
