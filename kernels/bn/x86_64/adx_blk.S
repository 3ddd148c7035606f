/* Montgomery product, squaring cross products and reduction by blocks of
 * eight rows, for the ADX kernel (adx.c) at sizes that are a multiple of
 * eight limbs, with that size's squaring diagonal and final subtraction.
 * Eight multipliers x_0..x_7 sit on the stack; a sweep takes the other
 * operand's words v_j one at a time and adds v_j x_k into a window of nine
 * registers (words j..j+8 of this block's sum): the low halves on the CF
 * chain (adcx), the high halves on the OF chain (adox), and the window's
 * lowest word leaves by adding the memory word under it on the OF chain
 * before the high halves, so each step's carries stay inside the window
 * and both chains end at zero. The loop counter's `sub` then starts the
 * next step on fresh flags, so no chain runs from one step to the next.
 * The window moves by renaming: nine copies of the step, one for each
 * rotation of the nine registers, and nine exits. The reduction computes
 * each block's eight q = t_i n0 in a head (rows over m_0..m_7 in the same
 * window), then sweeps m_8..m_{n-1} with them. Only n steers control: no
 * branch or address depends on number values. Run only where BMI2 and ADX
 * are present. */

/* Locals (above them the six saved registers). */
#define XS 0        /* the block's eight multipliers */
#define TOPC 64     /* carry word above the last block's top word */
#define N0 72       /* n0 (reduction) */
#define TBASE 80    /* &t[i0] of the block */
#define VBASE 88    /* the swept operand (a, or m) */
#define XSRC 96     /* the next block's multipliers (product) */
#define NW 104      /* n */
#define BLEFT 112   /* blocks left */
#define FRAME 128

#include "kernels/x86_64_asm.h"
#include "adx_window.h"

/* A block function's entry: \name's frame, each argument register \reg
 * to its slot (then the pairs in \rest), BLEFT = n / 8 with n in \nreg,
 * no carry word yet (TOPC). */
.macro BLK_BEGIN name, nreg, reg, slot, rest:vararg
	FUNC_BEGIN \name
	SAVE	FRAME, rbx, rbp, r12, r13, r14, r15
	ARGS	\reg, \slot, \rest
	shr	$3, \nreg
	mov	\nreg, BLEFT(%rsp)
	movq	$0, TOPC(%rsp)
.endm
.macro ARGS reg, slot, rest:vararg
	mov	\reg, \slot(%rsp)
	.ifnb \rest
	ARGS	\rest
	.endif
.endm

/* The next block (back to \loop) while BLEFT counts down. */
.macro BLK_NEXT loop
	decq	BLEFT(%rsp)
	jnz	\loop
.endm

/* A block function's exit. */
.macro BLK_END name
	RESTORE	FRAME, r15, r14, r13, r12, rbp, rbx
	ret
	FUNC_END \name
.endm

/* The block's eight multipliers (at \src) to the stack (XS). */
.macro LOADXS src
	.irp k, 0, 8, 16, 24, 32, 40, 48, 56
	mov	\k(\src), %rdx
	mov	%rdx, XS+\k(%rsp)
	.endr
.endm

/* W0..W8 += %rdx * x (x: eight words at \x), the low halves on CF, the
 * high halves on OF, W8 taking the top high half and both carries; W0 is
 * first given \first (the memory word under it, on OF) when \first is not
 * empty. CF = OF = 0 on entry and, as the sum fits the window, on exit. */
.macro ROW8 x, first, w:vararg
	ROWR	\x, 0, \first, \w
.endm

/* ROW8 from the word at \off+\x and window register \wk on: lo into wk
 * on CF, hi into wk1 on OF; the last word's hi written to the top register
 * with both carries. */
.macro ROWR x, off, first, wk, wk1, ws:vararg
	.ifb \ws
	mulx	\off+\x, %rax, \wk1
	adcx	%rax, \wk
	mov	$0, %eax
	adcx	%rax, \wk1
	adox	%rax, \wk1
	.else
	mulx	\off+\x, %rax, %r15
	adcx	%rax, \wk
	.ifnb \first
	adox	\first, \wk
	.endif
	adox	%r15, \wk1
	ROWR	\x, \off+8, , \wk1, \ws
	.endif
.endm

/* One sweep step: v_j (at %rsi) times the eight multipliers into the
 * window, word j (W0) leaves to t (at %rdi) with the memory word added;
 * then the next v and t word, and \exit once %rcx steps are done. */
.macro STEP exit, w0, w1, w2, w3, w4, w5, w6, w7, w8
	mov	(%rsi), %rdx
	ROW8	XS(%rsp), (%rdi), \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
	mov	\w0, (%rdi)
	lea	8(%rsi), %rsi
	lea	8(%rdi), %rdi
	sub	$1, %rcx		/* CF = OF = 0 for the next step */
	jz	\exit
.endm

/* After the last step: the window's eight words W1..W8 go to t[0..7] (at
 * %rdi) added to what is there, with TOPC (the previous block's carry
 * word, whose place is t[0]) on OF; the carry word out of t[7] becomes
 * TOPC. CF = OF = 0 on entry. */
.macro FLUSH done, w0, w1, ws:vararg
	mov	TOPC(%rsp), %rax
	ADDW	0, \w1
	mov	$0, %eax
	ADDW	8, \ws
	mov	$0, %edx
	adcx	%rdx, %rax		/* %rax = CF + OF */
	adox	%rdx, %rax
	mov	%rax, TOPC(%rsp)
	jmp	\done
.endm

/* t words from \off (bytes, at %rdi) on = t + the registers \w, \ws, each
 * given %rax on OF first, t's word on CF. */
.macro ADDW off, w, ws:vararg
	adox	%rax, \w
	adcx	\off(%rdi), \w
	mov	\w, \off(%rdi)
	.ifnb \ws
	ADDW	\off+8, \ws
	.endif
.endm

/* The sweep: entered at \p\()s8 (the window in rotation 8), %rcx >= 1
 * steps; each exit flushes its rotation and jumps to \done. */
.macro SWEEP p, done
	.p2align 4
\p\()s0:
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	ROTCALL	\r, STEP, \p\()x\r
	.endr
\p\()s8: STEP \p\()x8, ROT8
	jmp	\p\()s0
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8
\p\()x\r: ROTCALL \r, FLUSH, \done
	.endr
.endm

/* void cs_adx_blk_mul(uint64_t *t, const uint64_t *a, const uint64_t *b, size_t n);
 * t: 2n words, zero on entry; on return t = a*b. n a multiple of 8. Block
 * i0 (rows b_i0..b_i0+7) sweeps a_0..a_{n-1} into t[i0..], its top eight
 * words landing in t[i0+n..i0+n+7], which no earlier block reached. */
	.text
	BLK_BEGIN cs_adx_blk_mul, %rcx, %rdi, TBASE, %rsi, VBASE, %rdx, XSRC, %rcx, NW
.Lmblock:
	mov	XSRC(%rsp), %rax
	LOADXS	%rax
	lea	64(%rax), %rax
	mov	%rax, XSRC(%rsp)
	mov	TBASE(%rsp), %rdi
	mov	VBASE(%rsp), %rsi
	mov	NW(%rsp), %rcx
	ZW
	jmp	.Lm_s8
	SWEEP	.Lm_, .Lmdone
.Lmdone:
	addq	$64, TBASE(%rsp)
	BLK_NEXT .Lmblock
	BLK_END	cs_adx_blk_mul

/* void cs_adx_blk_redc(uint64_t *t, const uint64_t *m, uint64_t n0, size_t n);
 * t: 2n+1 words, the value below m 2^(64n) in t[0..2n-1]; on return
 * t[n..2n] = t/2^(64n) mod m, below 2m (t[2n] the top bit). n a multiple
 * of 8. Block i0: the head takes t[i0..i0+7] into the window and, row by
 * row, q_k = W0 n0 (kept on the stack), W += q_k m_0..7 (W0 becomes zero
 * and drops out); the sweep adds q_k m_8..m_{n-1}; the flush's carry word
 * (TOPC) waits for the next block's flush, whose t[0] is its place. */
.macro HEAD k, w0, w1, w2, w3, w4, w5, w6, w7, w8
	mov	\w0, %rdx
	imul	N0(%rsp), %rdx		/* q */
	xor	%eax, %eax		/* CF = OF = 0 again */
	mov	%rdx, XS+\k(%rsp)
	ROW8	0(%rsi), , \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
.endm

	BLK_BEGIN cs_adx_blk_redc, %rcx, %rdi, TBASE, %rsi, VBASE, %rdx, N0, %rcx, NW
.Lrblock:
	mov	TBASE(%rsp), %rdi
	mov	VBASE(%rsp), %rsi
	mov	0(%rdi), %rbx		/* window rotation 0: t[i0..i0+7] */
	mov	8(%rdi), %rbp
	mov	16(%rdi), %r8
	mov	24(%rdi), %r9
	mov	32(%rdi), %r10
	mov	40(%rdi), %r11
	mov	48(%rdi), %r12
	mov	56(%rdi), %r13
	xor	%eax, %eax		/* CF = OF = 0 */
	HEAD	0, ROT0
	HEAD	8, ROT1
	HEAD	16, ROT2
	HEAD	24, ROT3
	HEAD	32, ROT4
	HEAD	40, ROT5
	HEAD	48, ROT6
	HEAD	56, ROT7
	lea	64(%rsi), %rsi		/* sweep m_8.. from t[i0+8] */
	lea	64(%rdi), %rdi
	mov	NW(%rsp), %rcx
	sub	$8, %rcx		/* CF = OF = 0 */
	jz	.Lr_x7			/* n = 8: no sweep (rotation 8 = after 7) */
	jmp	.Lr_s8
	SWEEP	.Lr_, .Lrdone
.Lrdone:
	addq	$64, TBASE(%rsp)
	BLK_NEXT .Lrblock
	mov	TOPC(%rsp), %rax	/* t[2n]: the last carry */
	mov	%rax, 64(%rdi)
	BLK_END	cs_adx_blk_redc

/* Product k of a triangle step with j products (k < j): lo_k into W_k on
 * CF; for k = 0 the memory word under W0 on OF and W0 leaves; hi_k into
 * W_{k+1} on OF, or, for the top product (k = j-1), written to W_j (zero
 * until now) with both carries added. */
.macro TPROD k, j, wk, wk1
	.if (\k) == \j - 1
	mulx	XS+8*(\k)(%rsp), %rax, \wk1
	.else
	mulx	XS+8*(\k)(%rsp), %rax, %r15
	.endif
	adcx	%rax, \wk
	.if (\k) == 0
	adox	(%rdi), \wk
	mov	\wk, (%rdi)
	.endif
	.if (\k) == \j - 1
	mov	$0, %eax
	adcx	%rax, \wk1
	adox	%rax, \wk1
	.else
	adox	%r15, \wk1
	.endif
.endm

/* Products k..j-1 of a triangle step (TPROD), window registers from W_k. */
.macro TPRODS k, j, wk, wk1, ws:vararg
	TPROD	\k, \j, \wk, \wk1
	.if (\k) + 1 < \j
	TPRODS	(\k)+1, \j, \wk1, \ws
	.endif
.endm

/* Step j (1..7) of a diagonal block's triangle: v = a_{i0+j} times x_0..
 * x_{j-1} (the products a_k a_l, k < l, inside the block) into the window;
 * W0 leaves as in STEP, and its register is cleared (with the flags) to
 * serve as the next step's W8. */
.macro TSTEP j, w0, w1, w2, w3, w4, w5, w6, w7, w8
	mov	(%rsi), %rdx
	TPRODS	0, \j, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
	xor	\w0, \w0		/* CF = OF = 0 */
	lea	8(%rsi), %rsi
	lea	8(%rdi), %rdi
.endm

/* void cs_adx_blk_sqr_cross(uint64_t *t, const uint64_t *a, size_t n);
 * t: 2n words, zero on entry; on return t = the sum of a_k a_l 2^(64(k+l))
 * over k < l (each cross product once), as cs_adx_sqr_cross. n a multiple
 * of 8. Block i0 (x = a_i0..a_i0+7) sweeps a_{i0+1}..a_{n-1} into t from
 * word 2 i0 + 1: the first seven steps take only the x_k below the swept
 * word (the block's own triangle), the rest all eight; the top eight
 * words land in t[i0+n..i0+n+7], with the carry word (TOPC) passed to the
 * next block's flush as in the reduction. */
	/* TBASE: &t[2 i0]; XSRC: &a[i0]; NW: full steps, n - i0 - 8 */
	BLK_BEGIN cs_adx_blk_sqr_cross, %rdx, %rdi, TBASE, %rsi, XSRC, %rdx, NW
.Lsblock:
	mov	XSRC(%rsp), %rsi
	LOADXS	%rsi
	lea	8(%rsi), %rsi		/* a_{i0+1} */
	mov	TBASE(%rsp), %rdi
	lea	8(%rdi), %rdi		/* t[2 i0 + 1] */
	ZW
	TSTEP	1, ROT1
	TSTEP	2, ROT2
	TSTEP	3, ROT3
	TSTEP	4, ROT4
	TSTEP	5, ROT5
	TSTEP	6, ROT6
	TSTEP	7, ROT7
	mov	NW(%rsp), %rcx
	sub	$8, %rcx		/* CF = OF = 0 */
	mov	%rcx, NW(%rsp)
	jz	.Ls_x7			/* the last block: no full steps */
	jmp	.Ls_s8
	SWEEP	.Ls_, .Lsdone
.Lsdone:
	addq	$64, XSRC(%rsp)
	addq	$128, TBASE(%rsp)
	BLK_NEXT .Lsblock
	BLK_END	cs_adx_blk_sqr_cross

/* void cs_adx_blk_diag(uint64_t *t, const uint64_t *a, size_t n);
 * As cs_adx_sqr_diag (t = 2t + the squares a_i^2 2^(128i), the doubling on
 * CF, the squares on OF), four words of a a pass; n a multiple of 4. */
	DIAG_FN	cs_adx_blk_diag, 2, %eax, 0, 8, 16, 24

/* void cs_adx_blk_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n);
 * As cs_adx_reduce (r = t mod m for t, n+1 words, below 2m; r apart from
 * t), n a multiple of 8: r = t - m by one sbb chain eight words a pass
 * (dec keeps CF), then r = t again where that borrowed out of t[n], by a
 * mask over 128-bit words: no branch or address on the values. */
	FUNC_BEGIN cs_adx_blk_reduce
	mov	%rdi, %r9		/* r */
	mov	%rsi, %r10		/* t */
	mov	%rcx, %r8
	shr	$3, %r8			/* passes */
	mov	%r8, %r11
	clc
1:	.irp k, 0, 8, 16, 24, 32, 40, 48, 56
	mov	\k(%rsi), %rax
	sbb	\k(%rdx), %rax
	mov	%rax, \k(%rdi)
	.endr
	lea	64(%rsi), %rsi
	lea	64(%rdx), %rdx
	lea	64(%rdi), %rdi
	dec	%r8
	jnz	1b
	mov	(%rsi), %rax
	sbb	$0, %rax		/* CF: t < m */
	sbb	%rax, %rax		/* all ones where t is kept */
	movq	%rax, %xmm0
	punpcklqdq %xmm0, %xmm0
2:	.irp k, 0, 16, 32, 48
	movdqu	\k(%r9), %xmm1		/* r = d ^ ((t ^ d) & keep) */
	movdqu	\k(%r10), %xmm2
	pxor	%xmm1, %xmm2
	pand	%xmm0, %xmm2
	pxor	%xmm2, %xmm1
	movdqu	%xmm1, \k(%r9)
	.endr
	lea	64(%r9), %r9
	lea	64(%r10), %r10
	dec	%r11
	jnz	2b
	ret
	FUNC_END cs_adx_blk_reduce

	OBJECT_NOTES
