/* Four Keccak-f[1600] permutations at once with AVX2: the 32 bytes at
 * s + 4i are lane i of the four states (the interleaved x4 layout of
 * keccak.h), so each step is the scalar one on vectors.
 *
 * Plane by plane, with the state in memory. Written over 25 registers (as
 * simd_rounds.h), a round needs the 25 lanes, the 25 rho-pi outputs and the
 * column parities live at once on 16 registers, and the compiler's spills
 * and the ordering it leaves cost about a quarter over the three vector
 * ports' bound (184 operations a round). Here a round reads the state from
 * one buffer and writes the next into another, one output plane (y fixed,
 * x = 0..4) at a time: pi puts a diagonal of input lanes there, each xored
 * with its column's d (the load folds into the xor), rotated (rho), then
 * chi (and iota on lane 0), and the five lanes stored. That takes 5 d, 5 b
 * and scratch: no spills, and loads (three a cycle) and stores (two) are
 * not the bound.
 *
 * The one path from round to round is the theta parity: every lane of the
 * next round waits for all 25 of this one. So the last two planes of each
 * round also stay in registers (C0..C4, D0..D4) and go into the parities
 * without the store-to-load forwarding delay, the last one last; the other
 * three planes' sums are loaded, and are ready well before. (Keeping only
 * the last plane was 4% slower.)
 *
 * Buffers: the caller's s, and A and E (800 bytes each, 32-aligned) on the
 * stack: round 0 reads s and writes A, then the rounds go A -> E -> A ...,
 * and round 23 writes s; two rounds per loop iteration.
 * Rotations are shift-or pairs (the left shift by 1 as an add, which issues
 * on three ports where Intel's shifts issue on two), except by 8 and 56
 * (byte shuffles). Only AVX2 instructions: the "avx2" tables also run on
 * CPUs without AVX-512. */

#include "kernels/x86_64_asm.h"

#define SV	%rdi	/* the caller's states */
#define SRC	%rsi	/* this iteration's first source: s, then E */
#define DST	%rdx	/* this iteration's last destination: E, or s */
#define RC	%rcx	/* the round constants of this iteration */
#define N	%eax	/* iterations left */
#define ABUF	%rsp	/* A at 0(%rsp), E at 800(%rsp) */
#define EOFF	800

#include "planes_avx2.h"

/* One round from src to dst with round constant rc; the pi lane indices
 * and rho rotations: b[x + 5y] = rot(a[x' + 5x] ^ d[x'], rho[x' + 5x]) with
 * x' = x + 3y mod 5. Leaves dst's planes 3 and 4 in C0..C4 and D0..D4. */
.macro ROUND src, dst, rc
	THETA	\src
	PLANE_M	\src, \dst, 0, \rc, 0, D0, 0, 6, D1, 44, 12, D2, 43, 18, D3, 21, 24, D4, 14
	PLANE_M	\src, \dst, 1, , 3, D3, 28, 9, D4, 20, 10, D0, 3, 16, D1, 45, 22, D2, 61
	PLANE_M	\src, \dst, 2, , 1, D1, 1, 7, D2, 6, 13, D3, 25, 19, D4, 8, 20, D0, 18
	PLANE_C	\src, \dst, 3, 4, D4, 27, 5, D0, 36, 11, D1, 10, 17, D2, 15, 23, D3, 56
	PLANE_D	\src, \dst, 4, 2, D2, 62, 8, D3, 55, 14, D4, 39, 15, D0, 41, 21, D1, 2
.endm

/* void cs_keccakf1600_x4_avx2(uint64_t s[100]): four permutations,
 * interleaved (keccak.h). The function and the loop start on a cache line
 * (the C version's placement moved the ML-DSA timings by about 3%; the
 * loop's offset mod 64 made no measurable difference here). */
	FUNC_RBP_FRAME cs_keccakf1600_x4_avx2
	and	$-32, %rsp
	sub	$2 * EOFF, %rsp
	movq	cs_keccak_rc@GOTPCREL(%rip), RC
	mov	SV, SRC
	mov	$12, N
	LOAD_PLANES34 SV
	.p2align 6
1:	lea	EOFF(ABUF), DST
	cmp	$1, N
	cmove	SV, DST
	ROUND	SRC, ABUF, 0(RC)
	ROUND	ABUF, DST, 8(RC)
	lea	EOFF(ABUF), SRC
	add	$16, RC
	dec	N
	jnz	1b
	vzeroupper
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	cs_keccakf1600_x4_avx2, .-cs_keccakf1600_x4_avx2

	OBJECT_NOTES
