/* fe64.h's ADX carry chains (the "x86_64-adx" table: BMI2 and ADX):
 * products by MULX with the low halves on the CF chain (ADCX) and the high
 * halves on the OF chain (ADOX). Included by fe64.h. */
#ifndef CRYPTOSHIM_C25519_FE64_ADX_H
#define CRYPTOSHIM_C25519_FE64_ADX_H

/* The set's name and the CPU features (kernels/cpu_features.h) it needs. */
#define FE64_CHAINS "adx"
#define FE64_CPU_FEATURES (CS_CPU_BMI2 | CS_CPU_ADX)

/* Folds the 8-word product in r8..r15 into four words below 2^255 + 2^11:
 * lo + 38 hi (a fifth word in r12), then FE64_FOLD. Uses rax and rcx as
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
    FE64_FOLD("%%r12")

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

/* Rows 1..3 of f * g (row 0 in r8..r12): the full product in r8..r15. */
#define FE64_MUL_ROWS(f, g)                                                            \
    "movq 8(%" g "), %%rdx\n\t"                                                        \
    "xorl %%eax, %%eax\n\t"                                                            \
    FE64_ROW(f, "%%r9", "%%r10", "%%r11", "%%r12", "%%r13")                            \
    "movq 16(%" g "), %%rdx\n\t"                                                       \
    "xorl %%eax, %%eax\n\t"                                                            \
    FE64_ROW(f, "%%r10", "%%r11", "%%r12", "%%r13", "%%r14")                           \
    "movq 24(%" g "), %%rdx\n\t"                                                       \
    "xorl %%eax, %%eax\n\t"                                                            \
    FE64_ROW(f, "%%r11", "%%r12", "%%r13", "%%r14", "%%r15")

/* fe_mul needs no memory of its own. */
#define FE64_MUL_LOCALS
#define FE64_MUL_OUTPUTS

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

#endif
