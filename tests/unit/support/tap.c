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
