/* Ed25519's fixed-base multiplication (ed25519_ops.h's ed_base_mul after
 * the recoding) in one function over the field of frame_field.h, for the
 * x86-64 tables; included by comb_adx.S and comb_mulx.S (through the C
 * preprocessor), which first define COMB_FN, the function's name, and
 * include their carry-chain set (ladder_chains_adx.h or
 * ladder_chains_mulx.h), as the ladder does (ladder_body.h); COMB_AVX2
 * picks the AVX2 table scan (else SSE2).
 *
 * void COMB_FN(uint64_t xyzt[16], const uint8_t a[32],
 *              const uint8_t tab[32][8][96], const uint8_t tab16[32][8][96]);
 * For the secret scalar a < 2^255 (little-endian) and the comb tables
 * (ed25519_table.h: tab[i][j] = (j + 1) 256^i B, tab16[i][j] = 16 (j + 1)
 * 256^i B, each entry canonical (y + x, y - x, 2dxy)), writes a B in
 * extended coordinates: X, Y, Z, T (xyzt[0..3], [4..7], [8..11],
 * [12..15]), each below 2^256. a = sum e[i] 16^i with signed digits e[i]
 * in [-8, 8) (e[63] in [0, 8]); the odd digits are added from tab16, the
 * even ones from tab: 64 additions, no doubling.
 *
 * Each digit: all 8 entries of its position are read and the one for
 * |digit| kept by masks, the neutral (1, 1, 0) when the digit is 0; a
 * negative digit swaps y + x and y - x, again by masks, and 2dxy's sign
 * by swapping two sums by CMOV (MADD1). Then the mixed addition
 * (madd-2008-hwcd, a = -1) and the products back to extended coordinates,
 * 7 FMUL; the next digit's scan is spread over the step's first products
 * (half the entries before the first, half after it, the rest after the
 * last read of the current entry), where it overlaps with their carry
 * chains (faster there than before them: docs/benchmarks.md). The digit only ever feeds arithmetic (masks,
 * CMOV flags); every address and branch depends on the loop position
 * alone.
 *
 * Bounds (frame_field.h's rules): at the top of every step X, Y, Z, T are
 * product-bounded (FMUL outputs, Z = 4 after the first digit's FIRST),
 * and so is the selected entry (canonical). The step's sums and
 * differences each have a product as the operand the rule asks for (see
 * MADD1). */

#include "frame_field.h"

/* Frame: field elements (32 bytes each, 16-aligned: FRAME leaves rsp
 * 16-aligned after the six pushes), then the loop state. */
#define PX 0
#define PY 32
#define PZ 64
#define PT 96
#define QP 128
#define QM 160
#define QT 192
#define TA 224
#define TB 256
#define TC 288
#define TD 320
#define TE 352
#define TF 384
#define TG 416
#define TH 448
#define DIGITS 480 /* 64 signed bytes */
#define DIG 544
#define TAB 552
#define CNT 560
#define BASE 568
#define OUT 576
#define SIGN 584
#define FRAME 600 /* 8 bytes of padding at 592 */

#ifdef COMB_AVX2
/* The table scan in three parts (SELECT below), which MADD1's products
 * leave alone: SCAN_INIT takes the digit rax (sign-extended), SCAN_PART
 * the position at rsi, SCAN_END writes (QP, QM, QT) = the entry for
 * |digit|, y + x and y - x swapped when the digit is negative, and the
 * sign mask to SIGN. AVX2: one register per coordinate (ymm0..2), ymm8
 * |digit| in every dword, ymm9 the sign mask, ymm11 counts j + 1. */
.macro SCAN_INIT
	mov	%rax, %rcx
	sar	$63, %rcx
	xor	%rcx, %rax
	sub	%rcx, %rax
	vmovd	%eax, %xmm8
	vpbroadcastd %xmm8, %ymm8
	vmovq	%rcx, %xmm9
	vpbroadcastq %xmm9, %ymm9
	vpcmpeqd %ymm10, %ymm10, %ymm10
	vpsrld	$31, %ymm10, %ymm10
	vmovdqa	%ymm10, %ymm11
	vpxor	%xmm0, %xmm0, %xmm0
	vpxor	%xmm1, %xmm1, %xmm1
	vpxor	%xmm2, %xmm2, %xmm2
.endm

/* The entries js (of 0..7) of the position at rsi into the sums. */
.macro SCAN_PART js:vararg
	.irp j, \js
	vpcmpeqd %ymm8, %ymm11, %ymm12
	vpaddd	%ymm10, %ymm11, %ymm11
	.irp k, 0, 1, 2
	vpand	96*\j+32*\k(%rsi), %ymm12, %ymm13
	vpor	%ymm13, %ymm\k, %ymm\k
	.endr
	.endr
.endm

/* The selected entry, signed, to QP, QM, QT and its sign to SIGN. */
.macro SCAN_END
	/* the neutral's ones: (y + x, y - x) = (1, 1) for the digit 0 */
	xor	%edx, %edx
	vmovd	%xmm8, %eax
	test	%eax, %eax
	sete	%dl
	vmovq	%rdx, %xmm12
	vpor	%ymm12, %ymm0, %ymm0
	vpor	%ymm12, %ymm1, %ymm1
	/* a negative digit: y + x and y - x swapped */
	vpxor	%ymm0, %ymm1, %ymm12
	vpand	%ymm9, %ymm12, %ymm12
	vpxor	%ymm12, %ymm0, %ymm0
	vpxor	%ymm12, %ymm1, %ymm1
	vmovdqu	%ymm0, QP(%rsp)
	vmovdqu	%ymm1, QM(%rsp)
	vmovdqu	%ymm2, QT(%rsp)
	vmovq	%xmm9, SIGN(%rsp)
.endm

/* Upper halves cleared before SSE code (WIPE_FRAME) and every vector
 * register wiped. */
.macro WIPE_VECTORS
	vzeroall
.endm
#else
/* The table scan in three parts as above; SSE2: xmm0..5 gather the
 * entry, xmm8 holds |digit| in every dword, xmm9 the sign mask, xmm11
 * counts j + 1. */
.macro SCAN_INIT
	mov	%rax, %rcx
	sar	$63, %rcx
	xor	%rcx, %rax
	sub	%rcx, %rax
	movd	%eax, %xmm8
	pshufd	$0, %xmm8, %xmm8
	movq	%rcx, %xmm9
	punpcklqdq %xmm9, %xmm9
	pcmpeqd	%xmm10, %xmm10
	psrld	$31, %xmm10
	movdqa	%xmm10, %xmm11
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	pxor	%xmm2, %xmm2
	pxor	%xmm3, %xmm3
	pxor	%xmm4, %xmm4
	pxor	%xmm5, %xmm5
.endm

/* The entries js (of 0..7) of the position at rsi into the sums. */
.macro SCAN_PART js:vararg
	.irp j, \js
	movdqa	%xmm11, %xmm12
	pcmpeqd	%xmm8, %xmm12
	paddd	%xmm10, %xmm11
	.irp k, 0, 1, 2, 3, 4, 5
	movdqu	96*\j+16*\k(%rsi), %xmm13
	pand	%xmm12, %xmm13
	por	%xmm13, %xmm\k
	.endr
	.endr
.endm

/* The selected entry, signed, to QP, QM, QT and its sign to SIGN. */
.macro SCAN_END
	/* the neutral's ones: (y + x, y - x) = (1, 1) for the digit 0 */
	xor	%edx, %edx
	movd	%xmm8, %eax
	test	%eax, %eax
	sete	%dl
	movq	%rdx, %xmm12
	por	%xmm12, %xmm0
	por	%xmm12, %xmm2
	/* a negative digit: y + x and y - x swapped */
	movdqa	%xmm0, %xmm12
	pxor	%xmm2, %xmm12
	pand	%xmm9, %xmm12
	pxor	%xmm12, %xmm0
	pxor	%xmm12, %xmm2
	movdqa	%xmm1, %xmm13
	pxor	%xmm3, %xmm13
	pand	%xmm9, %xmm13
	pxor	%xmm13, %xmm1
	pxor	%xmm13, %xmm3
	movdqa	%xmm0, QP(%rsp)
	movdqa	%xmm1, QP+16(%rsp)
	movdqa	%xmm2, QM(%rsp)
	movdqa	%xmm3, QM+16(%rsp)
	movdqa	%xmm4, QT(%rsp)
	movdqa	%xmm5, QT+16(%rsp)
	movq	%xmm9, SIGN(%rsp)
.endm

.macro WIPE_VECTORS
	.irp r, 0, 1, 2, 3, 4, 5, 8, 9, 11, 12, 13
	pxor	%xmm\r, %xmm\r
	.endr
.endm
#endif

/* d = the four words w0..w3. */
.macro STORE4 d, w0, w1, w2, w3
	mov	\w0, \d(%rsp)
	mov	\w1, \d+8(%rsp)
	mov	\w2, \d+16(%rsp)
	mov	\w3, \d+24(%rsp)
.endm

/* r12..r15 = t + (r8..r11), rax..rdx = t - (r8..r11) (r8..r11 after an
 * FMULR: product-bounded, so each folds once), rsi scratch. */
.macro SUMDIFF t
	mov	\t(%rsp), %rax
	mov	\t+8(%rsp), %rbx
	mov	\t+16(%rsp), %rcx
	mov	\t+24(%rsp), %rdx
	mov	%rax, %r12
	mov	%rbx, %r13
	mov	%rcx, %r14
	mov	%rdx, %r15
	sub	%r8, %rax
	sbb	%r9, %rbx
	sbb	%r10, %rcx
	sbb	%r11, %rdx
	sbb	%rsi, %rsi
	and	$38, %esi
	sub	%rsi, %rax
	sbb	$0, %rbx
	sbb	$0, %rcx
	sbb	$0, %rdx
	add	%r8, %r12
	adc	%r9, %r13
	adc	%r10, %r14
	adc	%r11, %r15
	sbb	%rsi, %rsi
	and	$38, %esi
	add	%rsi, %r12
	adc	$0, %r13
	adc	$0, %r14
	adc	$0, %r15
.endm

/* (QP, QM, QT, SIGN) = the entry of the digit rax (sign-extended) from
 * the position at rsi. */
.macro SELECT
	SCAN_INIT
	SCAN_PART 0, 1, 2, 3, 4, 5, 6, 7
	SCAN_END
.endm

/* The digit at DIG and the position at TAB to rax, rsi. */
.macro LOAD_DIGIT
	mov	DIG(%rsp), %rax
	movsbq	(%rax), %rax
	mov	TAB(%rsp), %rsi
.endm

/* DIG and TAB moved on by 2 digits and a position, from past e[63]
 * (tab16's last) to e[0] and tab's first. */
.macro ADVANCE
	mov	DIG(%rsp), %rax
	mov	TAB(%rsp), %rsi
	add	$2, %rax
	add	$768, %rsi
	lea	DIGITS+65(%rsp), %rdx
	cmp	%rdx, %rax
	jne	1f
	lea	DIGITS(%rsp), %rax
	mov	BASE(%rsp), %rsi
1:
	mov	%rax, DIG(%rsp)
	mov	%rsi, TAB(%rsp)
.endm

/* SELECT for the digit at DIG, then ADVANCE. */
.macro NEXT
	LOAD_DIGIT
	SELECT
	ADVANCE
.endm

/* (X, Y, Z, T) += (QP, QM, QT), 2dxy's sign in SIGN: madd-2008-hwcd to E,
 * F, G, H (MADD1, the last read of QP, QM, QT, SIGN), then E*F, G*H, F*G,
 * E*H (MADD2), from TA = Y - X, TB = Y + X, TD = 2Z (SUMS_XY). E = B - A,
 * H = B + A: A = TA * QM a product (in registers); F = D - C, G = D + C:
 * C = T * 2dxy a product (in registers), F and G swapped by CMOV for a
 * negative digit (2dxy is left positive, so C is the negation of the
 * signed entry's, and swapping F and G is adding -C instead). */
.macro MADD1A
	FMUL	TB, TB, QP
.endm

.macro MADD1B
	FMULR	TA, QM
	SUMDIFF	TB
	STORE4	TE, %rax, %rbx, %rcx, %rdx
	STORE4	TH, %r12, %r13, %r14, %r15
	FMULR	PT, QT
	SUMDIFF	TD
	/* F = D - C (rax..rdx), G = D + C (r12..r15), swapped when SIGN */
	mov	SIGN(%rsp), %rdi
	test	%rdi, %rdi
	mov	%rax, %rsi
	cmovnz	%r12, %rax
	cmovnz	%rsi, %r12
	mov	%rbx, %rsi
	cmovnz	%r13, %rbx
	cmovnz	%rsi, %r13
	mov	%rcx, %rsi
	cmovnz	%r14, %rcx
	cmovnz	%rsi, %r14
	mov	%rdx, %rsi
	cmovnz	%r15, %rdx
	cmovnz	%rsi, %r15
	STORE4	TF, %rax, %rbx, %rcx, %rdx
	STORE4	TG, %r12, %r13, %r14, %r15
.endm

.macro MADD2
	FMUL	PX, TE, TF
	FMUL	PY, TG, TH
	SUMS_XY
	FMUL	PZ, TF, TG
	FADD	TD, PZ, PZ
	FMUL	PT, TE, TH
.endm

/* Two of the next MADD1's sums of the new point: TA = Y - X, TB = Y + X
 * (X product-bounded); MADD2 and FIRST place them, and TD = 2Z (Z
 * product-bounded), as soon as their inputs are there, so that they run
 * beside the products still in flight. */
.macro SUMS_XY
	FSUB	TA, PY, PX
	FADD	TB, PY, PX
.endm

/* (X, Y, Z, T) = the entry (QP, QM): MADD1/2's result from the neutral (0, 1,
 * 1, 0), where A = y - x, B = y + x, C = 0 and F = G = 2, so E = QP - QM,
 * H = QP + QM (QM canonical), X = 2E, Y = 2H, Z = 4, T = EH, the
 * products by FMUL (so product-bounded, as MADD2's are). */
.macro FIRST
	FSUB	TE, QP, QM
	FADD	TH, QP, QM
	movq	$2, TF(%rsp)
	movq	$4, PZ(%rsp)
	.irp o, 8, 16, 24
	movq	$0, TF+\o(%rsp)
	movq	$0, PZ+\o(%rsp)
	.endr
	FMUL	PX, TE, TF
	FMUL	PY, TF, TH
	FMUL	PT, TE, TH
	SUMS_XY
	FADD	TD, PZ, PZ
.endm

/* DIGITS = the signed radix-16 digits of the scalar at rsi (below 2^255):
 * the nibbles of a + 0x0888...88 (63 eights: no carry out), less 8 but
 * the top one (ed_base_mul's recoding, without its serial carry chain).
 * r8..r11 and xmm0..4 hold the secret scalar. */
.macro RECODE
	mov	(%rsi), %r8
	mov	8(%rsi), %r9
	mov	16(%rsi), %r10
	mov	24(%rsi), %r11
	movabs	$0x8888888888888888, %rax
	movabs	$0x0888888888888888, %rbx
	add	%rax, %r8
	adc	%rax, %r9
	adc	%rax, %r10
	adc	%rbx, %r11
	movq	%r8, %xmm0
	movq	%r9, %xmm4
	punpcklqdq %xmm4, %xmm0
	movq	%r10, %xmm1
	movq	%r11, %xmm4
	punpcklqdq %xmm4, %xmm1
	movdqa	.Lnibble(%rip), %xmm4
	movdqa	%xmm0, %xmm2
	psrlw	$4, %xmm2
	pand	%xmm4, %xmm0
	pand	%xmm4, %xmm2
	movdqa	%xmm0, %xmm3
	punpcklbw %xmm2, %xmm0
	punpckhbw %xmm2, %xmm3
	movdqa	.Leight(%rip), %xmm4
	psubb	%xmm4, %xmm0
	psubb	%xmm4, %xmm3
	movdqa	%xmm0, DIGITS(%rsp)
	movdqa	%xmm3, DIGITS+16(%rsp)
	movdqa	%xmm1, %xmm2
	psrlw	$4, %xmm2
	pand	.Lnibble(%rip), %xmm1
	pand	.Lnibble(%rip), %xmm2
	movdqa	%xmm1, %xmm3
	punpcklbw %xmm2, %xmm1
	punpckhbw %xmm2, %xmm3
	psubb	%xmm4, %xmm1
	psubb	.Leight_last(%rip), %xmm3
	movdqa	%xmm1, DIGITS+32(%rsp)
	movdqa	%xmm3, DIGITS+48(%rsp)
.endm

	.section .rodata
	.p2align 4
.Lnibble:
	.fill	16, 1, 0x0f
.Leight:
	.fill	16, 1, 8
.Leight_last: /* the top digit keeps its nibble */
	.fill	15, 1, 8
	.byte	0

	.text
	FUNC_BEGIN COMB_FN
	SAVE	FRAME, rbx, rbp, r12, r13, r14, r15
	mov	%rdi, OUT(%rsp)
	mov	%rdx, BASE(%rsp)
	RECODE
	/* the odd digits first, over tab16; the first one's entry is the
	 * start; each step selects the next digit's entry beside its first
	 * products (the last step none) */
	lea	DIGITS+1(%rsp), %rax
	mov	%rax, DIG(%rsp)
	mov	%rcx, TAB(%rsp)
	movq	$63, CNT(%rsp)
	NEXT
	FIRST
	NEXT
	.p2align 6
.Lstep:
	cmpq	$1, CNT(%rsp)
	je	1f
	LOAD_DIGIT
	SCAN_INIT
	SCAN_PART 0, 1, 2, 3
1:
	MADD1A
	cmpq	$1, CNT(%rsp)
	je	1f
	mov	TAB(%rsp), %rsi
	SCAN_PART 4, 5, 6, 7
1:
	MADD1B
	cmpq	$1, CNT(%rsp)
	je	1f
	SCAN_END
	ADVANCE
1:
	MADD2
	decq	CNT(%rsp)
	jnz	.Lstep

.Ldone:
	mov	OUT(%rsp), %rdi
	.irp o, 0, 16, 32, 48, 64, 80, 96, 112
	movdqa	PX+\o(%rsp), %xmm1
	movdqu	%xmm1, \o(%rdi)
	.endr
	/* leave no secret in the frame or the vector registers */
	WIPE_VECTORS
	WIPE_FRAME FRAME
	RESTORE	FRAME, r15, r14, r13, r12, rbp, rbx
	ret
	FUNC_END COMB_FN

	OBJECT_NOTES
