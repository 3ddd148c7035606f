/* fe64.h's MULX-only carry chains (the "x86_64-mulx" table: BMI2 without
 * ADX, the Haswell class): products by MULX, sums on the one carry chain
 * ADD/ADC (MULX leaves the flags alone, so a chain runs on between the
 * multiplications). Included by fe64.h. */
#ifndef CRYPTOSHIM_C25519_FE64_MULX_H
#define CRYPTOSHIM_C25519_FE64_MULX_H

/* The set's name and the CPU features (kernels/cpu_features.h) it needs. */
#define FE64_CHAINS "mulx"
#define FE64_CPU_FEATURES (CS_CPU_BMI2)

/* Folds the 8-word product in r8..r15 into four words below 2^255 + 2^11:
 * lo + 38 hi, the low halves of 38 hi on one chain, then the high halves
 * (below 38) on a second, a fifth word in rdx; then FE64_FOLD. Uses rax
 * and rcx as temporaries and rdx. */
#define FE64_REDUCE                                                                    \
    "movl $38, %%edx\n\t"                                                              \
    "mulx %%r12, %%r12, %%rax\n\t"                                                     \
    "mulx %%r13, %%r13, %%rcx\n\t"                                                     \
    "addq %%r12, %%r8\n\t"                                                             \
    "adcq %%r13, %%r9\n\t"                                                             \
    "mulx %%r14, %%r14, %%r12\n\t"                                                     \
    "adcq %%r14, %%r10\n\t"                                                            \
    "mulx %%r15, %%r15, %%rdx\n\t"                                                     \
    "adcq %%r15, %%r11\n\t"                                                            \
    "adcq $0, %%rdx\n\t"                                                               \
    "addq %%rax, %%r9\n\t"                                                             \
    "adcq %%rcx, %%r10\n\t"                                                            \
    "adcq %%r12, %%r11\n\t"                                                            \
    "adcq $0, %%rdx\n\t"                                                               \
    FE64_FOLD("%%rdx")

/* One row of the product: r_i..r_{i+3} += a * b_i (rdx = b_i), r_{i+4} the
 * row's top word: the low halves on one chain, then the high halves on a
 * second; t1..t4 scratch. */
#define FE64_ROW(a, ri, ri1, ri2, ri3, ri4, t1, t2, t3, t4)                            \
    "mulx 0(%" a "), " t1 ", " t2 "\n\t"                                               \
    "addq " t1 ", " ri "\n\t"                                                          \
    "mulx 8(%" a "), " t1 ", " t3 "\n\t"                                               \
    "adcq " t1 ", " ri1 "\n\t"                                                         \
    "mulx 16(%" a "), " t1 ", " t4 "\n\t"                                              \
    "adcq " t1 ", " ri2 "\n\t"                                                         \
    "mulx 24(%" a "), " t1 ", " ri4 "\n\t"                                             \
    "adcq " t1 ", " ri3 "\n\t"                                                         \
    "adcq $0, " ri4 "\n\t"                                                             \
    "addq " t2 ", " ri1 "\n\t"                                                         \
    "adcq " t3 ", " ri2 "\n\t"                                                         \
    "adcq " t4 ", " ri3 "\n\t"                                                         \
    "adcq $0, " ri4 "\n\t"

/* Rows 1..3 of f * g (row 0 in r8..r12): the full product in r8..r15. A
 * row needs four scratch registers where the clobbers leave two: the low
 * words as they are final (r8 after row 1, r9 after row 2) wait in the
 * asm's two memory words [t0] and [t1]. */
#define FE64_MUL_ROWS(f, g)                                                            \
    "movq 8(%" g "), %%rdx\n\t"                                                        \
    FE64_ROW(f, "%%r9", "%%r10", "%%r11", "%%r12", "%%r13", "%%rax", "%%rcx", "%%r14", "%%r15") \
    "movq %%r8, %[t0]\n\t"                                                             \
    "movq 16(%" g "), %%rdx\n\t"                                                       \
    FE64_ROW(f, "%%r10", "%%r11", "%%r12", "%%r13", "%%r14", "%%rax", "%%rcx", "%%r15", "%%r8") \
    "movq %%r9, %[t1]\n\t"                                                             \
    "movq 24(%" g "), %%rdx\n\t"                                                       \
    FE64_ROW(f, "%%r11", "%%r12", "%%r13", "%%r14", "%%r15", "%%rax", "%%rcx", "%%r8", "%%r9") \
    "movq %[t0], %%r8\n\t"                                                             \
    "movq %[t1], %%r9\n\t"

#define FE64_MUL_LOCALS uint64_t fe64_t[2];
#define FE64_MUL_OUTPUTS [t0] "=m"(fe64_t[0]), [t1] "=m"(fe64_t[1])

/* The six cross products once (each row summed on its own, then added),
 * doubled on one chain, then the four squares added on the next (a3^2's
 * high half straight into r15). */
#define FE64_SQ_BODY(f)                                                                \
    "movq 0(%" f "), %%rdx\n\t"                                                        \
    "mulx 8(%" f "), %%r9, %%rax\n\t"                                                  \
    "mulx 16(%" f "), %%r10, %%rcx\n\t"                                                \
    "addq %%rax, %%r10\n\t"                                                            \
    "mulx 24(%" f "), %%r11, %%r12\n\t"                                                \
    "adcq %%rcx, %%r11\n\t"                                                            \
    "adcq $0, %%r12\n\t"                                                               \
    "movq 8(%" f "), %%rdx\n\t"                                                        \
    "mulx 16(%" f "), %%rax, %%rcx\n\t"                                                \
    "mulx 24(%" f "), %%r8, %%r13\n\t"                                                 \
    "addq %%rcx, %%r8\n\t"                                                             \
    "adcq $0, %%r13\n\t"                                                               \
    "movq 16(%" f "), %%rdx\n\t"                                                       \
    "mulx 24(%" f "), %%rcx, %%r14\n\t"                                                \
    "addq %%rax, %%r11\n\t"                                                            \
    "adcq %%r8, %%r12\n\t"                                                             \
    "adcq %%rcx, %%r13\n\t"                                                            \
    "adcq $0, %%r14\n\t"                                                               \
    "movq 24(%" f "), %%rdx\n\t"                                                       \
    "mulx %%rdx, %%rcx, %%r15\n\t"                                                     \
    "addq %%r9, %%r9\n\t"                                                              \
    "adcq %%r10, %%r10\n\t"                                                            \
    "adcq %%r11, %%r11\n\t"                                                            \
    "adcq %%r12, %%r12\n\t"                                                            \
    "adcq %%r13, %%r13\n\t"                                                            \
    "adcq %%r14, %%r14\n\t"                                                            \
    "adcq $0, %%r15\n\t"                                                               \
    "movq 0(%" f "), %%rdx\n\t"                                                        \
    "mulx %%rdx, %%r8, %%rax\n\t"                                                      \
    "addq %%rax, %%r9\n\t"                                                             \
    "movq 8(%" f "), %%rdx\n\t"                                                        \
    "mulx %%rdx, %%rax, %%rdx\n\t"                                                     \
    "adcq %%rax, %%r10\n\t"                                                            \
    "adcq %%rdx, %%r11\n\t"                                                            \
    "movq 16(%" f "), %%rdx\n\t"                                                       \
    "mulx %%rdx, %%rax, %%rdx\n\t"                                                     \
    "adcq %%rax, %%r12\n\t"                                                            \
    "adcq %%rdx, %%r13\n\t"                                                            \
    "adcq %%rcx, %%r14\n\t"                                                            \
    "adcq $0, %%r15\n\t"

#endif
