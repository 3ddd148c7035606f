/* One word-serial Montgomery row over 16 limbs (1024 bits) as inline
 * assembly, for the mixed-pair prototype (mix_proto.c): the scalar half's rows are
 * placed between the vector half's blocks in one instruction stream, so
 * they must not clobber vector registers or need a call. MULX with two
 * carry chains (ADCX low words, ADOX high words); needs -mbmi2 -madx.
 * Prototype only: no kernel uses it (see mix_proto.sh for why). */
#ifndef CRYPTOSHIM_TOOLS_BENCH_MIX_ROW_H
#define CRYPTOSHIM_TOOLS_BENCH_MIX_ROW_H

#include <stdint.h>

#define MIX_N 16

#define MIX_S_(x) #x
#define MIX_S(x) MIX_S_(x)

/* t_j += lo(a_j b) + hi(a_{j-1} b): product j's high word into HN, the
 * previous one's (HP) added on the OF chain. */
#define MIX_RA(j, HP, HN)                                                                  \
    "mulx " MIX_S(j) "*8(%[a]), %%rax, %[" HN "]\n\t"                                      \
    "mov " MIX_S(j) "*8(%[t]), %[x]\n\t"                                                   \
    "adcx %%rax, %[x]\n\t"                                                                 \
    "adox %[" HP "], %[x]\n\t"                                                             \
    "mov %[x], " MIX_S(j) "*8(%[t])\n\t"
/* As MIX_RA with m and q, the word stored one down (t moves down a word). */
#define MIX_RM(j, jm, HP, HN)                                                              \
    "mulx " MIX_S(j) "*8(%[m]), %%rax, %[" HN "]\n\t"                                      \
    "mov " MIX_S(j) "*8(%[t]), %[x]\n\t"                                                   \
    "adcx %%rax, %[x]\n\t"                                                                 \
    "adox %[" HP "], %[x]\n\t"                                                             \
    "mov %[x], " MIX_S(jm) "*8(%[t])\n\t"

/* t (18 words; t[0..16] below 2m, t[17] scratch) = (t + a b + q m) / 2^64
 * for q = (t_0 + a_0 b) n0 mod 2^64, a < m of 16 limbs: again below 2m.
 * No branch or address depends on the values. */
static inline __attribute__((always_inline)) void mix_row(uint64_t *t, const uint64_t *a,
                                                          uint64_t b, const uint64_t *m,
                                                          uint64_t n0)
{
    uint64_t x, h0, h1;
    /* The memory the rows touch, as operands (no "memory" clobber: the
     * compiler keeps the other half's registers live across a row). */
    struct w18 { uint64_t w[18]; } *tm = (struct w18 *)t;
    const struct w16 { uint64_t w[16]; } *am = (const struct w16 *)a, *mm = (const struct w16 *)m;
    __asm__(
        "xor %k[h0], %k[h0]\n\t" /* CF = OF = 0, no high word yet */
        MIX_RA(0, "h0", "h1") MIX_RA(1, "h1", "h0") MIX_RA(2, "h0", "h1")
        MIX_RA(3, "h1", "h0") MIX_RA(4, "h0", "h1") MIX_RA(5, "h1", "h0")
        MIX_RA(6, "h0", "h1") MIX_RA(7, "h1", "h0") MIX_RA(8, "h0", "h1")
        MIX_RA(9, "h1", "h0") MIX_RA(10, "h0", "h1") MIX_RA(11, "h1", "h0")
        MIX_RA(12, "h0", "h1") MIX_RA(13, "h1", "h0") MIX_RA(14, "h0", "h1")
        MIX_RA(15, "h1", "h0")
        "mov $0, %%eax\n\t"
        "mov 128(%[t]), %[x]\n\t" /* t16 += CF + last high + OF */
        "adcx %%rax, %[x]\n\t"
        "adox %[h0], %[x]\n\t"
        "mov %[x], 128(%[t])\n\t"
        "mov $0, %k[x]\n\t"
        "adcx %%rax, %[x]\n\t"
        "adox %%rax, %[x]\n\t"
        "mov %[x], 136(%[t])\n\t" /* t17 */
        "mov (%[t]), %%rdx\n\t"
        "imul %[n0], %%rdx\n\t" /* q */
        "xor %k[h0], %k[h0]\n\t"
        "mulx (%[m]), %%rax, %[h1]\n\t"
        "mov (%[t]), %[x]\n\t"
        "adcx %%rax, %[x]\n\t" /* zero: only the carry stays */
        MIX_RM(1, 0, "h1", "h0") MIX_RM(2, 1, "h0", "h1") MIX_RM(3, 2, "h1", "h0")
        MIX_RM(4, 3, "h0", "h1") MIX_RM(5, 4, "h1", "h0") MIX_RM(6, 5, "h0", "h1")
        MIX_RM(7, 6, "h1", "h0") MIX_RM(8, 7, "h0", "h1") MIX_RM(9, 8, "h1", "h0")
        MIX_RM(10, 9, "h0", "h1") MIX_RM(11, 10, "h1", "h0") MIX_RM(12, 11, "h0", "h1")
        MIX_RM(13, 12, "h1", "h0") MIX_RM(14, 13, "h0", "h1") MIX_RM(15, 14, "h1", "h0")
        "mov $0, %%eax\n\t"
        "mov 128(%[t]), %[x]\n\t" /* t15 = t16 + CF + last high + OF */
        "adcx %%rax, %[x]\n\t"
        "adox %[h0], %[x]\n\t"
        "mov %[x], 120(%[t])\n\t"
        "mov 136(%[t]), %[x]\n\t" /* t16 = t17 + CF + OF */
        "adcx %%rax, %[x]\n\t"
        "adox %%rax, %[x]\n\t"
        "mov %[x], 128(%[t])\n\t"
        : [x] "=&r"(x), [h0] "=&r"(h0), [h1] "=&r"(h1), "+d"(b), "+m"(*tm)
        : [t] "r"(t), [a] "r"(a), [m] "r"(m), [n0] "r"(n0), "m"(*am), "m"(*mm)
        : "rax", "cc");
}

#endif
