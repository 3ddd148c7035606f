/* Four Keccak-f[1600] permutations with AVX2 (as x4_planes_avx2.S) and a
 * fifth on 64-bit general registers, in one instruction stream: the
 * vector rounds leave issue slots free (the round-to-round theta path) and
 * two integer ports the vector units do not have, which the scalar rounds
 * fill, so together they cost a little less than the two one after the
 * other (1800 TSC cycles against 1232 + 634 on a Sapphire Rapids class
 * Xeon).
 * The "avx2" ML-DSA table's ExpandA uses it to absorb keygen's
 * tr = H(pk) (kernels/mldsa/x86_64/expand_avx2.c).
 *
 * Both go plane by plane with the state in memory. The vector part is
 * x4_planes_avx2.S's: s4 -> A -> E -> A ... -> s4. The scalar state is
 * copied to SE, then rounds go SE -> SA -> SE (all on the stack, so no
 * pointer register), and SE is copied back: its registers are 5 d, 5 b and
 * a temporary, which with the vector part's pointers and the frame take
 * all sixteen. Its parities are loaded at each round start (its path from
 * round to round is shorter than the vector one's anyway). Rotations are
 * rorx (BMI2; every AVX2 CPU has it, mk/kernels_keccak.mk). */

#include "kernels/x86_64_asm.h"

#define S4	%rdi	/* the caller's vector states, until saved */
#define S1	%rsi	/* the caller's scalar state, until saved */
#define SRC	%rsi	/* this iteration's first vector source: s4, then E */
#define DST	%rdx	/* this iteration's last vector destination: E, or s4 */
#define RC	%rcx	/* the round constants of this iteration */
#define ABUF	%rsp	/* A at 0(%rsp), E at 800(%rsp) */
#define EOFF	800
#define SAOFF	1600	/* SA, SE: the scalar state's two buffers */
#define SEOFF	1800
#define S4SAVE	2000	/* s4, s1 and the iterations left */
#define S1SAVE	2008
#define NLEFT	2016
#define FRAME	2048

#define SB0 %rax	/* scalar: a plane after rho and pi; */
#define SB1 %rbx	/* at a round's start the column parities */
#define SB2 %rdi
#define SB3 %r8
#define SB4 %r9
#define SD0 %r10	/* theta's d */
#define SD1 %r11
#define SD2 %r12
#define SD3 %r13
#define SD4 %r14
#define ST %r15	/* chi's output on its way to memory */

#include "planes_avx2.h"

/* Scalar theta from the buffer at off(%rsp): c_x in SB_x, d_x in SD_x. */
.macro SPAR5 c, off, x
	mov	\off+8*\x(%rsp), \c
	xor	\off+8*\x+40(%rsp), \c
	xor	\off+8*\x+80(%rsp), \c
	xor	\off+8*\x+120(%rsp), \c
	xor	\off+8*\x+160(%rsp), \c
.endm

.macro SDCOL d, cm, cp
	rorx	$63, \cp, \d
	xor	\cm, \d
.endm

.macro STHETA off
	SPAR5	SB0, \off, 0
	SPAR5	SB1, \off, 1
	SPAR5	SB2, \off, 2
	SPAR5	SB3, \off, 3
	SPAR5	SB4, \off, 4
	SDCOL	SD0, SB4, SB1
	SDCOL	SD1, SB0, SB2
	SDCOL	SD2, SB1, SB3
	SDCOL	SD3, SB2, SB4
	SDCOL	SD4, SB3, SB0
.endm

/* b = rol(lane l of the buffer at off(%rsp) ^ d, n). */
.macro SLANE b, off, l, d, n
	mov	\off+8*(\l)(%rsp), \b
	xor	\d, \b
	.if \n
	rorx	$64-\n, \b, \b
	.endif
.endm

/* Lane l of the buffer at off(%rsp) = b ^ (~b1 & b2). */
.macro SCHI b, b1, b2, off, l
	andn	\b2, \b1, ST
	xor	\b, ST
	mov	ST, \off+8*(\l)(%rsp)
.endm

/* Output plane y from the buffer at soff to the one at doff, as PLANE;
 * with rc not blank, iota on lane 0. */
.macro SPLANE soff, doff, y, rc, l0, d0, n0, l1, d1, n1, l2, d2, n2, l3, d3, n3, l4, d4, n4
	SLANE	SB0, \soff, \l0, \d0, \n0
	SLANE	SB1, \soff, \l1, \d1, \n1
	SLANE	SB2, \soff, \l2, \d2, \n2
	SLANE	SB3, \soff, \l3, \d3, \n3
	SLANE	SB4, \soff, \l4, \d4, \n4
	.ifnb \rc
	andn	SB2, SB1, ST
	xor	SB0, ST
	xor	\rc, ST
	mov	ST, \doff+40*\y(%rsp)
	.else
	SCHI	SB0, SB1, SB2, \doff, 5*\y
	.endif
	SCHI	SB1, SB2, SB3, \doff, 5*\y+1
	SCHI	SB2, SB3, SB4, \doff, 5*\y+2
	SCHI	SB3, SB4, SB0, \doff, 5*\y+3
	SCHI	SB4, SB0, SB1, \doff, 5*\y+4
.endm

/* One round of both: vector src -> dst, scalar soff -> doff, round
 * constant rc; each vector plane followed by the same scalar one (same
 * lane indices and rotations, as x4_planes_avx2.S). */
.macro ROUND src, dst, soff, doff, rc
	THETA	\src
	STHETA	\soff
	PLANE_M	\src, \dst, 0, \rc, 0, D0, 0, 6, D1, 44, 12, D2, 43, 18, D3, 21, 24, D4, 14
	SPLANE	\soff, \doff, 0, \rc, 0, SD0, 0, 6, SD1, 44, 12, SD2, 43, 18, SD3, 21, 24, SD4, 14
	PLANE_M	\src, \dst, 1, , 3, D3, 28, 9, D4, 20, 10, D0, 3, 16, D1, 45, 22, D2, 61
	SPLANE	\soff, \doff, 1, , 3, SD3, 28, 9, SD4, 20, 10, SD0, 3, 16, SD1, 45, 22, SD2, 61
	PLANE_M	\src, \dst, 2, , 1, D1, 1, 7, D2, 6, 13, D3, 25, 19, D4, 8, 20, D0, 18
	SPLANE	\soff, \doff, 2, , 1, SD1, 1, 7, SD2, 6, 13, SD3, 25, 19, SD4, 8, 20, SD0, 18
	PLANE_C	\src, \dst, 3, 4, D4, 27, 5, D0, 36, 11, D1, 10, 17, D2, 15, 23, D3, 56
	SPLANE	\soff, \doff, 3, , 4, SD4, 27, 5, SD0, 36, 11, SD1, 10, 17, SD2, 15, 23, SD3, 56
	PLANE_D	\src, \dst, 4, 2, D2, 62, 8, D3, 55, 14, D4, 39, 15, D0, 41, 21, D1, 2
	SPLANE	\soff, \doff, 4, , 2, SD2, 62, 8, SD3, 55, 14, SD4, 39, 15, SD0, 41, 21, SD1, 2
.endm

/* void cs_keccakf1600_x4x1_avx2(uint64_t s4[100], uint64_t s1[25]): four
 * interleaved permutations of s4 and one of s1. */
	FUNC_RBP_FRAME cs_keccakf1600_x4x1_avx2
	push	%rbx
	.cfi_offset %rbx, -24
	push	%r12
	.cfi_offset %r12, -32
	push	%r13
	.cfi_offset %r13, -40
	push	%r14
	.cfi_offset %r14, -48
	push	%r15
	.cfi_offset %r15, -56
	and	$-32, %rsp
	sub	$FRAME, %rsp
	mov	S4, S4SAVE(%rsp)
	mov	S1, S1SAVE(%rsp)
	movl	$12, NLEFT(%rsp)
	xor	%eax, %eax
2:	mov	(S1, %rax, 8), %rdx
	mov	%rdx, SEOFF(%rsp, %rax, 8)
	inc	%eax
	cmp	$25, %eax
	jne	2b
	movq	cs_keccak_rc@GOTPCREL(%rip), RC
	mov	S4, SRC
	LOAD_PLANES34 S4
	.p2align 6
1:	lea	EOFF(ABUF), DST
	cmpl	$1, NLEFT(%rsp)
	cmove	S4SAVE(%rsp), DST
	ROUND	SRC, ABUF, SEOFF, SAOFF, 0(RC)
	ROUND	ABUF, DST, SAOFF, SEOFF, 8(RC)
	lea	EOFF(ABUF), SRC
	add	$16, RC
	decl	NLEFT(%rsp)
	jnz	1b
	mov	S1SAVE(%rsp), %rsi
	xor	%eax, %eax
3:	mov	SEOFF(%rsp, %rax, 8), %rdx
	mov	%rdx, (%rsi, %rax, 8)
	inc	%eax
	cmp	$25, %eax
	jne	3b
	vzeroupper
	lea	-40(%rbp), %rsp
	pop	%r15
	.cfi_restore %r15
	pop	%r14
	.cfi_restore %r14
	pop	%r13
	.cfi_restore %r13
	pop	%r12
	.cfi_restore %r12
	pop	%rbx
	.cfi_restore %rbx
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	cs_keccakf1600_x4x1_avx2, .-cs_keccakf1600_x4x1_avx2

	OBJECT_NOTES
