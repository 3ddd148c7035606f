/* What the in-process benches (bench x25519, ed25519, mlkem, mldsa) share:
 * their options, the implementations they time, the interleaved rounds and
 * the medians they report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/registry.h"
#include "cli.h"

int cli_bench_args(int argc, char **argv, unsigned *n, unsigned *rounds, unsigned max_rounds,
                   const cli_opt *opts, size_t nopts)
{
    unsigned long nv = *n, rv = *rounds;
    const cli_opt common[2] = {{"-n", 1, 1000000, &nv}, {"-r", 1, max_rounds, &rv}};
    for (int i = 1; i < argc; i++) {
        const cli_opt *o = NULL;
        for (size_t k = 0; k < 2 + nopts && !o; k++) {
            const cli_opt *c = k < 2 ? &common[k] : &opts[k - 2];
            if (!strcmp(argv[i], c->flag))
                o = c;
        }
        if (!o)
            return 0;
        if (o->hi == 0)
            *o->value = 1;
        else if (i + 1 >= argc || !cli_parse_number(argv[++i], o->lo, o->hi, o->value))
            return 0;
    }
    *n = (unsigned)nv;
    *rounds = (unsigned)rv;
    return 1;
}

unsigned cli_bench_impls(int family, const void **use, unsigned max, int width,
                         int (*fits)(const void *impl))
{
    unsigned nuse = 0;
    const void *im;
    for (unsigned k = 0; (im = cs_impl_at(family, k)) && nuse < max; k++)
        if (!cs_impl_usable(family, im) || (fits && !fits(im)))
            printf("%-*s (not usable here)\n", width, cs_impl_name(im));
        else
            use[nuse++] = im;
    return nuse;
}

/* qsort order for tick counts. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t cli_median(uint64_t *t, unsigned n)
{
    qsort(t, n, sizeof t[0], cmp_u64);
    return t[n / 2];
}

uint64_t cli_rounds_median(uint64_t *med, unsigned rounds, char *range, size_t size)
{
    uint64_t m = cli_median(med, rounds);
    snprintf(range, size, "%llu-%llu", (unsigned long long)med[0],
             (unsigned long long)med[rounds - 1]);
    return m;
}

int cli_bench_rounds(cli_bench_fn fn, void *arg, unsigned nimpl, unsigned rounds, unsigned n,
                     uint64_t *t, cli_bench_row *rows)
{
    uint64_t med[CLI_BENCH_MAX_IMPLS][CLI_BENCH_MAX_ROUNDS];
    double secs[CLI_BENCH_MAX_IMPLS] = {0};
    int failed = 0;
    for (unsigned k = 0; k < nimpl; k++)
        rows[k].failed = 0, rows[k].best = UINT64_MAX;
    for (unsigned r = 0; r < rounds; r++)
        for (unsigned k = 0; k < nimpl; k++) {
            double sec = 0;
            rows[k].failed |= fn(arg, k, n, t, &sec) != 0;
            med[k][r] = cli_median(t, n); /* sorts t: t[0] is the round's fastest */
            if (t[0] < rows[k].best)
                rows[k].best = t[0];
            secs[k] += sec;
        }
    for (unsigned k = 0; k < nimpl; k++) {
        rows[k].median = cli_rounds_median(med[k], rounds, rows[k].range, sizeof rows[k].range);
        rows[k].per_sec = secs[k] > 0 ? rounds * n / secs[k] : 0;
        failed |= rows[k].failed;
    }
    return failed;
}
