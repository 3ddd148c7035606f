/* Portable polynomial bit packing (FIPS 204 SimpleBitPack / BitPack and
 * their inverses): coefficient i occupies bits [i*b, (i+1)*b) of the byte
 * string, least significant bit first. Loops depend only on b. */
#include "mldsa_portable.h"

/* Packs 256 b-bit values (b <= 20), eight per group (b bytes per group)
 * through three 64-bit words. Always inlined with a constant b, so the
 * unrolled shifts, word indices and byte stores are all fixed. */
static inline __attribute__((always_inline)) void bitpack(uint8_t *r, const uint32_t *u,
                                                         unsigned b)
{
    for (unsigned g = 0; g < 32; g++, u += 8, r += b) {
        uint64_t acc[3] = {0, 0, 0};
#pragma GCC unroll 8
        for (unsigned i = 0; i < 8; i++) {
            unsigned pos = i * b, w = pos / 64, off = pos % 64;
            acc[w] |= (uint64_t)u[i] << off;
            if (off + b > 64)
                acc[w + 1] |= (uint64_t)u[i] >> (64 - off);
        }
#pragma GCC unroll 20
        for (unsigned j = 0; j < b; j++)
            r[j] = (uint8_t)(acc[j / 8] >> (8 * (j % 8)));
    }
}

/* Unpacks 256 b-bit values (b <= 20), eight per group as bitpack. */
static inline __attribute__((always_inline)) void bitunpack(uint32_t *u, const uint8_t *r,
                                                           unsigned b)
{
    uint32_t mask = (1u << b) - 1;
    for (unsigned g = 0; g < 32; g++, u += 8, r += b) {
        uint64_t acc[3] = {0, 0, 0};
#pragma GCC unroll 20
        for (unsigned j = 0; j < b; j++)
            acc[j / 8] |= (uint64_t)r[j] << (8 * (j % 8));
#pragma GCC unroll 8
        for (unsigned i = 0; i < 8; i++) {
            unsigned pos = i * b, w = pos / 64, off = pos % 64;
            uint64_t v = acc[w] >> off;
            if (off + b > 64)
                v |= acc[w + 1] << (64 - off);
            u[i] = (uint32_t)v & mask;
        }
    }
}

/* Packs base - a_i in b bits (base 0 with sign -1 packs a_i itself). */
static inline __attribute__((always_inline)) void pack_offset(uint8_t *r, const cs_mldsa_poly *a, int32_t base, int neg, unsigned b)
{
    uint32_t u[256];
    for (unsigned i = 0; i < 256; i++)
        u[i] = (uint32_t)(neg ? base - a->c[i] : a->c[i]);
    bitpack(r, u, b);
}

/* Unpacks a_i = base - field (neg) or a_i = field. */
static inline __attribute__((always_inline)) void unpack_offset(cs_mldsa_poly *a, const uint8_t *r, int32_t base, int neg, unsigned b)
{
    uint32_t u[256];
    bitunpack(u, r, b);
    for (unsigned i = 0; i < 256; i++)
        a->c[i] = neg ? base - (int32_t)u[i] : (int32_t)u[i];
}

/* t1: 10 bits. */
void cs_mldsa_pack_t1_portable(uint8_t *r, const cs_mldsa_poly *a)
{
    pack_offset(r, a, 0, 0, 10);
}

void cs_mldsa_unpack_t1_portable(cs_mldsa_poly *a, const uint8_t *r)
{
    unpack_offset(a, r, 0, 0, 10);
}

/* t0: 2^12 - t0 in 13 bits. */
void cs_mldsa_pack_t0_portable(uint8_t *r, const cs_mldsa_poly *a)
{
    pack_offset(r, a, 1 << 12, 1, 13);
}

void cs_mldsa_unpack_t0_portable(cs_mldsa_poly *a, const uint8_t *r)
{
    unpack_offset(a, r, 1 << 12, 1, 13);
}

/* s1, s2: eta - s in 3 bits (eta 2) or 4 bits (eta 4). */
void cs_mldsa_pack_eta_portable(uint8_t *r, const cs_mldsa_poly *a, unsigned eta)
{
    if (eta == 2)
        pack_offset(r, a, 2, 1, 3);
    else
        pack_offset(r, a, 4, 1, 4);
}

/* The range flag: eta - field < -eta exactly when 2*eta - field is
 * negative, so the sign bits of 2*eta - field are ORed over all fields. */
int cs_mldsa_unpack_eta_portable(cs_mldsa_poly *a, const uint8_t *r, unsigned eta)
{
    uint32_t bad = 0;
    if (eta == 2)
        unpack_offset(a, r, 2, 1, 3);
    else
        unpack_offset(a, r, 4, 1, 4);
    for (unsigned i = 0; i < 256; i++)
        bad |= (uint32_t)(a->c[i] + (int32_t)eta);
    return (int)(bad >> 31);
}

/* z: gamma1 - z in 18 bits (gamma1 = 2^17) or 20 bits (2^19). */
void cs_mldsa_pack_z_portable(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma1)
{
    if (gamma1 == (1 << 17))
        pack_offset(r, a, 1 << 17, 1, 18);
    else
        pack_offset(r, a, 1 << 19, 1, 20);
}

void cs_mldsa_unpack_z_portable(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1)
{
    if (gamma1 == (1 << 17))
        unpack_offset(a, r, 1 << 17, 1, 18);
    else
        unpack_offset(a, r, 1 << 19, 1, 20);
}

/* w1: 6 bits (gamma2 = (q-1)/88) or 4 bits ((q-1)/32). */
void cs_mldsa_pack_w1_portable(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2)
{
    if (gamma2 == (CS_MLDSA_Q - 1) / 88)
        pack_offset(r, a, 0, 0, 6);
    else
        pack_offset(r, a, 0, 0, 4);
}
