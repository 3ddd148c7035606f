/* x86-64 field arithmetic modulo p = 2^255 - 19 for curve_impl.h: four
 * 64-bit limbs holding any value below 2^256 (not necessarily below p),
 * products by MULX and the high half folded in by 2^256 = 38 (mod p).
 * Inline assembly, so every operation inlines into the templates. One
 * template for two tables: the includer defines FE64_MULX_ONLY for the
 * carry chains of fe64_mulx.h (ADD/ADC only: BMI2), else those of
 * fe64_adx.h (ADCX/ADOX: BMI2 and ADX) are used; the sets differ in
 * the multiplication's rows, the squaring and the reduction, nothing
 * else.
 *
 * Bounds: every input and output is a full 4-limb value below 2^256, so
 * any chain of calls is valid. Constant time: the only data-dependent
 * operations are carries (sbb masks), never a branch or an index. */
#ifndef CRYPTOSHIM_C25519_FE64_H
#define CRYPTOSHIM_C25519_FE64_H

#include <stdint.h>
#include <string.h>

#define FE_LIMBS 4
#define FE_INLINE static inline __attribute__((always_inline))

typedef struct {
    uint64_t v[FE_LIMBS];
} fe;

/* r8..r11 + 19 (top:r11 >> 63), top the value's fifth word (small): the
 * bits from 255 up folded by 2^255 = 19, so nothing carries out and the
 * value is below 2^255 + 2^11. Uses rax. */
#define FE64_FOLD(top)                                                                 \
    "movq %%r11, %%rax\n\t"                                                            \
    "shrq $63, %%rax\n\t"                                                              \
    "leaq (%%rax," top ",2), " top "\n\t"                                              \
    "btrq $63, %%r11\n\t"                                                              \
    "leaq (" top "," top ",8), %%rax\n\t"                                              \
    "leaq (" top ",%%rax,2), " top "\n\t"                                              \
    "addq " top ", %%r8\n\t"                                                           \
    "adcq $0, %%r9\n\t"                                                                \
    "adcq $0, %%r10\n\t"                                                               \
    "adcq $0, %%r11\n\t"

#define FE64_STORE(h)                                                                  \
    "movq %%r8, 0(%" h ")\n\t"                                                         \
    "movq %%r9, 8(%" h ")\n\t"                                                         \
    "movq %%r10, 16(%" h ")\n\t"                                                       \
    "movq %%r11, 24(%" h ")\n\t"

#ifdef FE64_MULX_ONLY
#include "fe64_mulx.h"
#else
#include "fe64_adx.h"
#endif

#define FE64_CLOBBERS "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory"

FE_INLINE void fe_mul(fe *h, const fe *f, const fe *g)
{
    FE64_MUL_LOCALS
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
        FE64_MUL_ROWS("[f]", "[g]")
        FE64_REDUCE
        FE64_STORE("[h]")
        : FE64_MUL_OUTPUTS
        : [h] "r"(h), [f] "r"(f), [g] "r"(g)
        : FE64_CLOBBERS);
}

FE_INLINE void fe_sq(fe *h, const fe *f)
{
    __asm__ volatile(FE64_SQ_BODY("[f]") FE64_REDUCE FE64_STORE("[h]")
                     :
                     : [h] "r"(h), [f] "r"(f)
                     : FE64_CLOBBERS);
}

/* h = f^(2^n), n >= 1: the square's result stays in h between rounds. */
#define FE_HAVE_SQN 1
FE_INLINE void fe_sqn(fe *h, const fe *f, int n)
{
    fe_sq(h, f);
    for (int i = 1; i < n; i++)
        fe_sq(h, h);
}

/* h = f op g (op, opc: add, adc or sub, sbb). A carry out of the top word
 * is 2^256 = 38 (mod p): add 38 (twice at most); a borrow means the
 * registers hold f - g + 2^256, which is 38 too much: take 38 away (twice
 * at most). */
#define FE64_ADDSUB(op, opc)                                                           \
    "movq 0(%[f]), %%r8\n\t"                                                           \
    "movq 8(%[f]), %%r9\n\t"                                                           \
    "movq 16(%[f]), %%r10\n\t"                                                         \
    "movq 24(%[f]), %%r11\n\t"                                                         \
    op "q 0(%[g]), %%r8\n\t"                                                           \
    opc "q 8(%[g]), %%r9\n\t"                                                          \
    opc "q 16(%[g]), %%r10\n\t"                                                        \
    opc "q 24(%[g]), %%r11\n\t"                                                        \
    "sbbq %%rax, %%rax\n\t"                                                            \
    "andl $38, %%eax\n\t"                                                              \
    op "q %%rax, %%r8\n\t"                                                             \
    opc "q $0, %%r9\n\t"                                                               \
    opc "q $0, %%r10\n\t"                                                              \
    opc "q $0, %%r11\n\t"                                                              \
    "sbbq %%rax, %%rax\n\t"                                                            \
    "andl $38, %%eax\n\t"                                                              \
    op "q %%rax, %%r8\n\t" FE64_STORE("[h]")

#define FE64_ADDSUB_CLOBBERS "rax", "r8", "r9", "r10", "r11", "cc", "memory"

FE_INLINE void fe_add(fe *h, const fe *f, const fe *g)
{
    __asm__ volatile(FE64_ADDSUB("add", "adc") : : [h] "r"(h), [f] "r"(f), [g] "r"(g) : FE64_ADDSUB_CLOBBERS);
}

FE_INLINE void fe_sub(fe *h, const fe *f, const fe *g)
{
    __asm__ volatile(FE64_ADDSUB("sub", "sbb") : : [h] "r"(h), [f] "r"(f), [g] "r"(g) : FE64_ADDSUB_CLOBBERS);
}

FE_INLINE void fe_mul121666(fe *h, const fe *f)
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

FE_INLINE void fe_frombytes(fe *h, const uint8_t s[32])
{
    memcpy(h->v, s, 32); /* x86-64 is little-endian */
    h->v[3] &= 0x7fffffffffffffff;
}

/* The canonical value: fold bit 255 (2^255 = 19), then subtract p when
 * the value plus 19 reaches 2^255; both by masks. */
FE_INLINE void fe_tobytes(uint8_t s[32], const fe *f)
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

#include "../fe_limbwise.h"

#endif
