/* Keccak-f[1600] on two and four states with GCC/clang vector extensions
 * (two 64-bit lanes per 128-bit vector), as a template: the rounds of
 * f1600_rounds.h on the 2-way interleaved layout (s[2*i + j]) and on the
 * pairs of states 0,1 and 2,3 of the 4-way one (s[4*i + j]), whose lane i
 * of each pair already sits side by side, so no shuffling is needed. The
 * includer (x2.c: SSE2 on x86-64, scalar pairs elsewhere; s390x/
 * vx_keccak.c: z13 VX) defines KECCAK_X2_FN and KECCAK_X4_FN, the names
 * of the two- and four-state functions to define. */
#include <string.h>

#include "keccak_internal.h"

typedef uint64_t v2 __attribute__((vector_size(16)));

/* Loads and stores two lanes at p (memcpy: p need not be 16-byte aligned). */
static inline v2 ld2(const uint64_t *p)
{
    v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st2(uint64_t *p, v2 v)
{
    memcpy(p, &v, sizeof v);
}

/* Lane i of the pair at s[2 * i] (the 2-way layout). */
#define KECCAK_ROUNDS_FN keccakf1600_pair
#define KT v2
#define KLD(i) ld2(s + 2 * (i))
#define KST(i, v) st2(s + 2 * (i), (v))
#define KRC(i) ((v2){cs_keccak_rc[i], cs_keccak_rc[i]})
#include "f1600_rounds.h"

/* The same rounds on a pair inside the 4-way layout (lane i at s[4 * i]). */
#define KECCAK_ROUNDS_FN keccakf1600_pair_in4
#define KT v2
#define KLD(i) ld2(s + 4 * (i))
#define KST(i, v) st2(s + 4 * (i), (v))
#define KRC(i) ((v2){cs_keccak_rc[i], cs_keccak_rc[i]})
#include "f1600_rounds.h"

/* Two permutations, interleaved lanes (s[2*i + j] = lane i of state j). */
void KECCAK_X2_FN(uint64_t s[50])
{
    keccakf1600_pair(s);
}

/* Four permutations, interleaved lanes (s[4*i + j] = lane i of state j):
 * states 0,1 then 2,3. */
void KECCAK_X4_FN(uint64_t s[100])
{
    keccakf1600_pair_in4(s);
    keccakf1600_pair_in4(s + 2);
}
