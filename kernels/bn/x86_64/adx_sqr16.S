/* The ADX kernel's Montgomery squaring at 16 limbs (1024 bits), straight
 * line: no loop, no counter, no pointer step, and no setup by the caller
 * (the double-length square lives in this frame, every word written
 * before it is read, so nothing is zeroed). The parts are those of
 * adx_blk.S, unrolled for two blocks of eight:
 * - the cross products a_k a_l, k < l, once: block 0 (x = a_0..a_7) takes
 *   v = a_1..a_15 into a window of nine registers, the low halves on the
 *   CF chain (adcx) and the high halves on the OF chain (adox), the
 *   window's lowest word leaving to the frame after each v; block 1
 *   (x = a_8..a_15, v = a_9..a_15) adds block 0's words as its own leave;
 * - the doubling (CF) and the squares a_i^2 (OF) in one pass, words 0..7
 *   left in the registers where the reduction wants them;
 * - the reduction by two blocks of eight q = t_i n0 (a head of eight rows
 *   over m_0..m_7, the q kept in the frame, then a sweep over m_8..m_15),
 *   the first block's carry word passed to the second's flush;
 * - the final subtraction: a comparison by an sbb chain, then r = t - m b
 *   with b (0 or 1) times m by mulx, which leaves the flags alone: no
 *   branch, no address and no flag-free select on the values.
 * Each step's carries end in its top word, so both chains end at zero and
 * no chain crosses a step. Run only where BMI2 and ADX are present.
 *
 * void cs_adx_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0);
 * r = a^2 / 2^1024 mod m, fully reduced, for a < m (16 limbs each), n0 =
 * -m^-1 mod 2^64; r may alias a (written last). */

#include "asm_frame.h"

/* Frame: the eight q of a reduction block, then the 32 (+1) words of t. */
#define QW(k) (8 * (k))(%rsp)
#define TW(w) (64 + 8 * (w))(%rsp)
#define RPTR 328(%rsp)
#define FRAME 336

/* Product k (1..7) of a step with np products, multiplier at \src: lo into
 * wk on CF, hi into wk1 on OF; the top product (k = np - 1) writes its hi
 * to wk1 (not live before) and adds both carries there. */
.macro XP k, np, src, wk, wk1
	.if \k < \np - 1
	mulx	\src, %rax, %r15
	adcx	%rax, \wk
	adox	%r15, \wk1
	.elseif \k == \np - 1
	mulx	\src, %rax, \wk1
	adcx	%rax, \wk
	mov	$0, %eax
	adcx	%rax, \wk1
	adox	%rax, \wk1
	.endif
.endm

/* One step: %rdx times np multipliers at \xoff(\xreg) into W0..W_np; W0
 * first gets the memory word \mem on OF (when given) and leaves to \dst
 * (when given); \clr clears W0's register after (when given: a register
 * that a later step adds into before writing). CF = OF = 0 on entry and,
 * as the step's sum fits, on exit. */
.macro TSTEP np, xoff, xreg, mem, dst, clr, w0, w1, w2, w3, w4, w5, w6, w7, w8
	xor	%eax, %eax
	.if \np == 1
	mulx	\xoff(\xreg), %rax, \w1
	.else
	mulx	\xoff(\xreg), %rax, %r15
	.endif
	adcx	%rax, \w0
	.ifnb \mem
	adox	\mem, \w0
	.endif
	.ifnb \dst
	mov	\w0, \dst
	.endif
	.if \np == 1
	mov	$0, %eax
	adcx	%rax, \w1
	adox	%rax, \w1
	.else
	adox	%r15, \w1
	.endif
	XP	1, \np, 8+\xoff(\xreg), \w1, \w2
	XP	2, \np, 16+\xoff(\xreg), \w2, \w3
	XP	3, \np, 24+\xoff(\xreg), \w3, \w4
	XP	4, \np, 32+\xoff(\xreg), \w4, \w5
	XP	5, \np, 40+\xoff(\xreg), \w5, \w6
	XP	6, \np, 48+\xoff(\xreg), \w6, \w7
	XP	7, \np, 56+\xoff(\xreg), \w7, \w8
	.ifnb \clr
	xor	\w0, \w0
	.endif
.endm

/* Cross products, block 0, v = a_j: min(j, 8) products, word j leaves. */
.macro X0 j, np, clr, w:vararg
	mov	8*\j(%rsi), %rdx
	TSTEP	\np, 0, %rsi, , TW(\j), \clr, \w
.endm

/* Cross products, block 1, v = a_j (j = 9..15): j - 8 products with
 * a_8.., word 8 + j leaves with block 0's word added. */
.macro X1 j, w:vararg
	mov	8*\j(%rsi), %rdx
	TSTEP	\j-8, 64, %rsi, TW(8+\j), TW(8+\j), 1, \w
.endm

/* Diagonal, words 2i and 2i+1 into lo and hi: t = 2t (CF) + a_i^2 (OF). */
.macro DG i, lo, hi
	mov	8*\i(%rsi), %rdx
	mulx	%rdx, %rax, %r15
	mov	TW(2*\i), \lo
	adcx	\lo, \lo
	adox	%rax, \lo
	mov	TW(2*\i+1), \hi
	adcx	\hi, \hi
	adox	%r15, \hi
.endm

/* The same, the two words back to the frame. */
.macro DGM i
	mov	8*\i(%rsi), %rdx
	mulx	%rdx, %rax, %r15
	mov	TW(2*\i), %r14
	adcx	%r14, %r14
	adox	%rax, %r14
	mov	%r14, TW(2*\i)
	mov	TW(2*\i+1), %r14
	adcx	%r14, %r14
	adox	%r15, %r14
	mov	%r14, TW(2*\i+1)
.endm

/* Reduction head row k: q_k = W0 n0 (imul; its flags cleared after), kept
 * at QW(k); W += q_k m_0..m_7 (W0 becomes zero and drops out). */
.macro HROW k, w0, w:vararg
	mov	\w0, %rdx
	imul	%rcx, %rdx
	xor	%eax, %eax
	mov	%rdx, QW(\k)
	TSTEP	8, 0, %rdi, , , , \w0, \w
.endm

/* Reduction sweep step: v = m_{8+s} times the block's eight q; word w
 * (the window's lowest) leaves with t_w added. */
.macro RS s, w, regs:vararg
	mov	64+8*\s(%rdi), %rdx
	TSTEP	8, 0, %rsp, TW(\w), TW(\w), , \regs
.endm

/* Final subtraction, word i: the comparison (borrow chain only), from the
 * frame word or a register. */
.macro CMPM i
	mov	TW(16+\i), %r15
	.if \i == 0
	sub	0(%rdi), %r15
	.else
	sbb	8*\i(%rdi), %r15
	.endif
.endm
.macro CMPR i, w
	mov	\w, %r15
	sbb	8*\i(%rdi), %r15
.endm

/* Word i of r = t - b m, b in %rdx (0 or 1); b m_i by mulx (no flags). */
.macro SUBM i
	mulx	8*\i(%rdi), %r15, %rcx
	mov	TW(16+\i), %r11
	.if \i == 0
	sub	%r15, %r11
	.else
	sbb	%r15, %r11
	.endif
	mov	%r11, 8*\i(%rsi)
.endm
.macro SUBR i, w
	mulx	8*\i(%rdi), %r15, %rcx
	sbb	%r15, \w
	mov	\w, 8*\i(%rsi)
.endm

	.text
	.p2align 6
	.globl	cs_adx_sqr16
	.hidden	cs_adx_sqr16
	.type	cs_adx_sqr16, @function
cs_adx_sqr16:
	.cfi_startproc
	endbr64
	SAVE	FRAME, rbx, rbp, r12, r13, r14, r15
	mov	%rdi, RPTR
	mov	%rdx, %rdi		/* m; n0 stays in %rcx */

	/* Cross products, block 0: an empty window (and CF = OF = 0). */
	xor	%ebx, %ebx
	xor	%ebp, %ebp
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	xor	%r12d, %r12d
	xor	%r13d, %r13d
	xor	%r14d, %r14d
	X0	1, 1, 1, ROT1
	X0	2, 2, 1, ROT2
	X0	3, 3, 1, ROT3
	X0	4, 4, 1, ROT4
	X0	5, 5, 1, ROT5
	X0	6, 6, 1, ROT6
	X0	7, 7, 1, ROT7
	X0	8, 8, , ROT8
	X0	9, 8, , ROT0
	X0	10, 8, , ROT1
	X0	11, 8, , ROT2
	X0	12, 8, , ROT3
	X0	13, 8, , ROT4
	X0	14, 8, , ROT5
	X0	15, 8, , ROT6
	mov	%r13, TW(16)		/* words 16..23: rotation 6's W1..W8 */
	mov	%r14, TW(17)
	mov	%rbx, TW(18)
	mov	%rbp, TW(19)
	mov	%r8, TW(20)
	mov	%r9, TW(21)
	mov	%r10, TW(22)
	mov	%r11, TW(23)

	/* Block 1, from an empty window again. */
	xor	%ebx, %ebx
	xor	%ebp, %ebp
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	xor	%r12d, %r12d
	xor	%r13d, %r13d
	xor	%r14d, %r14d
	X1	9, ROT8
	X1	10, ROT0
	X1	11, ROT1
	X1	12, ROT2
	X1	13, ROT3
	X1	14, ROT4
	X1	15, ROT5
	mov	%r12, TW(24)		/* words 24..30: rotation 5's W1..W7 */
	mov	%r13, TW(25)
	mov	%r14, TW(26)
	mov	%rbx, TW(27)
	mov	%rbp, TW(28)
	mov	%r8, TW(29)
	mov	%r9, TW(30)

	/* Diagonal: words 0..7 into rotation 0's W0..W7, 8..31 to the frame
	 * (t_0 and t_31 of the cross products are zero). */
	xor	%eax, %eax
	mov	0(%rsi), %rdx
	mulx	%rdx, %rbx, %r15
	mov	TW(1), %rbp
	adcx	%rbp, %rbp
	adox	%r15, %rbp
	DG	1, %r8, %r9
	DG	2, %r10, %r11
	DG	3, %r12, %r13
	DGM	4
	DGM	5
	DGM	6
	DGM	7
	DGM	8
	DGM	9
	DGM	10
	DGM	11
	DGM	12
	DGM	13
	DGM	14
	mov	120(%rsi), %rdx
	mulx	%rdx, %rax, %r15
	mov	TW(30), %r14
	adcx	%r14, %r14
	adox	%rax, %r14
	mov	%r14, TW(30)
	mov	$0, %eax
	adcx	%rax, %r15
	adox	%rax, %r15
	mov	%r15, TW(31)

	/* Reduction, block 0: head rows q_0..q_7, then the sweep over
	 * m_8..m_15 (words 8..15 leave with t_8..t_15 added). */
	HROW	0, ROT0
	HROW	1, ROT1
	HROW	2, ROT2
	HROW	3, ROT3
	HROW	4, ROT4
	HROW	5, ROT5
	HROW	6, ROT6
	HROW	7, ROT7
	RS	0, 8, ROT8
	RS	1, 9, ROT0
	RS	2, 10, ROT1
	RS	3, 11, ROT2
	RS	4, 12, ROT3
	RS	5, 13, ROT4
	RS	6, 14, ROT5
	RS	7, 15, ROT6
	/* Flush: words 16..23 (rotation 6's W1..W8) += t_16..t_23; the carry
	 * out of word 23 (its place word 24) waits in %rsi. */
	adcx	TW(16), %r13
	mov	%r13, TW(16)
	adcx	TW(17), %r14
	mov	%r14, TW(17)
	adcx	TW(18), %rbx
	mov	%rbx, TW(18)
	adcx	TW(19), %rbp
	mov	%rbp, TW(19)
	adcx	TW(20), %r8
	mov	%r8, TW(20)
	adcx	TW(21), %r9
	mov	%r9, TW(21)
	adcx	TW(22), %r10
	mov	%r10, TW(22)
	adcx	TW(23), %r11
	mov	%r11, TW(23)
	mov	$0, %esi
	adcx	%rsi, %rsi

	/* Block 1: words 8..15 into rotation 8's W0..W7, head rows q_8..q_15,
	 * the sweep (words 16..23 leave with t_16..t_23 added: r's low half). */
	mov	TW(8), %r14
	mov	TW(9), %rbx
	mov	TW(10), %rbp
	mov	TW(11), %r8
	mov	TW(12), %r9
	mov	TW(13), %r10
	mov	TW(14), %r11
	mov	TW(15), %r12
	HROW	0, ROT8
	HROW	1, ROT0
	HROW	2, ROT1
	HROW	3, ROT2
	HROW	4, ROT3
	HROW	5, ROT4
	HROW	6, ROT5
	HROW	7, ROT6
	RS	0, 16, ROT7
	RS	1, 17, ROT8
	RS	2, 18, ROT0
	RS	3, 19, ROT1
	RS	4, 20, ROT2
	RS	5, 21, ROT3
	RS	6, 22, ROT4
	RS	7, 23, ROT5
	/* Flush: words 24..31 (rotation 5's W1..W8) += t_24..t_31 and block
	 * 0's carry (as the chain's first CF); word 32 (the top bit) in %rax. */
	neg	%rsi
	adcx	TW(24), %r12
	adcx	TW(25), %r13
	adcx	TW(26), %r14
	adcx	TW(27), %rbx
	adcx	TW(28), %rbp
	adcx	TW(29), %r8
	adcx	TW(30), %r9
	adcx	TW(31), %r10
	mov	$0, %eax
	adcx	%rax, %rax

	/* t (words 16..23 in the frame, 24..31 in registers, the top bit)
	 * against m: CF = t < m; b = 1 - CF. */
	CMPM	0
	CMPM	1
	CMPM	2
	CMPM	3
	CMPM	4
	CMPM	5
	CMPM	6
	CMPM	7
	CMPR	8, %r12
	CMPR	9, %r13
	CMPR	10, %r14
	CMPR	11, %rbx
	CMPR	12, %rbp
	CMPR	13, %r8
	CMPR	14, %r9
	CMPR	15, %r10
	mov	$0, %edx		/* (keeps CF) */
	sbb	$0, %rax		/* %rax unused after: only CF matters */
	adc	$0, %rdx		/* %rdx = CF */
	xor	$1, %edx		/* b */
	mov	RPTR, %rsi
	SUBM	0
	SUBM	1
	SUBM	2
	SUBM	3
	SUBM	4
	SUBM	5
	SUBM	6
	SUBM	7
	SUBR	8, %r12
	SUBR	9, %r13
	SUBR	10, %r14
	SUBR	11, %rbx
	SUBR	12, %rbp
	SUBR	13, %r8
	SUBR	14, %r9
	SUBR	15, %r10

	RESTORE	FRAME, r15, r14, r13, r12, rbp, rbx
	ret
	.cfi_endproc
	.size	cs_adx_sqr16, .-cs_adx_sqr16

	OBJECT_NOTES
