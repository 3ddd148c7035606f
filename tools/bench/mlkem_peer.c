/* Our ML-KEM kernels beside a peer implementation in one interleaved run:
 * per parameter set and operation, ROUNDS rounds in which every kernel this
 * CPU runs and the peer take turns at N calls each; the median of the
 * round medians in TSC cycles and the rounds' range. First it checks that
 * the peer gives our bytes (ek, dk, ciphertext, shared secret) for the same
 * d || z and m. The peer is linked in from outside the tree: any library
 * exporting, per set NNN of 512, 768, 1024,
 *   int mlknNNN_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t dz[64]);
 *   int mlknNNN_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *ek, const uint8_t m[32]);
 *   int mlknNNN_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *dk);
 * (the FIPS 203 derandomized API under that prefix, e.g. mlkem-native built by hand under
 * build/peers/ with MLK_CONFIG_NAMESPACE_PREFIX=mlknNNN). `make bench-tools` compiles it
 * (build/bench/mlkem_peer.o); link by hand:
 *   cc build/bench/mlkem_peer.o build/libcryptoshim_core.a PEER_OBJECTS -o build/mlkem_peer
 * Usage: mlkem_peer [N [ROUNDS]]; run it under flock /tmp/cryptoshim-bench.lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "runtime/cpu.h"
#include "runtime/timer.h"

#define PEER_DECL(NNN)                                                                       \
    int mlkn##NNN##_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t dz[64]);          \
    int mlkn##NNN##_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *ek,                  \
                               const uint8_t m[32]);                                          \
    int mlkn##NNN##_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *dk);
PEER_DECL(512)
PEER_DECL(768)
PEER_DECL(1024)

typedef struct peer {
    int (*keygen)(uint8_t *, uint8_t *, const uint8_t *);
    int (*encaps)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
} peer;

static const peer peers[3] = {
    {mlkn512_keypair_derand, mlkn512_enc_derand, mlkn512_dec},
    {mlkn768_keypair_derand, mlkn768_enc_derand, mlkn768_dec},
    {mlkn1024_keypair_derand, mlkn1024_enc_derand, mlkn1024_dec},
};
static const int sets[3] = {512, 768, 1024};

#define MAX_ROUNDS 15
#define KERNELS 8 /* ours, then the peer */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One call of op (0 keygen, 1 encaps, 2 decaps) by kernel im, or by the peer when im is NULL. */
static void call(const cs_mlkem_impl *im, unsigned s, int op, uint8_t *ek, uint8_t *dk,
                 uint8_t *ct, uint8_t *ss, const uint8_t dz[64], const uint8_t m[32])
{
    const peer *p = &peers[s];
    if (op == 0)
        im ? im->keygen(sets[s], ek, dk, dz, dz + 32) : p->keygen(ek, dk, dz);
    else if (op == 1)
        im ? im->encaps(sets[s], ct, ss, ek, m) : p->encaps(ct, ss, ek, m);
    else
        im ? im->decaps(sets[s], ss, ct, dk) : p->decaps(ss, ct, dk);
}

/* The peer's bytes against portable's for a few seeds of set s. */
static int same_bytes(unsigned s)
{
    uint8_t ek[2][1568], dk[2][3168], ct[2][1568], ss[2][32], ss2[32], dz[64], m[32];
    int ps = sets[s];
    for (unsigned t = 0; t < 20; t++) {
        for (unsigned i = 0; i < 64; i++)
            dz[i] = (uint8_t)(t * 31 + i * 7);
        for (unsigned i = 0; i < 32; i++)
            m[i] = (uint8_t)(t * 17 + i * 3);
        call(&cs_mlkem_portable, s, 0, ek[0], dk[0], NULL, NULL, dz, m);
        call(NULL, s, 0, ek[1], dk[1], NULL, NULL, dz, m);
        call(&cs_mlkem_portable, s, 1, ek[0], NULL, ct[0], ss[0], dz, m);
        call(NULL, s, 1, ek[0], NULL, ct[1], ss[1], dz, m);
        call(NULL, s, 2, NULL, dk[0], ct[0], ss2, dz, m);
        if (memcmp(ek[0], ek[1], cs_mlkem_ek_bytes(ps)) || memcmp(dk[0], dk[1], cs_mlkem_dk_bytes(ps)) ||
            memcmp(ct[0], ct[1], cs_mlkem_ct_bytes(ps)) || memcmp(ss[0], ss[1], 32) ||
            memcmp(ss2, ss[0], 32))
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
    if (n < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: mlkem_peer [N [ROUNDS (1-%d)]]\n", MAX_ROUNDS);
        return 2;
    }
    const cs_mlkem_impl *use[KERNELS];
    const char *names[KERNELS];
    unsigned nk = 0;
    uint32_t have = cs_cpu_probe();
    for (unsigned k = 0; cs_mlkem_impls[k] && nk < KERNELS - 1; k++)
        if ((cs_mlkem_impls[k]->cpu_features & have) == cs_mlkem_impls[k]->cpu_features &&
            cs_mlkem_impls[k] != &cs_mlkem_portable) {
            use[nk] = cs_mlkem_impls[k];
            names[nk++] = cs_mlkem_impls[k]->name;
        }
    use[nk] = NULL, names[nk++] = "peer";
    uint64_t *t = malloc(n * sizeof *t);
    static const char *const ops[3] = {"keygen", "encaps", "decaps"};
    printf("%-8s %-8s %-7s %12s %20s\n", "kernel", "set", "op", "median cycles", "range");
    for (unsigned s = 0; s < 3; s++) {
        if (!same_bytes(s)) {
            printf("peer: ML-KEM-%d bytes differ from portable\n", sets[s]);
            return 1;
        }
        for (int op = 0; op < 3; op++) {
            uint64_t med[KERNELS][MAX_ROUNDS];
            for (unsigned r = 0; r < rounds; r++)
                for (unsigned k = 0; k < nk; k++) {
                    static uint8_t ek[1568], dk[3168], ct[1568];
                    uint8_t dz[64] = {1, 2}, m[32] = {3}, ss[32];
                    call(use[k], s, 0, ek, dk, ct, ss, dz, m);
                    call(use[k], s, 1, ek, dk, ct, ss, dz, m);
                    for (unsigned i = 0; i < n; i++) {
                        dz[2] = m[2] = (uint8_t)i, dz[3] = m[3] = (uint8_t)(i >> 8);
                        uint64_t t0 = cs_timer_ticks();
                        call(use[k], s, op, ek, dk, ct, ss, dz, m);
                        t[i] = cs_timer_ticks() - t0;
                    }
                    qsort(t, n, sizeof t[0], cmp_u64);
                    med[k][r] = t[n / 2];
                }
            for (unsigned k = 0; k < nk; k++) {
                qsort(med[k], rounds, sizeof med[k][0], cmp_u64);
                char set[16], range[40];
                snprintf(set, sizeof set, "%d", sets[s]);
                snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)med[k][0],
                         (unsigned long long)med[k][rounds - 1]);
                printf("%-8s %-8s %-7s %12llu %20s\n", names[k], set, ops[op],
                       (unsigned long long)med[k][rounds / 2], range);
            }
        }
    }
    free(t);
    return 0;
}
