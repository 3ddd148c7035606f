/* The portable coders of FIPS 203 4.2.1: ByteEncode_12/ByteDecode_12 and
 * Compress_d/Decompress_d with ByteEncode_d/ByteDecode_d for the
 * ciphertext's d = 4, 5, 10, 11. Division by q is a multiplication (no
 * divide instruction, whose time may depend on the operands). */
#include "mlkem_backend.h"

/* c mod q in [0, q) for |c| < q, without a branch. */
static uint16_t canon(int16_t c)
{
    c = (int16_t)(c + ((c >> 15) & CS_MLKEM_Q));
    return (uint16_t)c;
}

/* Compress_d(x) = round(2^d x / q) mod 2^d for x in [0, q): floor((2^d x + 1664) / q),
 * the quotient by multiplying with ceil(2^40 / q), exact below 2^23 (checked for every
 * x and d by tests/unit/kernel_mlkem.c). */
static uint32_t compress1(uint16_t x, unsigned d)
{
    uint64_t t = ((uint64_t)x << d) + 1664;
    return (uint32_t)((t * 330282857u) >> 40) & ((1u << d) - 1);
}

/* ByteEncode_12 of p mod q, |c| < q. */
void cs_mlkem_tobytes_portable(uint8_t out[CS_MLKEM_POLY_BYTES], const cs_mlkem_poly *p)
{
    for (unsigned i = 0; i < CS_MLKEM_N / 2; i++) {
        uint16_t a = canon(p->c[2 * i]), b = canon(p->c[2 * i + 1]);
        out[3 * i] = (uint8_t)a;
        out[3 * i + 1] = (uint8_t)((a >> 8) | (b << 4));
        out[3 * i + 2] = (uint8_t)(b >> 4);
    }
}

/* The 12-bit values of in, unreduced (in [0, 4096)). */
void cs_mlkem_frombytes_portable(cs_mlkem_poly *p, const uint8_t in[CS_MLKEM_POLY_BYTES])
{
    for (unsigned i = 0; i < CS_MLKEM_N / 2; i++) {
        p->c[2 * i] = (int16_t)((in[3 * i] | (in[3 * i + 1] << 8)) & 0xFFF);
        p->c[2 * i + 1] = (int16_t)((in[3 * i + 1] >> 4) | (in[3 * i + 2] << 4));
    }
}

/* ByteEncode_d(Compress_d(p)), little-endian bit packing of d-bit values, 32 d bytes. */
void cs_mlkem_compress_portable(uint8_t *out, const cs_mlkem_poly *p, unsigned d)
{
    uint32_t acc = 0;
    unsigned bits = 0;
    for (unsigned i = 0; i < CS_MLKEM_N; i++) {
        acc |= compress1(canon(p->c[i]), d) << bits;
        bits += d;
        while (bits >= 8) {
            *out++ = (uint8_t)acc;
            acc >>= 8;
            bits -= 8;
        }
    }
}

/* Decompress_d(ByteDecode_d(in)): round(q y / 2^d) = (q y + 2^(d-1)) >> d. */
void cs_mlkem_decompress_portable(cs_mlkem_poly *p, const uint8_t *in, unsigned d)
{
    uint32_t acc = 0;
    unsigned bits = 0;
    for (unsigned i = 0; i < CS_MLKEM_N; i++) {
        while (bits < d) {
            acc |= (uint32_t)*in++ << bits;
            bits += 8;
        }
        uint32_t y = acc & ((1u << d) - 1);
        acc >>= d;
        bits -= d;
        p->c[i] = (int16_t)((y * CS_MLKEM_Q + (1u << (d - 1))) >> d);
    }
}
