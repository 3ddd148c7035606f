/* The MULX-only set of ladder_body.h's field macros, for the "x86_64-mulx"
 * table (BMI2 without ADX: Haswell class): products by MULX, sums on the
 * one carry chain ADD/ADC. A row is first summed on its own (the high
 * half of each product with the low half of the next, independent of the
 * product so far), then added to the product in one chain, so the chain
 * through the product is five additions a row. */

/* r0..r4 (r0..r3 holding the partial product) += rdx * (s0..s3), r4 the
 * new top word; rax, rbx, rcx, rsi, rdi scratch. r4 may be s0 (read
 * first). */
.macro MACC s0, s1, s2, s3, r0, r1, r2, r3, r4
	mulx	\s0, %rax, %rbx
	mulx	\s1, %rcx, %rsi
	add	%rbx, %rcx
	mulx	\s2, %rbx, %rdi
	adc	%rsi, %rbx
	mulx	\s3, %rsi, \r4
	adc	%rdi, %rsi
	adc	$0, \r4
	add	%rax, \r0
	adc	%rcx, \r1
	adc	%rbx, \r2
	adc	%rsi, \r3
	adc	$0, \r4
.endm

/* The 8-word product in r8..r15 to four words below 2^255 + 1520:
 * lo + 38 hi (five words, the fifth in r12), then FOLD255. */
.macro REDUCE
	mov	$38, %edx
	MACC	%r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11, %r12
	FOLD255
.endm

/* r0..r4 (r0..r3 holding the partial product) += a * (word bi) from r0
 * up, r4 the new top word. */
.macro ROW a, bi, r0, r1, r2, r3, r4
	mov	\bi(%rsp), %rdx
	MACC	\a(%rsp), \a+8(%rsp), \a+16(%rsp), \a+24(%rsp), \r0, \r1, \r2, \r3, \r4
.endm

/* d = a^2 mod p: the six cross products into r9..r14 (each row summed on
 * its own, then added), the four squares, then the cross products
 * doubled on one chain and the squares added on the next. */
.macro FSQ d, a
	mov	\a(%rsp), %rdx
	mulx	\a+8(%rsp), %r9, %rax
	mulx	\a+16(%rsp), %r10, %rbx
	add	%rax, %r10
	mulx	\a+24(%rsp), %r11, %r12
	adc	%rbx, %r11
	adc	$0, %r12
	mov	\a+8(%rsp), %rdx
	mulx	\a+16(%rsp), %rax, %rbx
	mulx	\a+24(%rsp), %rcx, %r13
	add	%rbx, %rcx
	adc	$0, %r13
	mov	\a+16(%rsp), %rdx
	mulx	\a+24(%rsp), %rbx, %r14
	add	%rax, %r11
	adc	%rcx, %r12
	adc	%rbx, %r13
	adc	$0, %r14
	mov	\a(%rsp), %rdx
	mulx	%rdx, %r8, %rax
	mov	\a+8(%rsp), %rdx
	mulx	%rdx, %rbx, %rcx
	mov	\a+16(%rsp), %rdx
	mulx	%rdx, %rsi, %rdi
	mov	\a+24(%rsp), %rdx
	mulx	%rdx, %rbp, %r15
	add	%r9, %r9
	adc	%r10, %r10
	adc	%r11, %r11
	adc	%r12, %r12
	adc	%r13, %r13
	adc	%r14, %r14
	adc	$0, %r15
	add	%rax, %r9
	adc	%rbx, %r10
	adc	%rcx, %r11
	adc	%rsi, %r12
	adc	%rdi, %r13
	adc	%rbp, %r14
	adc	$0, %r15
	REDUCE
	STORE	\d
.endm
