/* What the ADX exponentiation code shares (adx_blk.S, adx_fixed.S,
 * adx_mont.S): the register window and the squaring's diagonal; the
 * function frames, entries and object notes are kernels/x86_64_asm.h's. */
/* The ADX code's window of nine registers (adx_blk.S, adx_fixed.S), in
 * rotation r: W_k = R[(k + r) mod 9], so a window that moves up a word
 * renames instead of moving values. */
#define ROT0 %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13, %r14
#define ROT1 %rbp, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %rbx
#define ROT2 %r8, %r9, %r10, %r11, %r12, %r13, %r14, %rbx, %rbp
#define ROT3 %r9, %r10, %r11, %r12, %r13, %r14, %rbx, %rbp, %r8
#define ROT4 %r10, %r11, %r12, %r13, %r14, %rbx, %rbp, %r8, %r9
#define ROT5 %r11, %r12, %r13, %r14, %rbx, %rbp, %r8, %r9, %r10
#define ROT6 %r12, %r13, %r14, %rbx, %rbp, %r8, %r9, %r10, %r11
#define ROT7 %r13, %r14, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12
#define ROT8 %r14, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13

/* \mac \args, then the window registers in rotation (w mod 9): word w of
 * the double-length number is always in R[w mod 9], W0 of the rotation.
 * ROTN turns the list \n times, by 4, 2 and 1 (at most four levels deep:
 * clang's assembler allows 20 levels of macros in all). */
.macro ROTCALL w, mac, args:vararg
	ROTN	((\w)%9), \mac, "\args", ROT0
.endm
.macro ROTN n, mac, args, r0, r1, r2, r3, r4, r5, r6, r7, r8
	.if (\n) >= 4
	ROTN	(\n)-4, \mac, "\args", \r4, \r5, \r6, \r7, \r8, \r0, \r1, \r2, \r3
	.elseif (\n) >= 2
	ROTN	(\n)-2, \mac, "\args", \r2, \r3, \r4, \r5, \r6, \r7, \r8, \r0, \r1
	.elseif (\n) >= 1
	ROTN	(\n)-1, \mac, "\args", \r1, \r2, \r3, \r4, \r5, \r6, \r7, \r8, \r0
	.else
	\mac \args, \r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7, \r8
	.endif
.endm

/* An empty window (and CF = OF = 0). */
.macro ZW
	xor	%ebx, %ebx
	xor	%ebp, %ebp
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	xor	%r12d, %r12d
	xor	%r13d, %r13d
	xor	%r14d, %r14d
.endm

/* Words 2off and 2off+8 (bytes) of t (%rdi) doubled on CF with the square
 * of a's word at off (%rsi) added on OF. */
.macro DIAG1 off
	mov	\off(%rsi), %rdx
	mulx	%rdx, %rax, %r9
	mov	2*\off(%rdi), %r8
	adcx	%r8, %r8
	adox	%rax, %r8
	mov	%r8, 2*\off(%rdi)
	mov	2*\off+8(%rdi), %r10
	adcx	%r10, %r10
	adox	%r9, %r10
	mov	%r10, 2*\off+8(%rdi)
.endm

/* Function \name(uint64_t *t, const uint64_t *a, size_t n): t (2n words,
 * the cross products) = 2t + the squares a_i^2 2^(128i), the doubling on
 * CF and the squares on OF, the words of a at the byte offsets \offs
 * (2^\shift of them, n a multiple of that) a pass; the flags cleared by
 * the zero idiom on \clr. The counter moves by lea and exits by jrcxz, so
 * neither flag is disturbed; only n steers control. */
.macro DIAG_FN name, shift, clr, offs:vararg
	FUNC_BEGIN \name
	mov	%rdx, %rcx
	.if \shift
	shr	$\shift, %rcx
	.endif
	xor	\clr, \clr
1:
	.irp off, \offs
	DIAG1	\off
	.endr
	lea	(8 << \shift)(%rsi), %rsi
	lea	(16 << \shift)(%rdi), %rdi
	lea	-1(%rcx), %rcx
	jrcxz	2f
	jmp	1b
2:	ret
	FUNC_END \name
.endm
