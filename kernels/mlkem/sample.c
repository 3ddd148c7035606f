/* The portable samplers of FIPS 203 4.2.2: SampleNTT (uniform, by
 * rejection from SHAKE128, for the public matrix A) and SamplePolyCBD
 * (centred binomial noise from PRF = SHAKE256, secret, branch-free). */
#include "../ct.h"
#include "mlkem_backend.h"

/* Little-endian 32 and 24 bits. */
static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t load24(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

/* Appends the 12-bit values below q of buf to r[have..255]; returns the new count. */
unsigned cs_mlkem_rej_uniform(int16_t *r, unsigned have, const uint8_t *buf, size_t len)
{
    for (size_t pos = 0; pos + 3 <= len && have < CS_MLKEM_N; pos += 3) {
        uint16_t d1 = (uint16_t)((buf[pos] | (buf[pos + 1] << 8)) & 0xFFF);
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
        if (d1 < CS_MLKEM_Q)
            r[have++] = (int16_t)d1;
        if (d2 < CS_MLKEM_Q && have < CS_MLKEM_N)
            r[have++] = (int16_t)d2;
    }
    return have;
}

/* SampleNTT(rho || x || y) on the portable Keccak: three blocks first (enough
 * almost always), then one at a time. */
static void sample_ntt(cs_mlkem_poly *p, const uint8_t rho[32], uint8_t x, uint8_t y)
{
    uint8_t ext[2] = {x, y}, buf[3 * CS_SHAKE128_RATE];
    cs_shake st;
    cs_shake_init(&st, &cs_keccak_portable, CS_SHAKE128_RATE);
    cs_shake_absorb(&st, rho, 32);
    cs_shake_absorb(&st, ext, 2);
    cs_shake_squeeze(&st, buf, sizeof buf);
    unsigned have = cs_mlkem_rej_uniform(p->c, 0, buf, sizeof buf);
    while (have < CS_MLKEM_N) {
        cs_shake_squeeze(&st, buf, CS_SHAKE128_RATE);
        have = cs_mlkem_rej_uniform(p->c, have, buf, CS_SHAKE128_RATE);
    }
}

/* A_hat[i][j] = SampleNTT(rho || j || i) into a[i*k + j] (or a[j*k + i] if transposed). */
void cs_mlkem_gen_matrix_portable(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],
                                  int transposed)
{
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < k; j++)
            if (transposed)
                sample_ntt(&a[i * k + j], rho, (uint8_t)i, (uint8_t)j);
            else
                sample_ntt(&a[i * k + j], rho, (uint8_t)j, (uint8_t)i);
}

/* SamplePolyCBD_eta of 64 eta bytes: each coefficient is the difference of
 * two eta-bit popcounts, computed for all lanes of a word at once. */
void cs_mlkem_cbd(cs_mlkem_poly *p, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) {
        for (unsigned i = 0; i < CS_MLKEM_N / 8; i++) {
            uint32_t t = load32(buf + 4 * i);
            uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
            for (unsigned j = 0; j < 8; j++) {
                int16_t a = (int16_t)((d >> (4 * j)) & 3), b = (int16_t)((d >> (4 * j + 2)) & 3);
                p->c[8 * i + j] = (int16_t)(a - b);
            }
        }
    } else {
        for (unsigned i = 0; i < CS_MLKEM_N / 4; i++) {
            uint32_t t = load24(buf + 3 * i);
            uint32_t d = (t & 0x249249u) + ((t >> 1) & 0x249249u) + ((t >> 2) & 0x249249u);
            for (unsigned j = 0; j < 4; j++) {
                int16_t a = (int16_t)((d >> (6 * j)) & 7), b = (int16_t)((d >> (6 * j + 3)) & 7);
                p->c[4 * i + j] = (int16_t)(a - b);
            }
        }
    }
}

/* r[i] = SamplePolyCBD(PRF(seed, nonce + i)), one SHAKE256 stream each. */
void cs_mlkem_sample_noise_portable(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1,
                                    unsigned eta2, const uint8_t seed[32], uint8_t nonce)
{
    uint8_t buf[64 * 3];
    for (unsigned i = 0; i < n; i++) {
        unsigned eta = i < n1 ? eta1 : eta2;
        uint8_t b = (uint8_t)(nonce + i);
        cs_shake st;
        cs_shake_init(&st, &cs_keccak_portable, CS_SHAKE256_RATE);
        cs_shake_absorb(&st, seed, 32);
        cs_shake_absorb(&st, &b, 1);
        cs_shake_squeeze(&st, buf, 64 * eta);
        cs_mlkem_cbd(&r[i], buf, eta);
        cs_wipe(&st, sizeof st);
    }
    cs_wipe(buf, sizeof buf);
}
