/* The ADX kernel's Montgomery squarings at 16 and 24 limbs (1024 and 1536
 * bits) and its multiplication at 16 limbs, straight line: no loop, no
 * counter, no pointer step, and no setup by the caller (the double-length
 * product lives in this frame, every word written before it is read, so
 * nothing is zeroed). The parts are those of adx_blk.S, unrolled by blocks
 * of eight limbs:
 * - squaring's cross products a_k a_l, k < l, once: block b (x =
 *   a_8b..a_8b+7) takes v = a_8b+1..a_n-1 into a window of nine registers,
 *   the low halves on the CF chain (adcx) and the high halves on the OF
 *   chain (adox), the window's lowest word leaving to the frame after each
 *   v with the earlier blocks' word there added (its first seven v take
 *   only the x below them: the block's own triangle); then the doubling
 *   (CF) and the squares a_i^2 (OF) in one pass, words 0..7 left in the
 *   registers where the reduction wants them;
 * - the product a*b the same way, block b (x = b_8b..b_8b+7) taking all of
 *   a_0..a_n-1;
 * - the reduction by blocks of eight q = t_i n0 (a head of eight rows over
 *   m_0..m_7, the q kept in the frame, then a sweep over m_8..m_n-1), each
 *   block's carry word passed to the next block's flush;
 * - the final subtraction: d = t - m to r by an sbb chain, then r = t again
 *   under a mask where that borrowed: no branch or address on the values.
 * Every step starts on fresh flags (a zero idiom) and ends with its carries
 * in its top word, so no carry chain waits for the previous step's. Only n
 * (fixed per function) steers the code. Run only where BMI2 and ADX are
 * present.
 *
 * void cs_adx_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0);
 * void cs_adx_sqr24(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0);
 * void cs_adx_mul16(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
 *                   uint64_t n0);
 * r = a^2 (a*b) / 2^(64n) mod m, fully reduced, for a, b < m (n limbs
 * each), n0 = -m^-1 mod 2^64; r may alias a or b (written last). */

#include "kernels/x86_64_asm.h"
#include "adx_window.h"

/* Loop indices: .irp over these, the range tested inside (no macro
 * recursion: assemblers limit the nesting). */
#define IDX 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, \
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, \
	41, 42, 43, 44, 45, 46, 47

/* Frame: the eight q of a reduction block, the 2n words of t, r. */
#define QW(k) (8 * (k))(%rsp)
#define TW(w) (64 + 8 * (w))(%rsp)

/* Product k (1..7) of a step with np products, multiplier at \src: lo into
 * wk on CF, hi into wk1 on OF; the top product (k = np - 1) writes its hi
 * to wk1 (not live before) and adds both carries there. */
.macro XP k, np, src, wk, wk1
	.if \k < (\np) - 1
	mulx	\src, %rax, %r15
	adcx	%rax, \wk
	adox	%r15, \wk1
	.elseif \k == (\np) - 1
	mulx	\src, %rax, \wk1
	adcx	%rax, \wk
	mov	$0, %eax
	adcx	%rax, \wk1
	adox	%rax, \wk1
	.endif
.endm

/* One step: %rdx times np multipliers at \xoff(\xreg) into W0..W_np; W0
 * first gets the memory word \mem on OF (when given) and leaves to \dst
 * (when given); \clr clears W0's register after (when given: a register a
 * later step adds into before writing). Starts on fresh flags (CF = OF =
 * 0, by the zero idiom) and ends with CF = OF = 0, as the step's sum fits. */
.macro TSTEP np, xoff, xreg, mem, dst, clr, w0, w1, w2, w3, w4, w5, w6, w7, w8
	xor	%eax, %eax
	.if (\np) == 1
	mulx	(\xoff)(\xreg), %rax, \w1
	.else
	mulx	(\xoff)(\xreg), %rax, %r15
	.endif
	adcx	%rax, \w0
	.ifnb \mem
	adox	\mem, \w0
	.endif
	.ifnb \dst
	mov	\w0, \dst
	.endif
	.if (\np) == 1
	mov	$0, %eax
	adcx	%rax, \w1
	adox	%rax, \w1
	.else
	adox	%r15, \w1
	.endif
	XP	1, \np, (8+\xoff)(\xreg), \w1, \w2
	XP	2, \np, (16+\xoff)(\xreg), \w2, \w3
	XP	3, \np, (24+\xoff)(\xreg), \w3, \w4
	XP	4, \np, (32+\xoff)(\xreg), \w4, \w5
	XP	5, \np, (40+\xoff)(\xreg), \w5, \w6
	XP	6, \np, (48+\xoff)(\xreg), \w6, \w7
	XP	7, \np, (56+\xoff)(\xreg), \w7, \w8
	.ifnb \clr
	xor	\w0, \w0
	.endif
.endm

/* \mac \i, \arg, then the window of word \base+i (ROTCALL), for i =
 * from..to. */
.macro FORW mac, from, to, base, arg
	.irp i, IDX
	.if \i >= (\from) && \i <= (\to)
	ROTCALL	(\base)+\i, \mac, \i, \arg
	.endif
	.endr
.endm

/* Word w to the frame, from its register (W0 of its rotation); the frame
 * word into it; the frame word added to it on CF (\keep: left in the
 * register only). The words from..to: STWS, LDWS, ADWS. */
.macro STW_ w, unused, w0, rest:vararg
	mov	\w0, TW(\w)
.endm
.macro LDW_ w, unused, w0, rest:vararg
	mov	TW(\w), \w0
.endm
.macro ADW_ w, keep, w0, rest:vararg
	adcx	TW(\w), \w0
	.ifb \keep
	mov	\w0, TW(\w)
	.endif
.endm
.macro STWS from, to
	FORW	STW_, \from, \to, 0,
.endm
.macro LDWS from, to
	FORW	LDW_, \from, \to, 0,
.endm
.macro ADWS from, to, keep
	FORW	ADW_, \from, \to, 0, \keep
.endm

/* Cross products, block b, step v = a_j: min(j - 8b, 8) products with
 * a_8b.., word 8b + j leaving (with the earlier blocks' word added from
 * block 1 on); a triangle step clears the leaving register. */
/* Block b, step v = a_j: np products with the multipliers at
 * 64b(\xreg), word 8b + j leaving (with the earlier blocks' word added
 * from block 1 on); \clr: clear the leaving register. */
.macro BSTEP b, j, np, xreg, clr
	mov	8*(\j)(%rsi), %rdx
	.if (\b) == 0
	ROTCALL	8*(\b)+(\j), TSTEP, \np, 64*(\b), \xreg, , TW(8*(\b)+(\j)), \clr
	.else
	ROTCALL	8*(\b)+(\j), TSTEP, \np, 64*(\b), \xreg, TW(8*(\b)+(\j)), TW(8*(\b)+(\j)), \clr
	.endif
.endm

/* The blocks of the squaring's cross products (\cross 1: block b, x =
 * a_8b..a_8b+7, takes v = a_8b+1..a_n-1, min(j - 8b, 8) products each,
 * a triangle step clearing its leaving register) or of a*b (\cross 0:
 * block b, x = b_8b..b_8b+7 at %rdi, takes all of a, eight products
 * each); then the block's window words go to the frame: 8b+n..8b+n+7
 * (fresh), except the last cross block's, 2n-8..2n-2. */
.macro BLOCKS n, cross
	.irp b, 0, 1, 2
	.if 8*\b < (\n)
	ZW
	.irp j, IDX
	.if \cross == 0 && \j < (\n)
	BSTEP	\b, \j, 8, %rdi,
	.elseif \cross && \j > 8*\b && \j < (\n) && \j - 8*\b < 8
	BSTEP	\b, \j, (\j)-8*(\b), %rsi, 1
	.elseif \cross && \j > 8*\b && \j < (\n)
	BSTEP	\b, \j, 8, %rsi,
	.endif
	.endr
	.if 8*\b + 8 < (\n) || \cross == 0
	STWS	8*\b+(\n), 8*\b+(\n)+7
	.else
	STWS	2*(\n)-8, 2*(\n)-2
	.endif
	.endif
	.endr
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

/* The same for words 2i and 2i+1, back to the frame. */
.macro DGM i
	mov	8*(\i)(%rsi), %rdx
	mulx	%rdx, %rax, %r15
	mov	TW(2*(\i)), %r14
	adcx	%r14, %r14
	adox	%rax, %r14
	mov	%r14, TW(2*(\i))
	mov	TW(2*(\i)+1), %r14
	adcx	%r14, %r14
	adox	%r15, %r14
	mov	%r14, TW(2*(\i)+1)
.endm

/* The whole pass: words 0..7 in rotation 0's W0..W7, 8..2n-1 in the frame
 * (word 0 and word 2n-1 of the cross products are zero). */
.macro DIAG n
	xor	%eax, %eax
	mov	0(%rsi), %rdx
	mulx	%rdx, %rbx, %r15
	mov	TW(1), %rbp
	adcx	%rbp, %rbp
	adox	%r15, %rbp
	DG	1, %r8, %r9
	DG	2, %r10, %r11
	DG	3, %r12, %r13
	.irp i, IDX
	.if \i >= 4 && \i <= (\n) - 2
	DGM	\i
	.endif
	.endr
	mov	8*(\n)-8(%rsi), %rdx
	mulx	%rdx, %rax, %r15
	mov	TW(2*(\n)-2), %r14
	adcx	%r14, %r14
	adox	%rax, %r14
	mov	%r14, TW(2*(\n)-2)
	mov	$0, %eax
	adcx	%rax, %r15
	adox	%rax, %r15
	mov	%r15, TW(2*(\n)-1)
.endm

/* Reduction head row k: q_k = W0 n0 (imul; its flags cleared after), kept
 * at QW(k); W += q_k m_0..m_7 (W0 becomes zero and drops out). */
.macro HROW k, w0, w:vararg
	mov	\w0, %rdx
	imul	%rcx, %rdx
	mov	%rdx, QW(\k)
	TSTEP	8, 0, %rdi, , , , \w0, \w
.endm
.macro HROWS c
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7
	ROTCALL	8*(\c)+\k, HROW, \k
	.endr
.endm

/* Reduction sweep of block c: v = m_{8+s} (s = 0..n-9) times the block's
 * eight q; word 8c+8+s (the window's lowest) leaves with its frame word
 * added. */
.macro RSWEEP c, n
	.irp s, IDX
	.if \s <= (\n) - 9
	mov	64+8*\s(%rdi), %rdx
	ROTCALL	8*(\c)+8+\s, TSTEP, 8, 0, %rsp, TW(8*(\c)+8+\s), TW(8*(\c)+8+\s),
	.endif
	.endr
.endm

/* The reduction blocks: words 8c..8c+7 into the window (block 0 finds
 * them there unless \ld0), the head, the sweep, and the flush: words 8c+n..8c+n+7 +=
 * their frame words and the previous block's carry (%rsi, the chain's
 * first CF), the carry out to %rsi; the last block keeps its eight words
 * in registers and its carry (word 2n, the top bit) in %rax. */
.macro RBLOCKS n, ld0
	.irp c, 0, 1, 2
	.if 8*\c < (\n)
	.if \c > 0 || \ld0
	LDWS	8*\c, 8*\c+7
	.endif
	HROWS	\c
	RSWEEP	\c, \n
	.if \c > 0
	neg	%rsi
	.endif
	.if 8*\c + 8 < (\n)
	ADWS	8*\c+(\n), 8*\c+(\n)+7,
	mov	$0, %esi
	adcx	%rsi, %rsi
	.else
	ADWS	2*(\n)-8, 2*(\n)-1, 1
	mov	$0, %eax
	adcx	%rax, %rax
	.endif
	.endif
	.endr
.endm

/* Final subtraction, word i of d = t - m (borrow chain) to r (%rsi), t's
 * word from the frame (i < n-8) or its register. */
.macro SUBM_ i, n, w0, rest:vararg
	.if (\i) < (\n) - 8
	mov	TW((\n)+(\i)), %r15
	.else
	mov	\w0, %r15
	.endif
	.if (\i) == 0
	sub	0(%rdi), %r15
	.else
	sbb	8*(\i)(%rdi), %r15
	.endif
	mov	%r15, 8*(\i)(%rsi)
.endm

/* Word i of r = d ^ ((t ^ d) & keep), keep (%rax) all ones where t < m. */
.macro KEEP_ i, n, w0, rest:vararg
	.if (\i) < (\n) - 8
	mov	TW((\n)+(\i)), %r15
	xor	8*(\i)(%rsi), %r15
	and	%rax, %r15
	xor	%r15, 8*(\i)(%rsi)
	.else
	xor	8*(\i)(%rsi), \w0
	and	%rax, \w0
	xor	\w0, 8*(\i)(%rsi)
	.endif
.endm

/* The squaring (\mul 0) or the multiplication (\mul 1) for n limbs (a
 * multiple of 8, at least 16): the cross products and the diagonal, or
 * the product by blocks (m waiting in the frame while %rdi points at b);
 * then the reduction and the final subtraction. */
.macro ADXFN name, n, mul
	.text
	FUNC_BEGIN \name, 6
	SAVE	(72+8*(\mul)+16*(\n)), rbx, rbp, r12, r13, r14, r15
	mov	%rdi, (64+16*(\n))(%rsp)	/* r */
	.if \mul
	mov	%rcx, (72+16*(\n))(%rsp)	/* m */
	mov	%rdx, %rdi		/* b */
	mov	%r8, %rcx		/* n0 */
	BLOCKS	\n, 0
	mov	(72+16*(\n))(%rsp), %rdi	/* m */
	.else
	mov	%rdx, %rdi		/* m; n0 stays in %rcx */
	BLOCKS	\n, 1
	DIAG	\n
	.endif
	RBLOCKS	\n, \mul
	mov	(64+16*(\n))(%rsp), %rsi
	FORW	SUBM_, 0, (\n)-1, \n, \n
	sbb	$0, %rax		/* CF: t < m */
	sbb	%rax, %rax		/* keep */
	FORW	KEEP_, 0, (\n)-1, \n, \n
	RESTORE	(72+8*(\mul)+16*(\n)), r15, r14, r13, r12, rbp, rbx
	ret
	FUNC_END \name
.endm

	ADXFN	cs_adx_sqr16, 16, 0
	ADXFN	cs_adx_sqr24, 24, 0
	ADXFN	cs_adx_mul16, 16, 1

	OBJECT_NOTES
