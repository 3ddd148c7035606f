/* The portable Keccak-f[1600] (f1600_rounds.h on uint64_t lanes), the
 * round constants every permutation uses, and the de-interleaving 4-way
 * reference the tests compare the SIMD forms with. */
#include "keccak_internal.h"

/* Round constants (keccak_internal.h). */
const uint64_t cs_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define KECCAK_ROUNDS_FN keccakf1600_scalar
#define KT uint64_t
#define KLD(i) s[i]
#define KST(i, v) (s[i] = (v))
#define KRC(i) cs_keccak_rc[i]
#include "f1600_rounds.h"

/* One Keccak-f[1600] permutation of s (lane x + 5y = s[x + 5y]). */
void cs_keccakf1600_portable(uint64_t s[25])
{
    keccakf1600_scalar(s);
}

/* Four permutations on interleaved lanes (s[4*i + j] = lane i of state j):
 * de-interleaves and runs the single-state code, for backends without a
 * SIMD version and as the reference in tests. */
void cs_keccakf1600_x4_portable(uint64_t s[100])
{
    uint64_t t[25];
    for (unsigned j = 0; j < 4; j++) {
        for (unsigned i = 0; i < 25; i++)
            t[i] = s[4 * i + j];
        cs_keccakf1600_portable(t);
        for (unsigned i = 0; i < 25; i++)
            s[4 * i + j] = t[i];
    }
}
