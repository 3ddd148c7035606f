/* Shared by the ML-DSA component fuzz targets (fuzz_mldsa_ntt, _pack,
 * _round, _sample, _decode): the implementations this CPU runs, a cursor
 * over the fuzz input that continues with a generator seeded by the input
 * once the bytes run out (so a short input still fills whole polynomials),
 * coefficients drawn to the edges of a range, and stopping on a difference
 * from the portable implementation. Header-only, like fuzz_bn.h. */
#ifndef CRYPTOSHIM_FUZZ_MLDSA_PARTS_H
#define CRYPTOSHIM_FUZZ_MLDSA_PARTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_portable.h"
#include "runtime/cpu.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/unit/support/mldsa_ref.h"

#define MQ CS_MLDSA_Q

/* The input, then a generator seeded from all of it. */
typedef struct mf_in {
    const uint8_t *p;
    size_t left;
    uint64_t rng;
} mf_in;

/* A cursor at the start of data, its generator seeded by a hash of it. */
static inline mf_in mf_start(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a over the input */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3u;
    mf_in in = {data, size, h | 1};
    return in;
}

/* The next input byte; once the input is used up, a generator byte. */
static inline unsigned mf_byte(mf_in *in)
{
    if (in->left) {
        in->left--;
        return *in->p++;
    }
    in->rng ^= in->rng << 13, in->rng ^= in->rng >> 7, in->rng ^= in->rng << 17;
    return (unsigned)(in->rng >> 32) & 0xff;
}

/* Four bytes, big-endian. */
static inline uint32_t mf_u32(mf_in *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | mf_byte(in);
    return v;
}

/* n bytes into out. */
static inline void mf_bytes(mf_in *in, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)mf_byte(in);
}

/* Uniform in [lo, hi] from 4 bytes. */
static inline int32_t mf_uniform(mf_in *in, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    return (int32_t)(lo + (int64_t)(((uint64_t)mf_u32(in) * span) >> 32));
}

/* One coefficient in [lo, hi], from a byte that most often picks an edge:
 * lo, hi, one inside them, 0, a small value, else a uniform value. */
static inline int32_t mf_coef(mf_in *in, int32_t lo, int32_t hi)
{
    unsigned b = mf_byte(in);
    int32_t v;
    switch (b >> 4) {
    case 0: case 1: return lo;
    case 2: case 3: return hi;
    case 4: return lo < hi ? lo + 1 : lo;
    case 5: return lo < hi ? hi - 1 : hi;
    case 6:
        v = (int32_t)(b & 7) - 4;
        return v < lo ? lo : v > hi ? hi : v;
    default: return mf_uniform(in, lo, hi);
    }
}

/* A polynomial with coefficients in [lo, hi]. A first byte picks how: per
 * coefficient as mf_coef (most inputs), all uniform, all one edge value
 * (every coefficient at the bound: the worst case of lazy reductions), or
 * alternating signs at the bounds. */
static inline void mf_poly(mf_in *in, cs_mldsa_poly *a, int32_t lo, int32_t hi)
{
    unsigned mode = mf_byte(in) & 7;
    int32_t v = mode == 2 || mode == 3 ? mf_coef(in, lo, hi) : 0;
    for (unsigned i = 0; i < CS_MLDSA_N; i++)
        a->c[i] = mode == 1   ? mf_uniform(in, lo, hi)
                  : mode == 2 ? v
                  : mode == 3 ? (i & 1 ? hi : lo)
                              : mf_coef(in, lo, hi);
}

/* Implementations compared with portable (only those this CPU runs);
 * portable itself when nothing else runs. */
static const cs_mldsa_impl *mf_impls[8];
static unsigned mf_nimpls;

/* Fills mf_impls once (cs_mldsa_impls filtered by this CPU's features). */
static inline void mf_init(void)
{
    if (mf_nimpls)
        return;
    uint32_t have = cs_cpu_probe();
    for (const cs_mldsa_impl *const *i = cs_mldsa_impls; *i && mf_nimpls < 8; i++)
        if (*i != &cs_mldsa_portable && ((*i)->cpu_features & ~have) == 0)
            mf_impls[mf_nimpls++] = *i;
    if (!mf_nimpls)
        mf_impls[mf_nimpls++] = &cs_mldsa_portable;
}

/* The implementation a selector byte picks. */
static inline const cs_mldsa_impl *mf_impl(unsigned sel)
{
    return mf_impls[sel % mf_nimpls];
}

/* Stops the run (a finding) with what differed, if `ok` is false. */
#define MF_CHECK(ok, impl, what) FUZZ_EXPECT(ok, what, "%s", (impl)->name)

/* a == b word for word. */
static inline int mf_eq(const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* a == b mod q coefficientwise. */
static inline int mf_eq_modq(const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < CS_MLDSA_N; i++)
        if (mldsa_modq(a->c[i]) != mldsa_modq(b->c[i]))
            return 0;
    return 1;
}

/* The gamma2 of a selector bit: (q-1)/88 (ML-DSA-44) or (q-1)/32. */
static inline int32_t mf_gamma2(unsigned bit)
{
    return bit ? (MQ - 1) / 32 : (MQ - 1) / 88;
}

#endif
