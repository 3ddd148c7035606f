/* Montgomery multiplication rows with MULX and two carry chains (ADCX on
 * CF for the low words of the products, ADOX on OF for the high words),
 * for the ADX kernel (adx.c). Word-serial: for each b_i, one pass adds
 * a*b_i into t, one pass adds q*m (q = t_0 n0) and moves t down a word.
 * Each pass runs n mod 4 single steps, then blocks of four; pointers and
 * counters move by lea and loops exit by jrcxz, so neither carry flag is
 * disturbed inside a pass. No branch or address depends on number values:
 * only n steers control. Run only where BMI2 and ADX are present.
 *
 * void cs_adx_mont_rows(uint64_t *t, const uint64_t *a, const uint64_t *b,
 *                       const uint64_t *m, uint64_t n0, size_t n);
 * t: n+2 words, zero on entry; on return t[0..n] = a*b/2^(64n) (mod m,
 * below 2m), t[n+1] = 0. a, b < m, n >= 1. */

#include "kernels/x86_64_asm.h"
#include "adx_window.h"

/* Locals below the six saved registers. */
#define SINGLES_A 0   /* n mod 4 */
#define BLOCKS_A 8    /* 4 * (n / 4) */
#define SINGLES_M 16  /* (n - 1) mod 4 */
#define BLOCKS_M 24   /* 4 * ((n - 1) / 4) */

/* \singles and \blocks (stack slots) = x mod 4 and 4 (x / 4) for the
 * pass counts of PASS, x loaded into %rax by \load. */
.macro COUNTS load, singles, blocks
	\load, %rax
	and	$3, %rax
	mov	%rax, \singles
	\load, %rax
	and	$-4, %rax
	mov	%rax, \blocks
.endm

/* t[j] += lo(a_j x) + hi(a_{j-1} x), stored \down bytes below t[j]: %r10
 * at a_j, %r11 at t_j, %r8 the previous high word, %rdx the multiplier. */
.macro STEPX off, down
	mulx	\off(%r10), %rax, %r9
	mov	\off(%r11), %rdi
	adcx	%rax, %rdi
	adox	%r8, %rdi
	mov	%rdi, \off-\down(%r11)
	mov	%r9, %r8
.endm

/* STEPA: in place; STEPM: with m and q, storing one word down (t[j-1] =
 * t[j] + ...). */
.macro STEPA off
	STEPX	\off, 0
.endm
.macro STEPM off
	STEPX	\off, 8
.endm

/* One pass of STEP over SINGLES single steps, then BLOCKS/4 blocks; the
 * counts are operands (a stack slot, or %rcx for SINGLES already there). */
.macro PASS step, singles, blocks
	.ifnc \singles,%rcx
	mov	\singles, %rcx
	.endif
	jrcxz	2f
1:	\step	0
	lea	8(%r10), %r10
	lea	8(%r11), %r11
	lea	-1(%rcx), %rcx
	jrcxz	2f
	jmp	1b
2:	mov	\blocks, %rcx
	jrcxz	5f			/* jrcxz reaches 127 bytes: hop */
	jmp	3f
5:	jmp	4f
3:	\step	0
	\step	8
	\step	16
	\step	24
	lea	32(%r10), %r10
	lea	32(%r11), %r11
	lea	-4(%rcx), %rcx
	jrcxz	4f
	jmp	3b
4:
.endm

	.text
	FUNC_BEGIN cs_adx_mont_rows
	SAVE	32, rbx, rbp, r12, r13, r14, r15

	mov	%rdi, %r13		/* t */
	mov	%rdx, %rbx		/* b cursor */
	mov	%rcx, %r12		/* m */
	mov	%r8, %rbp		/* n0 */
	mov	%r9, %r15		/* n */
	COUNTS	"mov %r9", SINGLES_A(%rsp), BLOCKS_A(%rsp)
	COUNTS	"lea -1(%r9)", SINGLES_M(%rsp), BLOCKS_M(%rsp)
	mov	%r9, %r14		/* rows left */

.Lrow:
	/* t += a * b_i; t[n+1] (zero) takes the carries. */
	mov	(%rbx), %rdx
	lea	8(%rbx), %rbx
	mov	%rsi, %r10
	mov	%r13, %r11
	xor	%r8d, %r8d		/* no high word yet; CF = OF = 0 */
	PASS	STEPA, SINGLES_A(%rsp), BLOCKS_A(%rsp)
	mov	$0, %eax
	mov	(%r11), %rdi		/* t[n] += CF + last high + OF */
	adcx	%rax, %rdi
	adox	%r8, %rdi
	mov	%rdi, (%r11)
	mov	$0, %edi
	adcx	%rax, %rdi
	adox	%rax, %rdi
	mov	%rdi, 8(%r11)		/* t[n+1] */

	/* q = t_0 n0; t = (t + q m) / 2^64. Step 0 only carries (its word
	 * becomes zero). */
	mov	(%r13), %rdx
	imul	%rbp, %rdx
	mov	%r12, %r10
	mov	%r13, %r11
	xor	%r8d, %r8d
	mulx	(%r10), %rax, %r8
	mov	(%r11), %rdi
	adcx	%rax, %rdi
	lea	8(%r10), %r10
	lea	8(%r11), %r11
	PASS	STEPM, SINGLES_M(%rsp), BLOCKS_M(%rsp)
	mov	$0, %eax
	mov	(%r11), %rdi		/* t[n-1] = t[n] + CF + last high + OF */
	adcx	%rax, %rdi
	adox	%r8, %rdi
	mov	%rdi, -8(%r11)
	mov	8(%r11), %rdi		/* t[n] = t[n+1] + the carries */
	adcx	%rax, %rdi
	adox	%rax, %rdi
	mov	%rdi, (%r11)
	movq	$0, 8(%r11)

	dec	%r14
	jnz	.Lrow

	RESTORE	32, r15, r14, r13, r12, rbp, rbx
	ret
	FUNC_END cs_adx_mont_rows

/* Squaring's cross products for the ADX kernel's squaring (adx.c):
 *
 * void cs_adx_sqr_cross(uint64_t *t, const uint64_t *a, size_t n);
 * t: 2n words, zero on entry; on return t = the sum of a_i a_j 2^(64(i+j))
 * over i < j (each cross product once). n >= 2. Row i adds a_i times
 * a_{i+1..n-1} at word 2i+1 and writes its carry word to t[i+n], which no
 * earlier row reached. Only n steers control. */
	.text
	FUNC_BEGIN cs_adx_sqr_cross
	SAVE	0, rbx, r13, r14, r15

	mov	%rsi, %rbx		/* &a_i */
	lea	8(%rdi), %r13		/* &t[2i+1] */
	lea	-1(%rdx), %r14		/* row length n-1-i */
.Lxrow:
	mov	%r14, %rcx
	and	$3, %rcx		/* single steps */
	mov	%r14, %r15
	and	$-4, %r15		/* words in blocks */
	mov	(%rbx), %rdx		/* the multiplier a_i */
	lea	8(%rbx), %r10
	mov	%r13, %r11
	xor	%r8d, %r8d		/* CF = OF = 0 */
	PASS	STEPA, %rcx, %r15	/* singles in %rcx, blocks in %r15 */
	mov	$0, %eax		/* t[i+n] = last high + CF + OF (fits) */
	adcx	%rax, %r8
	adox	%rax, %r8
	mov	%r8, (%r11)
	lea	8(%rbx), %rbx
	lea	16(%r13), %r13
	dec	%r14
	jnz	.Lxrow

	RESTORE	0, r15, r14, r13, rbx
	ret
	FUNC_END cs_adx_sqr_cross

/* The squaring's diagonal: t = 2t + the sum of a_i^2 2^(128i), for t (2n
 * words) holding the cross products, so t becomes a^2 (it fits); one word
 * of a a pass (adx_window.h).
 *
 * void cs_adx_sqr_diag(uint64_t *t, const uint64_t *a, size_t n); n >= 1. */
	DIAG_FN	cs_adx_sqr_diag, 0, %r8d, 0

/* Montgomery reduction of a double-length number for the ADX squaring:
 *
 * void cs_adx_redc(uint64_t *t, const uint64_t *m, uint64_t n0, size_t n);
 * t: 2n+1 words, t[2n] zero, the value below m 2^(64n); on return
 * t[n..2n] = t/2^(64n) mod m, below 2m (t[2n] the top bit). For each i,
 * q = t_i n0 and t += q m 2^(64i) (word i becomes zero); the row's carry
 * word and the carry bit kept in %r15 go into t[i+n]. Only n steers
 * control. */
	FUNC_BEGIN cs_adx_redc
	SAVE	32, rbx, rbp, r12, r13, r14, r15

	mov	%rdi, %r13		/* &t[i] */
	mov	%rsi, %r12		/* m */
	mov	%rdx, %rbp		/* n0 */
	mov	%rcx, %r14		/* rows left */
	COUNTS	"mov %rcx", SINGLES_A(%rsp), BLOCKS_A(%rsp)
	xor	%r15d, %r15d		/* carry bit into t[i+n] */
.Lrrow:
	mov	(%r13), %rdx
	imul	%rbp, %rdx		/* q */
	mov	%r12, %r10
	mov	%r13, %r11
	xor	%r8d, %r8d		/* CF = OF = 0 */
	PASS	STEPA, SINGLES_A(%rsp), BLOCKS_A(%rsp)
	mov	$0, %eax		/* carry word: last high + CF + OF (fits) */
	adcx	%rax, %r8
	adox	%rax, %r8
	mov	(%r11), %rdi		/* t[i+n] += carry word + carry bit */
	add	%r8, %rdi
	mov	$0, %r8d
	adc	%r8, %r8
	add	%r15, %rdi
	adc	$0, %r8
	mov	%rdi, (%r11)
	mov	%r8, %r15
	lea	8(%r13), %r13
	dec	%r14
	jnz	.Lrrow
	mov	%r15, 8(%r11)		/* t[2n]: the last carry bit */

	RESTORE	32, r15, r14, r13, r12, rbp, rbx
	ret
	FUNC_END cs_adx_redc

/* The final subtraction of the ADX kernel's products:
 *
 * void cs_adx_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n);
 * t: n+1 words below 2m; r (n words, may not overlap t) = t mod m. r = t - m
 * by one sbb chain (dec keeps CF), then where that borrowed out of t[n]
 * too (t < m) r = t again, by mask: no branch on the values. n >= 1. */
	FUNC_BEGIN cs_adx_reduce
	xor	%r8d, %r8d		/* word index; CF = 0 */
	mov	%rcx, %r9
1:	mov	(%rsi,%r8,8), %rax
	sbb	(%rdx,%r8,8), %rax
	mov	%rax, (%rdi,%r8,8)
	lea	1(%r8), %r8
	dec	%r9
	jnz	1b
	mov	(%rsi,%rcx,8), %rax
	sbb	$0, %rax		/* CF: t < m */
	sbb	%rax, %rax		/* all ones where t is kept */
	xor	%r8d, %r8d
2:	mov	(%rdi,%r8,8), %r10	/* r = d ^ ((t ^ d) & keep) */
	mov	(%rsi,%r8,8), %r11
	xor	%r10, %r11
	and	%rax, %r11
	xor	%r11, %r10
	mov	%r10, (%rdi,%r8,8)
	lea	1(%r8), %r8
	cmp	%rcx, %r8
	jne	2b
	ret
	FUNC_END cs_adx_reduce

	OBJECT_NOTES
