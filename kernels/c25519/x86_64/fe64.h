/* x86-64 field arithmetic modulo p = 2^255 - 19 for curve_impl.h: four
 * 64-bit limbs holding any value below 2^256 (not necessarily below p),
 * products by MULX on two carry chains (ADCX on CF, ADOX on OF) and the
 * high half folded in by 2^256 = 38 (mod p). Inline assembly, so every
 * operation inlines into the templates; run only where BMI2 and ADX are
 * present (the table's cpu_features).
 *
 * Bounds: every input and output is a full 4-limb value below 2^256, so
 * any chain of calls is valid. Constant time: the only data-dependent
 * operations are carries (sbb masks), never a branch or an index. */
#ifndef CRYPTOSHIM_C25519_FE64_H
#define CRYPTOSHIM_C25519_FE64_H

#include <stdint.h>
#include <string.h>

typedef struct {
    uint64_t v[4];
} fe;

static inline __attribute__((always_inline)) void fe_0(fe *h)
{
    memset(h, 0, sizeof(*h));
}

static inline __attribute__((always_inline)) void fe_1(fe *h)
{
    fe_0(h);
    h->v[0] = 1;
}

static inline __attribute__((always_inline)) void fe_copy(fe *h, const fe *f)
{
    *h = *f;
}

/* Folds the 8-word product in r8..r15 into four words below 2^255 + 2^11:
 * lo + 38 hi (a fifth word in r12), then the bits from 255 up times 19
 * (2^255 = 19 mod p), so nothing carries out. Uses rax and rcx as
 * temporaries and rdx. */
#define FE64_REDUCE                                                                    \
    "movl $38, %%edx\n\t"                                                              \
    "xorl %%ecx, %%ecx\n\t"                                                            \
    "mulx %%r12, %%rax, %%r12\n\t"                                                     \
    "adcx %%rax, %%r8\n\t"                                                             \
    "adox %%r12, %%r9\n\t"                                                             \
    "mulx %%r13, %%rax, %%r12\n\t"                                                     \
    "adcx %%rax, %%r9\n\t"                                                             \
    "adox %%r12, %%r10\n\t"                                                            \
    "mulx %%r14, %%rax, %%r12\n\t"                                                     \
    "adcx %%rax, %%r10\n\t"                                                            \
    "adox %%r12, %%r11\n\t"                                                            \
    "mulx %%r15, %%rax, %%r12\n\t"                                                     \
    "adcx %%rax, %%r11\n\t"                                                            \
    "adox %%rcx, %%r12\n\t"                                                            \
    "adcx %%rcx, %%r12\n\t"                                                            \
    "movq %%r11, %%rax\n\t"                                                            \
    "shrq $63, %%rax\n\t"                                                              \
    "leaq (%%rax,%%r12,2), %%r12\n\t"                                                  \
    "btrq $63, %%r11\n\t"                                                              \
    "leaq (%%r12,%%r12,8), %%rax\n\t"                                                  \
    "leaq (%%r12,%%rax,2), %%r12\n\t"                                                  \
    "addq %%r12, %%r8\n\t"                                                             \
    "adcq $0, %%r9\n\t"                                                                \
    "adcq $0, %%r10\n\t"                                                               \
    "adcq $0, %%r11\n\t"

#define FE64_STORE(h)                                                                  \
    "movq %%r8, 0(%" h ")\n\t"                                                         \
    "movq %%r9, 8(%" h ")\n\t"                                                         \
    "movq %%r10, 16(%" h ")\n\t"                                                       \
    "movq %%r11, 24(%" h ")\n\t"

/* One row of the product: r_i..r_{i+3} += a * b_i (rdx = b_i), r_{i+4} the
 * row's top word; CF and OF clear on entry. */
#define FE64_ROW(a, ri, ri1, ri2, ri3, ri4)                                            \
    "mulx 0(%" a "), %%rax, %%rcx\n\t"                                                 \
    "adcx %%rax, " ri "\n\t"                                                           \
    "adox %%rcx, " ri1 "\n\t"                                                          \
    "mulx 8(%" a "), %%rax, %%rcx\n\t"                                                 \
    "adcx %%rax, " ri1 "\n\t"                                                          \
    "adox %%rcx, " ri2 "\n\t"                                                          \
    "mulx 16(%" a "), %%rax, %%rcx\n\t"                                                \
    "adcx %%rax, " ri2 "\n\t"                                                          \
    "adox %%rcx, " ri3 "\n\t"                                                          \
    "mulx 24(%" a "), %%rax, " ri4 "\n\t"                                              \
    "adcx %%rax, " ri3 "\n\t"                                                          \
    "movl $0, %%eax\n\t"                                                               \
    "adox %%rax, " ri4 "\n\t"                                                          \
    "adcx %%rax, " ri4 "\n\t"

#define FE64_CLOBBERS "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory"

static inline __attribute__((always_inline)) void fe_mul(fe *h, const fe *f, const fe *g)
{
    __asm__ volatile(
        /* row 0 on one chain */
        "movq 0(%[g]), %%rdx\n\t"
        "mulx 0(%[f]), %%r8, %%r9\n\t"
        "mulx 8(%[f]), %%rax, %%r10\n\t"
        "addq %%rax, %%r9\n\t"
        "mulx 16(%[f]), %%rax, %%r11\n\t"
        "adcq %%rax, %%r10\n\t"
        "mulx 24(%[f]), %%rax, %%r12\n\t"
        "adcq %%rax, %%r11\n\t"
        "adcq $0, %%r12\n\t"
        /* rows 1..3 on two chains */
        "movq 8(%[g]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        FE64_ROW("[f]", "%%r9", "%%r10", "%%r11", "%%r12", "%%r13")
        "movq 16(%[g]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        FE64_ROW("[f]", "%%r10", "%%r11", "%%r12", "%%r13", "%%r14")
        "movq 24(%[g]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        FE64_ROW("[f]", "%%r11", "%%r12", "%%r13", "%%r14", "%%r15")
        FE64_REDUCE
        FE64_STORE("[h]")
        :
        : [h] "r"(h), [f] "r"(f), [g] "r"(g)
        : FE64_CLOBBERS);
}

/* The six cross products once (CF and OF chains), then doubled on the CF
 * chain while the four squares are added on the OF chain. */
#define FE64_SQ_BODY(f) \
    "movq 0(%" f "), %%rdx\n\t" \
    "xorl %%ecx, %%ecx\n\t" \
    "mulx 8(%" f "), %%r9, %%rax\n\t" \
    "mulx 16(%" f "), %%r10, %%r13\n\t" \
    "adcx %%rax, %%r10\n\t" \
    "mulx 24(%" f "), %%r11, %%r12\n\t" \
    "adcx %%r13, %%r11\n\t" \
    "adcx %%rcx, %%r12\n\t" \
    "movq 8(%" f "), %%rdx\n\t" \
    "mulx 16(%" f "), %%rax, %%r13\n\t" \
    "adox %%rax, %%r11\n\t" \
    "adcx %%r13, %%r12\n\t" \
    "mulx 24(%" f "), %%rax, %%r13\n\t" \
    "adox %%rax, %%r12\n\t" \
    "adcx %%rcx, %%r13\n\t" \
    "movq 16(%" f "), %%rdx\n\t" \
    "mulx 24(%" f "), %%rax, %%r14\n\t" \
    "adox %%rax, %%r13\n\t" \
    "adcx %%rcx, %%r14\n\t" \
    "adox %%rcx, %%r14\n\t" \
    "movq 0(%" f "), %%rdx\n\t" \
    "mulx %%rdx, %%r8, %%rax\n\t" \
    "adcx %%r9, %%r9\n\t" \
    "adox %%rax, %%r9\n\t" \
    "movq 8(%" f "), %%rdx\n\t" \
    "mulx %%rdx, %%rax, %%r15\n\t" \
    "adcx %%r10, %%r10\n\t" \
    "adox %%rax, %%r10\n\t" \
    "adcx %%r11, %%r11\n\t" \
    "adox %%r15, %%r11\n\t" \
    "movq 16(%" f "), %%rdx\n\t" \
    "mulx %%rdx, %%rax, %%r15\n\t" \
    "adcx %%r12, %%r12\n\t" \
    "adox %%rax, %%r12\n\t" \
    "adcx %%r13, %%r13\n\t" \
    "adox %%r15, %%r13\n\t" \
    "movq 24(%" f "), %%rdx\n\t" \
    "mulx %%rdx, %%rax, %%r15\n\t" \
    "adcx %%r14, %%r14\n\t" \
    "adox %%rax, %%r14\n\t" \
    "adcx %%rcx, %%r15\n\t" \
    "adox %%rcx, %%r15\n\t"

static inline __attribute__((always_inline)) void fe_sq(fe *h, const fe *f)
{
    __asm__ volatile(FE64_SQ_BODY("[f]") FE64_REDUCE FE64_STORE("[h]")
                     :
                     : [h] "r"(h), [f] "r"(f)
                     : FE64_CLOBBERS);
}

/* h = f^(2^n), n >= 1: the square's result stays in h between rounds. */
#define FE_HAVE_SQN 1
static inline __attribute__((always_inline)) void fe_sqn(fe *h, const fe *f, int n)
{
    fe_sq(h, f);
    for (int i = 1; i < n; i++)
        fe_sq(h, h);
}

static inline __attribute__((always_inline)) void fe_add(fe *h, const fe *f, const fe *g)
{
    __asm__ volatile("movq 0(%[f]), %%r8\n\t"
                     "movq 8(%[f]), %%r9\n\t"
                     "movq 16(%[f]), %%r10\n\t"
                     "movq 24(%[f]), %%r11\n\t"
                     "addq 0(%[g]), %%r8\n\t"
                     "adcq 8(%[g]), %%r9\n\t"
                     "adcq 16(%[g]), %%r10\n\t"
                     "adcq 24(%[g]), %%r11\n\t"
                     "sbbq %%rax, %%rax\n\t"
                     "andl $38, %%eax\n\t"
                     "addq %%rax, %%r8\n\t"
                     "adcq $0, %%r9\n\t"
                     "adcq $0, %%r10\n\t"
                     "adcq $0, %%r11\n\t"
                     "sbbq %%rax, %%rax\n\t"
                     "andl $38, %%eax\n\t"
                     "addq %%rax, %%r8\n\t" FE64_STORE("[h]")
                     :
                     : [h] "r"(h), [f] "r"(f), [g] "r"(g)
                     : "rax", "r8", "r9", "r10", "r11", "cc", "memory");
}

/* A borrow out of the top word means the register holds f - g + 2^256,
 * which is 38 too much modulo p: take 38 away (twice at most). */
static inline __attribute__((always_inline)) void fe_sub(fe *h, const fe *f, const fe *g)
{
    __asm__ volatile("movq 0(%[f]), %%r8\n\t"
                     "movq 8(%[f]), %%r9\n\t"
                     "movq 16(%[f]), %%r10\n\t"
                     "movq 24(%[f]), %%r11\n\t"
                     "subq 0(%[g]), %%r8\n\t"
                     "sbbq 8(%[g]), %%r9\n\t"
                     "sbbq 16(%[g]), %%r10\n\t"
                     "sbbq 24(%[g]), %%r11\n\t"
                     "sbbq %%rax, %%rax\n\t"
                     "andl $38, %%eax\n\t"
                     "subq %%rax, %%r8\n\t"
                     "sbbq $0, %%r9\n\t"
                     "sbbq $0, %%r10\n\t"
                     "sbbq $0, %%r11\n\t"
                     "sbbq %%rax, %%rax\n\t"
                     "andl $38, %%eax\n\t"
                     "subq %%rax, %%r8\n\t" FE64_STORE("[h]")
                     :
                     : [h] "r"(h), [f] "r"(f), [g] "r"(g)
                     : "rax", "r8", "r9", "r10", "r11", "cc", "memory");
}

static inline __attribute__((always_inline)) void fe_neg(fe *h, const fe *f)
{
    fe z;
    fe_0(&z);
    fe_sub(h, &z, f);
}

static inline __attribute__((always_inline)) void fe_mul121666(fe *h, const fe *f)
{
    __asm__ volatile("movl $121666, %%edx\n\t"
                     "mulx 0(%[f]), %%r8, %%r9\n\t"
                     "mulx 8(%[f]), %%rax, %%r10\n\t"
                     "addq %%rax, %%r9\n\t"
                     "mulx 16(%[f]), %%rax, %%r11\n\t"
                     "adcq %%rax, %%r10\n\t"
                     "mulx 24(%[f]), %%rax, %%rcx\n\t"
                     "adcq %%rax, %%r11\n\t"
                     "adcq $0, %%rcx\n\t"
                     "imul $38, %%rcx, %%rcx\n\t"
                     "addq %%rcx, %%r8\n\t"
                     "adcq $0, %%r9\n\t"
                     "adcq $0, %%r10\n\t"
                     "adcq $0, %%r11\n\t"
                     "sbbq %%rax, %%rax\n\t"
                     "andl $38, %%eax\n\t"
                     "addq %%rax, %%r8\n\t" FE64_STORE("[h]")
                     :
                     : [h] "r"(h), [f] "r"(f)
                     : "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "cc", "memory");
}

static inline __attribute__((always_inline)) void fe_frombytes(fe *h, const uint8_t s[32])
{
    memcpy(h->v, s, 32); /* x86-64 is little-endian */
    h->v[3] &= 0x7fffffffffffffff;
}

/* The canonical value: fold bit 255 (2^255 = 19), then subtract p when
 * the value plus 19 reaches 2^255; both by masks. */
static inline __attribute__((always_inline)) void fe_tobytes(uint8_t s[32], const fe *f)
{
    uint64_t t[4];
    unsigned __int128 c;
    uint64_t top = f->v[3] >> 63;
    c = (unsigned __int128)f->v[0] + 19 * top;
    t[0] = (uint64_t)c;
    for (int i = 1; i < 4; i++) {
        c = (c >> 64) + (i == 3 ? f->v[3] & 0x7fffffffffffffff : f->v[i]);
        t[i] = (uint64_t)c;
    } /* now t < 2^255 + 19 */
    uint64_t u[4];
    c = (unsigned __int128)t[0] + 19;
    u[0] = (uint64_t)c;
    for (int i = 1; i < 4; i++) {
        c = (c >> 64) + t[i];
        u[i] = (uint64_t)c;
    }
    uint64_t ge = 0 - (u[3] >> 63); /* all ones when t >= p */
    u[3] &= 0x7fffffffffffffff;
    for (int i = 0; i < 4; i++)
        t[i] ^= (t[i] ^ u[i]) & ge;
    memcpy(s, t, 32);
}

static inline __attribute__((always_inline)) void fe_cswap(fe *f, fe *g, unsigned b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)b;
    for (int i = 0; i < 4; i++) {
        uint64_t x = (f->v[i] ^ g->v[i]) & m;
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

static inline __attribute__((always_inline)) void fe_cmov(fe *f, const fe *g, unsigned b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)b;
    for (int i = 0; i < 4; i++)
        f->v[i] ^= (f->v[i] ^ g->v[i]) & m;
}

static inline __attribute__((always_inline)) int fe_isnegative(const fe *f)
{
    uint8_t s[32];
    fe_tobytes(s, f);
    return s[0] & 1;
}

static inline __attribute__((always_inline)) int fe_iszero(const fe *f)
{
    uint8_t s[32];
    unsigned acc = 0;
    fe_tobytes(s, f);
    for (int i = 0; i < 32; i++)
        acc |= s[i];
    return (int)(((acc - 1) >> 8) & 1);
}

#endif
