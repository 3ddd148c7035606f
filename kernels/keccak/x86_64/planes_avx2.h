/* The vector half of the AVX2 plane-by-plane Keccak-f[1600] rounds
 * (x4_planes_avx2.S, x4x1_planes_avx2.S): GAS macros over the interleaved x4
 * layout of keccak.h, register i of a state buffer being lane i of the four
 * states. THETA computes d, PLANE_M, PLANE_C and PLANE_D one output plane;
 * the includer strings them into rounds and owns the loop, the buffers and
 * the general registers.
 * Included by .S files (through the C preprocessor); defines the rot8 and
 * rot56 constants in .rodata. */

#define C0 %ymm0	/* plane 3 of a round on the way to the */
#define C1 %ymm1	/* next, the column parities, then */
#define C2 %ymm2	/* scratch */
#define C3 %ymm3
#define C4 %ymm4
#define D0 %ymm5	/* plane 4 of a round on the way to the next, */
			/* then theta's d */
#define D1 %ymm6
#define D2 %ymm7
#define D3 %ymm8
#define D4 %ymm9
#define B0 %ymm10	/* a plane after rho and pi */
#define B1 %ymm11
#define B2 %ymm12
#define B3 %ymm13
#define B4 %ymm14
#define T %ymm15	/* chi's output on its way to memory */

	.section .rodata
	.p2align 5
/* vpshufb masks rotating each 64-bit element left by 8 and by 56. */
rot8:	.byte	7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
	.byte	7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
rot56:	.byte	1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8
	.byte	1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8

	.text

/* Starts global function `name` on a cache line with a frame on %rbp
 * (CET landing pad, CFI), so that its body may realign %rsp for the
 * stack buffers. */
.macro FUNC_RBP_FRAME name
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	endbr64
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
.endm

/* b = b rotated left by n in each 64-bit element (t: scratch). */
.macro ROL b, n, t
	.if \n == 8
	vpshufb	rot8(%rip), \b, \b
	.elseif \n == 56
	vpshufb	rot56(%rip), \b, \b
	.elseif \n == 1
	vpaddq	\b, \b, \t
	vpsrlq	$63, \b, \b
	vpor	\t, \b, \b
	.elseif \n
	vpsllq	$\n, \b, \t
	vpsrlq	$64-\n, \b, \b
	vpor	\t, \b, \b
	.endif
.endm

/* p = lanes x, x+5 and x+10 of src xored: column x over planes 0..2. */
.macro PAR3 p, src, x
	vmovdqu	32*\x(\src), \p
	vpxor	32*\x+160(\src), \p, \p
	vpxor	32*\x+320(\src), \p, \p
.endm

/* c = p ^ k ^ q: column x from planes 0..2 (p), 3 (k) and 4 (q); the
 * last plane's lane goes in last, one xor from its chi. */
.macro COL c, p, k, q
	vpxor	\k, \p, \p
	vpxor	\q, \p, \c
.endm

/* d = cm ^ rol(cp, 1) (t: scratch). */
.macro DCOL d, cm, cp, t
	vpaddq	\cp, \cp, \t
	vpsrlq	$63, \cp, \d
	vpor	\t, \d, \d
	vpxor	\cm, \d, \d
.endm

/* C0..C4, D0..D4 = planes 3 and 4 of the state at base: the entry THETA
 * expects before the first round (each round leaves them so for the next). */
.macro LOAD_PLANES34 base
	vmovdqu	480(\base), C0
	vmovdqu	512(\base), C1
	vmovdqu	544(\base), C2
	vmovdqu	576(\base), C3
	vmovdqu	608(\base), C4
	vmovdqu	640(\base), D0
	vmovdqu	672(\base), D1
	vmovdqu	704(\base), D2
	vmovdqu	736(\base), D3
	vmovdqu	768(\base), D4
.endm

/* Theta's d into D0..D4, from src's planes 0..2 and planes 3 and 4 of
 * src in C0..C4 and D0..D4 (the column parities pass through C0..C4). */
.macro THETA src
	PAR3	B0, \src, 0
	PAR3	B1, \src, 1
	PAR3	B2, \src, 2
	PAR3	B3, \src, 3
	PAR3	B4, \src, 4
	COL	C0, B0, C0, D0
	COL	C1, B1, C1, D1
	COL	C2, B2, C2, D2
	COL	C3, B3, C3, D3
	COL	C4, B4, C4, D4
	DCOL	D0, C4, C1, B0
	DCOL	D1, C0, C2, B1
	DCOL	D2, C1, C3, B2
	DCOL	D3, C2, C4, B3
	DCOL	D4, C3, C0, B4
.endm

/* b = rol(lane l of src ^ d, n) (t: scratch). */
.macro LANE b, src, l, d, n, t
	vpxor	32*(\l)(\src), \d, \b
	ROL	\b, \n, \t
.endm

/* Lane l of dst = o = b ^ (~b1 & b2). */
.macro CHI o, b, b1, b2, dst, l
	vpandn	\b2, \b1, \o
	vpxor	\b, \o, \o
	vmovdqu	\o, 32*(\l)(\dst)
.endm

/* Output plane y of a round from src to dst: its five b from the input
 * lanes l0..l4 with their columns' d and rho rotations n (scratch
 * t0..t4), then chi into o0..o4 and dst; with rc (a memory operand) not
 * blank, iota on lane 0 (C4 as scratch). */
.macro PLANE src, dst, y, rc, o0, o1, o2, o3, o4, t0, t1, t2, t3, t4, l0, d0, n0, l1, d1, n1, l2, d2, n2, l3, d3, n3, l4, d4, n4
	LANE	B0, \src, \l0, \d0, \n0, \t0
	LANE	B1, \src, \l1, \d1, \n1, \t1
	LANE	B2, \src, \l2, \d2, \n2, \t2
	LANE	B3, \src, \l3, \d3, \n3, \t3
	LANE	B4, \src, \l4, \d4, \n4, \t4
	.ifnb \rc
	vpandn	B2, B1, \o0
	vpxor	B0, \o0, \o0
	vpbroadcastq \rc, C4
	vpxor	C4, \o0, \o0
	vmovdqu	\o0, 32*5*\y(\dst)
	.else
	CHI	\o0, B0, B1, B2, \dst, 5*\y
	.endif
	CHI	\o1, B1, B2, B3, \dst, 5*\y+1
	CHI	\o2, B2, B3, B4, \dst, 5*\y+2
	CHI	\o3, B3, B4, B0, \dst, 5*\y+3
	CHI	\o4, B4, B0, B1, \dst, 5*\y+4
.endm

/* Planes 0..2 go to memory only (C0..C4 are free: theta has used them). */
.macro PLANE_M src, dst, y, rc, lanes:vararg
	PLANE	\src, \dst, \y, \rc, T, T, T, T, T, C0, C1, C2, C3, C4, \lanes
.endm

/* Plane 3 stays in C0..C4 (written after its rotations have used them). */
.macro PLANE_C src, dst, y, lanes:vararg
	PLANE	\src, \dst, \y, , C0, C1, C2, C3, C4, C0, C1, C2, C3, C4, \lanes
.endm

/* Plane 4 stays in D0..D4, whose d it has used by then. */
.macro PLANE_D src, dst, y, lanes:vararg
	PLANE	\src, \dst, \y, , D0, D1, D2, D3, D4, T, T, T, T, T, \lanes
.endm
