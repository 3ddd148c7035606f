/* The ADX set of ladder_body.h's field macros: products by MULX with
 * the low halves on the CF chain (ADCX) and the high halves on the OF
 * chain (ADOX), for the "x86_64-adx" table (BMI2 and ADX). */

/* The 8-word product in r8..r15 to four words below 2^255 + 1520:
 * lo + 38 hi (five words), then FOLD255. rcx = 0 on exit. */
.macro REDUCE
	mov	$38, %edx
	xor	%ecx, %ecx
	mulx	%r12, %rax, %rbx
	adcx	%rax, %r8
	adox	%rbx, %r9
	mulx	%r13, %rax, %rbx
	adcx	%rax, %r9
	adox	%rbx, %r10
	mulx	%r14, %rax, %rbx
	adcx	%rax, %r10
	adox	%rbx, %r11
	mulx	%r15, %rax, %r12
	adcx	%rax, %r11
	adox	%rcx, %r12
	adcx	%rcx, %r12
	FOLD255
.endm

/* r0..r4 (r0..r3 holding the partial product) += a * (word bi) from r0
 * up, r4 the new top word. */
.macro ROW a, bi, r0, r1, r2, r3, r4
	xor	%ecx, %ecx
	mov	\bi(%rsp), %rdx
	mulx	\a(%rsp), %rax, %rbx
	adcx	%rax, \r0
	adox	%rbx, \r1
	mulx	\a+8(%rsp), %rax, %rbx
	adcx	%rax, \r1
	adox	%rbx, \r2
	mulx	\a+16(%rsp), %rax, %rbx
	adcx	%rax, \r2
	adox	%rbx, \r3
	mulx	\a+24(%rsp), %rax, \r4
	adcx	%rax, \r3
	adox	%rcx, \r4
	adcx	%rcx, \r4
.endm

/* (lo, hi) = 2 (lo, hi) + (word w)^2: the doubling on the CF chain, the
 * square on the OF chain. */
.macro SQ2 w, lo, hi
	mov	\w(%rsp), %rdx
	mulx	%rdx, %rax, %rbx
	adcx	\lo, \lo
	adox	%rax, \lo
	adcx	\hi, \hi
	adox	%rbx, \hi
.endm

/* d = a^2 mod p: the six cross products, then doubled (CF chain) while
 * the squares are added (OF chain). */
.macro FSQ d, a
	mov	\a(%rsp), %rdx
	xor	%ecx, %ecx
	mulx	\a+8(%rsp), %r9, %rax
	mulx	\a+16(%rsp), %r10, %rbx
	adcx	%rax, %r10
	mulx	\a+24(%rsp), %r11, %r12
	adcx	%rbx, %r11
	adcx	%rcx, %r12
	mov	\a+8(%rsp), %rdx
	mulx	\a+16(%rsp), %rax, %rbx
	adox	%rax, %r11
	adcx	%rbx, %r12
	mulx	\a+24(%rsp), %rax, %r13
	adox	%rax, %r12
	adcx	%rcx, %r13
	mov	\a+16(%rsp), %rdx
	mulx	\a+24(%rsp), %rax, %r14
	adox	%rax, %r13
	adcx	%rcx, %r14
	adox	%rcx, %r14
	mov	\a(%rsp), %rdx
	mulx	%rdx, %r8, %rax
	adcx	%r9, %r9
	adox	%rax, %r9
	SQ2	\a+8, %r10, %r11
	SQ2	\a+16, %r12, %r13
	mov	\a+24(%rsp), %rdx
	mulx	%rdx, %rax, %r15
	adcx	%r14, %r14
	adox	%rax, %r14
	adcx	%rcx, %r15
	adox	%rcx, %r15
	REDUCE
	STORE	\d
.endm
