#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned tap_count, tap_failed;

static void tap_line(const char *prefix, const char *fmt, va_list ap)
{
    printf("%s %u - ", prefix, ++tap_count);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
}

int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_line(cond ? "ok" : "not ok", fmt, ap);
    va_end(ap);
    if (!cond)
        tap_failed++;
    return cond;
}

void tap_skip(const char *fmt, ...)
{
    va_list ap;
    printf("ok %u # skip ", ++tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;
    fputs("# ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

int tap_done(void)
{
    printf("1..%u\n", tap_count);
    return tap_failed ? 1 : 0;
}

const char *tap_vectors_dir(void)
{
    const char *v = getenv("VECTORS");
    return v && *v ? v : "tests/vectors";
}

char *tap_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (cap + 65536) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long tap_unhex(uint8_t *out, size_t cap, const char *hex, size_t hexlen)
{
    if (hexlen % 2 || hexlen / 2 > cap)
        return -1;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(hexlen / 2);
}

void tap_hex(char *out, const uint8_t *in, size_t len)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * len] = 0;
}

static uint64_t rng_s[4] = {1, 2, 3, 4};

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void tap_rng_seed(uint64_t seed)
{
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        seed += 0x9e3779b97f4a7c15ULL;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        rng_s[i] = z ^ (z >> 31);
    }
}

uint64_t tap_rng_u64(void)
{
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0];
    rng_s[3] ^= rng_s[1];
    rng_s[1] ^= rng_s[2];
    rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t;
    rng_s[3] = rotl(rng_s[3], 45);
    return r;
}

void tap_rng_bytes(uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = tap_rng_u64();
        for (size_t j = 0; j < 8 && i + j < len; j++)
            out[i + j] = (uint8_t)(v >> (8 * j));
    }
}
