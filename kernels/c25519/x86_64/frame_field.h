/* The field macros shared by the whole-function x86-64 bodies (ladder_body.h,
 * comb_body.h): arithmetic modulo p = 2^255 - 19 on field elements at fixed
 * offsets from rsp (four 64-bit limbs, values below 2^256, 2^256 = 38 mod
 * p). The including .S first includes a carry-chain set
 * (ladder_chains_adx.h or ladder_chains_mulx.h: ROW, REDUCE, FSQ, which use
 * FOLD255 and STORE from here).
 *
 * Bounds, which the bodies' comments argue step by step: a product or
 * square (FMUL, FSQ) ends below 2^255 + 2^11, "product-bounded". FADD is
 * exact when one operand is below 2^255 + 2^24; FSUB when the subtrahend
 * is. Every output is below 2^256.
 * Registers inside a macro: r8..r15 the value, rdx the MULX multiplier,
 * rax, rbx, rcx, rsi, rdi and rbp free. */

/* d = the four words r8..r11. */
.macro STORE d
	mov	%r8, \d(%rsp)
	mov	%r9, \d+8(%rsp)
	mov	%r10, \d+16(%rsp)
	mov	%r11, \d+24(%rsp)
.endm

/* r8..r11 = r8..r11 + 19 (r12:r11 >> 63): the bits from 255 up (r12 is
 * the value's fifth word, small) folded by 2^255 = 19; below 2^255 + 19 r12
 * after, so nothing carries out. Shifts and LEAs, not SHLD (several
 * micro-ops on AMD Zen) and IMUL (a cycle more). */
.macro FOLD255
	mov	%r11, %rax
	shr	$63, %rax
	lea	(%rax,%r12,2), %r12
	btr	$63, %r11
	lea	(%r12,%r12,8), %rax
	lea	(%r12,%rax,2), %r12
	add	%r12, %r8
	adc	$0, %r9
	adc	$0, %r10
	adc	$0, %r11
.endm

/* r8..r12 = rdx * a, one carry chain (no ADX needed). */
.macro MUL1 a
	mulx	\a(%rsp), %r8, %r9
	mulx	\a+8(%rsp), %rax, %r10
	add	%rax, %r9
	mulx	\a+16(%rsp), %rax, %r11
	adc	%rax, %r10
	mulx	\a+24(%rsp), %rax, %r12
	adc	%rax, %r11
	adc	$0, %r12
.endm

/* r8..r11 = a * b mod p, product-bounded. */
.macro FMULR a, b
	mov	\b(%rsp), %rdx
	MUL1	\a
	ROW	\a, \b+8, %r9, %r10, %r11, %r12, %r13
	ROW	\a, \b+16, %r10, %r11, %r12, %r13, %r14
	ROW	\a, \b+24, %r11, %r12, %r13, %r14, %r15
	REDUCE
.endm

/* d = a * b mod p (d may be a or b: written last). */
.macro FMUL d, a, b
	FMULR	\a, \b
	STORE	\d
.endm

/* d = a op b (op, opc: add, adc or sub, sbb). A carry out is 2^256 = 38;
 * a borrow leaves 2^256 (= 38) too much. With b below 2^255 + 2^24 (or,
 * adding, a) one correction is exact: a sum that carried is below 2^255 +
 * 2^25 after it, so adding 38 carries no more; a difference that borrowed
 * holds at least 2^256 - b > 2^255 - 2^24 to take 38 from. */
.macro FADDSUB d, a, b, op, opc
	mov	\a(%rsp), %r8
	mov	\a+8(%rsp), %r9
	mov	\a+16(%rsp), %r10
	mov	\a+24(%rsp), %r11
	\op	\b(%rsp), %r8
	\opc	\b+8(%rsp), %r9
	\opc	\b+16(%rsp), %r10
	\opc	\b+24(%rsp), %r11
	sbb	%rax, %rax
	and	$38, %eax
	\op	%rax, %r8
	\opc	$0, %r9
	\opc	$0, %r10
	\opc	$0, %r11
	STORE	\d
.endm

.macro FADD d, a, b
	FADDSUB	\d, \a, \b, add, adc
.endm

.macro FSUB d, a, b
	FADDSUB	\d, \a, \b, sub, sbb
.endm

/* Zeroes the frame's `frame` bytes from rsp (xmm0 zeroed; rcx, rdi used):
 * no secret left behind. */
.macro WIPE_FRAME frame
	pxor	%xmm0, %xmm0
	mov	$\frame / 8, %ecx
	mov	%rsp, %rdi
1:
	movq	%xmm0, (%rdi)
	add	$8, %rdi
	dec	%ecx
	jnz	1b
.endm
