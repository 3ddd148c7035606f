/* Integer multiply for SPARC v7, which has no umul/smul: the multiply-step
 * instruction (mulscc) applied 32 times plus one final shift. These replace
 * the C library's .umul/.mul (which use the v8 instruction on Linux) inside
 * whatever they are linked into; hidden, so nothing else binds to them.
 * Constant time: no branch on the operands.
 *
 * After `wr y` and 32 steps of `mulscc p, b, p` and one `mulscc p, %g0, p`,
 * p:Y holds b*y with b read as signed and y (the Y register) as unsigned;
 * callers fix the high word for the other signedness. */
	.section ".text"
	.align	4

/* .umul: %o0 * %o1 unsigned; low word in %o0, high word in %o1. */
	.global	.umul
	.hidden	.umul
	.type	.umul, #function
.umul:
	wr	%o0, %g0, %y
	andcc	%g0, %g0, %o4		/* p = 0, N = V = 0 */
	sra	%o1, 31, %o5
	and	%o5, %o0, %o5		/* b < 0 as signed: add y to the high word */
#define STEP mulscc %o4, %o1, %o4
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	mulscc	%o4, %g0, %o4
	add	%o4, %o5, %o1
	retl
	 rd	%y, %o0
	.size	.umul, .-.umul

/* .mul: %o0 * %o1 signed; low word in %o0, high word in %o1. */
	.global	.mul
	.hidden	.mul
	.type	.mul, #function
.mul:
	wr	%o0, %g0, %y
	andcc	%g0, %g0, %o4
	sra	%o0, 31, %o5
	and	%o5, %o1, %o5		/* y < 0 as signed: subtract b from the high word */
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	mulscc	%o4, %g0, %o4
	sub	%o4, %o5, %o1
	retl
	 rd	%y, %o0
	.size	.mul, .-.mul

/* uint64_t cs_v7_umul64(uint32_t a, uint32_t b): the full product with C's
 * return convention (high word in %o0, low word in %o1). */
	.global	cs_v7_umul64
	.hidden	cs_v7_umul64
	.type	cs_v7_umul64, #function
cs_v7_umul64:
	wr	%o0, %g0, %y
	andcc	%g0, %g0, %o4
	sra	%o1, 31, %o5
	and	%o5, %o0, %o5
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	STEP; STEP; STEP; STEP; STEP; STEP; STEP; STEP
	mulscc	%o4, %g0, %o4
	add	%o4, %o5, %o0
	retl
	 rd	%y, %o1
	.size	cs_v7_umul64, .-cs_v7_umul64

	.section .note.GNU-stack,"",@progbits
