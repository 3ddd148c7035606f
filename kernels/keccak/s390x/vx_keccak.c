/* Keccak-f[1600] on two and four states with the z13 vector facility
 * (built with -march=z13 -mzvector: two 64-bit lanes per register, rotates
 * by element rotate, chi by AND with complement). The same template and
 * interleaved layouts as the portable 2-way code (kernels/keccak/x2.c),
 * which the distribution baseline (no vector facility) compiles into
 * scalar pairs no faster than the scalar permutation. Also the s390x
 * vector Keccak table. */
#include <string.h>

#include "../keccak_internal.h"

typedef uint64_t v2 __attribute__((vector_size(16)));

/* Two lanes at p (memcpy: vector loads need no alignment here). */
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
#define KECCAK_ROUNDS_FN keccakf1600_vx_pair
#define KT v2
#define KLD(i) ld2(s + 2 * (i))
#define KST(i, v) st2(s + 2 * (i), (v))
#define KRC(i) ((v2){cs_keccak_rc[i], cs_keccak_rc[i]})
#include "../f1600_rounds.h"

/* A pair inside the 4-way layout (lane i at s[4 * i]). */
#define KECCAK_ROUNDS_FN keccakf1600_vx_pair_in4
#define KT v2
#define KLD(i) ld2(s + 4 * (i))
#define KST(i, v) st2(s + 4 * (i), (v))
#define KRC(i) ((v2){cs_keccak_rc[i], cs_keccak_rc[i]})
#include "../f1600_rounds.h"

void cs_keccakf1600_x2_s390x_vx(uint64_t s[50])
{
    keccakf1600_vx_pair(s);
}

/* Four permutations, interleaved lanes (s[4*i + j] = lane i of state j):
 * states 0,1 then 2,3. */
void cs_keccakf1600_x4_s390x_vx(uint64_t s[100])
{
    keccakf1600_vx_pair_in4(s);
    keccakf1600_vx_pair_in4(s + 2);
}

/* The scalar permutation stays portable; the multi-state forms in vector
 * registers (the ML-DSA samplers' four streams). */
const cs_keccak_impl cs_keccak_s390x_vx = {
    .name = "s390x_vx",
    .cpu_features = CS_CPU_S390_VX,
    .f1600 = cs_keccakf1600_portable,
    .f1600_x2 = cs_keccakf1600_x2_s390x_vx,
    .f1600_x4 = cs_keccakf1600_x4_s390x_vx,
};
