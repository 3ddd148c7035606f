/* `cryptoshim bench mldsa -k`: median time of each ML-DSA backend hook
 * (NTT, inverse NTT, each Keccak permutation form, samplers, rounding, packing) for
 * every implementation this CPU may run, side by side, so a backend's
 * gains can be traced to its pieces. TSC cycles on x86-64, else ns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa_backend.h"
#include "runtime/controls.h"
#include "runtime/registry.h"
#include "cli.h"
#include "runtime/timer.h"

#define REPS 501

/* Inputs shared by every measurement (within each hook's contract). */
struct bench_data {
    cs_mldsa_poly a, b, c, d, ch, mat[16], v[8];
    uint64_t s[200], s1[25];
    uint8_t buf[1024], seed[64];
};

enum { H_KECCAK, H_KECCAK4, H_KECCAK4X1, H_KECCAK8, H_KECCAK8X1, H_NTT, H_INVNTT, H_ACC4,
       H_MULCH, H_DECOMP, H_HINT, H_REJU, H_EXPA, H_EXPS, H_EXPM, H_UNPACKZ, H_PACKW1, H_COUNT };
static const char *const hook_names[H_COUNT] = {
    "keccakf1600", "keccakf1600_x4", "keccakf1600_x4x1", "keccakf1600_x8", "keccakf1600_x8x1",
    "ntt", "invntt_tomont", "pointwise_acc (4)",
    "mul_challenge (tau 39)", "decompose", "make_hint", "rej_uniform (840 B)",
    "expand_a (4x4)", "expand_s (44)", "expand_mask (44)", "unpack_z (2^17)", "pack_w1 (44)",
};

/* One call of hook h. */
static void call(const cs_mldsa_impl *im, struct bench_data *d, int h)
{
    const int32_t g2 = (CS_MLDSA_Q - 1) / 88;
    switch (h) {
    case H_KECCAK: im->keccak->f1600(d->s); break;
    case H_KECCAK4: im->keccak->f1600_x4(d->s); break;
    case H_KECCAK4X1: im->keccak->f1600_x4x1(d->s, d->s1); break;
    case H_KECCAK8: im->keccak->f1600_x8(d->s); break;
    case H_KECCAK8X1: im->keccak->f1600_x8x1(d->s, d->s1); break;
    case H_NTT: d->c = d->a, im->ntt(&d->c); break;
    case H_INVNTT: d->c = d->a, im->invntt_tomont(&d->c); break;
    case H_ACC4: im->pointwise_acc_mont(&d->c, d->mat, d->v, 4); break;
    case H_MULCH: im->mul_challenge(&d->c, &d->ch, &d->a); break;
    case H_DECOMP: im->decompose(&d->c, &d->d, &d->a, g2); break;
    case H_HINT: im->make_hint(&d->c, &d->b, &d->d, g2); break;
    case H_REJU: im->rej_uniform(d->c.c, 256, d->buf, 840); break;
    case H_EXPA: im->expand_a(im, d->mat, d->seed, 4, 4); break;
    case H_EXPS: im->expand_s(im, d->v, d->v + 4, d->seed, 4, 4, 2); break;
    case H_EXPM: im->expand_mask(im, d->v, d->seed, 0, 4, 1 << 17); break;
    case H_UNPACKZ: im->unpack_z(&d->c, d->buf, 1 << 17); break;
    default: im->pack_w1(d->buf, &d->b, g2); break;
    }
}

/* Whether impl has hook h (the Keccak forms other than x1 are optional). */
static int has_hook(const cs_mldsa_impl *im, int h)
{
    const cs_keccak_impl *k = im->keccak;
    switch (h) {
    case H_KECCAK4: return k->f1600_x4 != NULL;
    case H_KECCAK4X1: return k->f1600_x4x1 != NULL;
    case H_KECCAK8: return k->f1600_x8 != NULL;
    case H_KECCAK8X1: return k->f1600_x8x1 != NULL;
    default: return 1;
    }
}

int cli_bench_mldsa_hooks(void)
{
    static struct bench_data d;
    static uint64_t t[REPS];
    const cs_mldsa_impl *use[8];
    unsigned n = 0;
    for (unsigned i = 0; cs_mldsa_impls[i] && n < 8; i++) {
        if (cs_impl_usable(CS_IMPL_MLDSA, cs_mldsa_impls[i]))
            use[n++] = cs_mldsa_impls[i];
    }
    for (unsigned i = 0; i < 256; i++) {
        d.a.c[i] = (int32_t)((i * 7919u) % CS_MLDSA_Q) - CS_MLDSA_Q / 2;
        d.b.c[i] = (int32_t)(i % 43);
        d.ch.c[i] = i % 6 == 0 && i < 6 * 39 ? (i & 8 ? 1 : -1) : 0;
        for (unsigned j = 0; j < 8; j++)
            d.v[j].c[i] = (int32_t)((i * 31u + j) % CS_MLDSA_Q);
        for (unsigned j = 0; j < 16; j++)
            d.mat[j].c[i] = (int32_t)((i * 17u + j) % CS_MLDSA_Q);
    }
    for (unsigned i = 0; i < sizeof d.buf; i++)
        d.buf[i] = (uint8_t)(i * 151u);
    printf("%-24s", "hook (median " CS_TIMER_TICK_UNIT ")");
    for (unsigned k = 0; k < n; k++)
        printf(" %10s", cs_mldsa_impl_name(use[k]));
    printf("\n");
    for (int h = 0; h < H_COUNT; h++) {
        printf("%-24s", hook_names[h]);
        for (unsigned k = 0; k < n; k++) {
            if (!has_hook(use[k], h)) {
                printf(" %10s", "-");
                continue;
            }
            for (unsigned r = 0; r < REPS; r++) {
                uint64_t t0 = cs_timer_ticks();
                call(use[k], &d, h);
                t[r] = cs_timer_ticks() - t0;
            }
            printf(" %10llu", (unsigned long long)cli_median(t, REPS));
        }
        printf("\n");
    }
    return 0;
}
