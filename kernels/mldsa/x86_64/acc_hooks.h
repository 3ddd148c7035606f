/* The pointwise_acc_mont and pointwise_acc_reduce hooks of the x86-64
 * tables (ntt_avx2.c, ntt_avx512.c), written once: c = mont(sum of n
 * products), then reduce32 when red is set, in one pass. The including
 * file defines ACC_SFX (its hooks' suffix), ACC_FIXED(c, a, b, N, red)
 * (the whole polynomial for a constant N, its loops unrolled) and
 * ACC_ANY(c, a, b, n, red) (for any n), then includes this file once. The
 * lengths the parameter sets pass (l = 4, 5, 7) get their own copies. */
static inline __attribute__((always_inline)) void acc_all(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                                          const cs_mldsa_poly *b, unsigned n,
                                                          int red)
{
    switch (n) {
    case 4: ACC_FIXED(c, a, b, 4, red); break;
    case 5: ACC_FIXED(c, a, b, 5, red); break;
    case 7: ACC_FIXED(c, a, b, 7, red); break;
    default: ACC_ANY(c, a, b, n, red); break;
    }
}

#define ACC_HOOK_(name, sfx) cs_mldsa_##name##_##sfx
#define ACC_HOOK(name, sfx) ACC_HOOK_(name, sfx)

/* The pointwise_acc_mont hook: acc_all without reduce32. */
void ACC_HOOK(pointwise_acc, ACC_SFX)(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                      const cs_mldsa_poly *b, unsigned n)
{
    acc_all(c, a, b, n, 0);
}

/* The pointwise_acc_reduce hook: the same followed by reduce32, in
 * registers. */
void ACC_HOOK(pointwise_acc_reduce, ACC_SFX)(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                             const cs_mldsa_poly *b, unsigned n)
{
    acc_all(c, a, b, n, 1);
}
