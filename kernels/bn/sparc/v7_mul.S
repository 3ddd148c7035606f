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

/* Function \name: p:Y = %o0 * %o1 by the 32 steps and the shift, the
 * high word corrected by \fix (add or sub) of \oreg where \sreg is
 * negative (a mask, no branch), then returned in \hi, the low word (Y) in
 * \lo. */
.macro MULFN name, sreg, oreg, fix, hi, lo
	.global	\name
	.hidden	\name
	.type	\name, #function
\name:
	wr	%o0, %g0, %y
	andcc	%g0, %g0, %o4		/* p = 0, N = V = 0 */
	sra	\sreg, 31, %o5
	and	%o5, \oreg, %o5
	.rept	32
	mulscc	%o4, %o1, %o4
	.endr
	mulscc	%o4, %g0, %o4
	\fix	%o4, %o5, \hi
	retl
	 rd	%y, \lo
	.size	\name, .-\name
.endm

/* .umul: %o0 * %o1 unsigned; low word in %o0, high word in %o1 (b < 0 as
 * signed: add y to the high word). */
	MULFN	.umul, %o1, %o0, add, %o1, %o0

/* .mul: %o0 * %o1 signed; low word in %o0, high word in %o1 (y < 0 as
 * signed: subtract b from the high word). */
	MULFN	.mul, %o0, %o1, sub, %o1, %o0

/* uint64_t cs_v7_umul64(uint32_t a, uint32_t b): the full product with C's
 * return convention (high word in %o0, low word in %o1). */
	MULFN	cs_v7_umul64, %o1, %o0, add, %o0, %o1

	.section .note.GNU-stack,"",@progbits
