/* The whole RFC 7748 Montgomery ladder in one function over the field of
 * fe64.h (four 64-bit limbs, values below 2^256, 2^256 = 38 mod p), for
 * the x86-64 tables; included by ladder_adx.S and ladder_mulx.S (through
 * the C preprocessor), which first define LADDER_FN, the function's name,
 * and include their carry-chain set (ladder_chains_adx.h or
 * ladder_chains_mulx.h: the macros ROW, REDUCE and FSQ, the only code in
 * which the two differ).
 *
 * void LADDER_FN(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);
 * Runs the clamped scalar k on u = x1 (x1 below 2^256) and writes the
 * projective result: x (xz[0..3]) and z (xz[4..7]), each below 2^256.
 *
 * Why one function: every field element lives at a fixed offset from rsp,
 * so no register holds a pointer and all fifteen serve the arithmetic,
 * nothing is called, and the steps fuse what separate field calls cannot:
 * - no swap of the state: the differential addition is symmetric in its two
 *   points, so only the doubling's input is chosen (two field elements by
 *   CMOV, instead of conditionally swapping four); the sum always goes to
 *   (xm, zm) and the double to (xn, zn), and the bit with the previous one
 *   says which pair holds R0;
 * - products and squares end below 2^255 + 2^11 (the bits from 255 up
 *   folded by 19), so a sum or difference of two of them folds once, and
 *   121666 p + d is one multiply-add;
 * - bits 2..0 are zero after clamping: the loop stops at bit 3 and three
 *   doublings follow.
 * Registers inside a field macro: r8..r15 the product, rdx the MULX
 * multiplier, rax, rbx, rcx, rsi, rdi and rbp free. Constant time: the
 * scalar bit only sets the flags the CMOVs read; the byte index is the
 * loop position. */

/* Frame: field elements (32 bytes each), the scalar, the loop state. */
#define X1 0
#define XM 32
#define ZM 64
#define XN 96
#define ZN 128
#define SM 160
#define DM 192
#define SN 224
#define DN 256
#define SS 288
#define DD 320
#define P1 352
#define P2 384
#define SPRO 416
#define DPRO 448
#define PP 480
#define EE 512
#define KEY 544
#define POS 576
#define SWAP 584
#define OUT 592
#define FRAME 600

#include "frame_field.h"

/* d = 121666 a + b (a below 2^256, b below 2^255 + 2^11), below 2^255 +
 * 2^23. */
.macro CMADD d, a, b
	mov	$121666, %edx
	MUL1	\a
	add	\b(%rsp), %r8
	adc	\b+8(%rsp), %r9
	adc	\b+16(%rsp), %r10
	adc	\b+24(%rsp), %r11
	adc	$0, %r12
	FOLD255
	STORE	\d
.endm

/* d = (ZF clear) ? a : b, by CMOV; the flags are set by the caller. */
.macro MUX d, a, b
	.irp o, 0, 16
	mov	\b+\o(%rsp), %rax
	mov	\a+\o(%rsp), %rbx
	mov	\b+\o+8(%rsp), %rcx
	mov	\a+\o+8(%rsp), %rsi
	cmovnz	%rbx, %rax
	cmovnz	%rsi, %rcx
	mov	%rax, \d+\o(%rsp)
	mov	%rcx, \d+\o+8(%rsp)
	.endr
.endm

/* (xn, zn) doubled. */
.macro DOUBLE
	FADD	SS, XN, ZN
	FSUB	DD, XN, ZN
	FSQ	SS, SS
	FSQ	DD, DD
	FSUB	PP, SS, DD
	CMADD	EE, PP, DD
	FMUL	XN, SS, DD
	FMUL	ZN, PP, EE
.endm

	.text
	.p2align 5
	.globl	LADDER_FN
	.hidden	LADDER_FN
	.type	LADDER_FN, @function
LADDER_FN:
	.cfi_startproc
	endbr64
	SAVE	FRAME, rbx, rbp, r12, r13, r14, r15
	mov	%rdi, OUT(%rsp)
	/* x1 and the scalar into the frame; (xn, zn) = R0 = (1, 0), the
	 * point at infinity; (xm, zm) = R1 = (x1, 1) */
	movdqu	(%rsi), %xmm1
	movdqu	16(%rsi), %xmm2
	movdqu	%xmm1, X1(%rsp)
	movdqu	%xmm2, X1+16(%rsp)
	movdqu	%xmm1, XM(%rsp)
	movdqu	%xmm2, XM+16(%rsp)
	movdqu	(%rdx), %xmm1
	movdqu	16(%rdx), %xmm2
	movdqu	%xmm1, KEY(%rsp)
	movdqu	%xmm2, KEY+16(%rsp)
	pxor	%xmm1, %xmm1
	movdqu	%xmm1, XN(%rsp)
	movdqu	%xmm1, XN+16(%rsp)
	movdqu	%xmm1, ZN(%rsp)
	movdqu	%xmm1, ZN+16(%rsp)
	movdqu	%xmm1, ZM(%rsp)
	movdqu	%xmm1, ZM+16(%rsp)
	movq	$1, XN(%rsp)
	movq	$1, ZM(%rsp)
	movq	$0, SWAP(%rsp)
	movq	$254, POS(%rsp)

	/* The step loop on a 64-byte boundary: its speed depends on where it
	 * starts within one (docs/benchmarks.md, "X25519 derive"), and this
	 * keeps it at a fast place whatever is linked before it. */
	.p2align 6
.Lstep:
	FSUB	DM, XM, ZM
	FADD	SN, XN, ZN
	FSUB	DN, XN, ZN
	FADD	SM, XM, ZM
	/* bit = k >> pos & 1; double (xm, zm) when it differs from the
	 * previous bit, else (xn, zn) */
	mov	POS(%rsp), %rcx
	mov	%rcx, %rax
	shr	$3, %rax
	movzbl	KEY(%rsp,%rax), %edx
	and	$7, %ecx
	shr	%cl, %edx
	and	$1, %edx
	mov	SWAP(%rsp), %rdi
	mov	%rdx, SWAP(%rsp)
	xor	%rdx, %rdi
	test	%rdi, %rdi
	MUX	DD, DM, DN
	test	%rdi, %rdi
	MUX	SS, SM, SN

	FMUL	P2, SM, DN
	FMUL	P1, SN, DM
	FSQ	DD, DD
	FSUB	DPRO, P1, P2
	FADD	SPRO, P1, P2
	FSQ	SS, SS
	FSQ	DPRO, DPRO
	FSUB	PP, SS, DD
	FSQ	XM, SPRO
	CMADD	EE, PP, DD
	FMUL	XN, SS, DD
	FMUL	ZN, PP, EE
	FMUL	ZM, DPRO, X1

	mov	POS(%rsp), %rax
	sub	$1, %rax
	mov	%rax, POS(%rsp)
	cmp	$3, %rax
	jae	.Lstep

	/* R0 is (xm, zm) when bit 3 was set; then three doublings */
	mov	SWAP(%rsp), %rdi
	test	%rdi, %rdi
	MUX	XN, XM, XN
	test	%rdi, %rdi
	MUX	ZN, ZM, ZN
	DOUBLE
	DOUBLE
	DOUBLE

	mov	OUT(%rsp), %rdi
	movdqu	XN(%rsp), %xmm1
	movdqu	XN+16(%rsp), %xmm2
	movdqu	ZN(%rsp), %xmm3
	movdqu	ZN+16(%rsp), %xmm4
	movdqu	%xmm1, (%rdi)
	movdqu	%xmm2, 16(%rdi)
	movdqu	%xmm3, 32(%rdi)
	movdqu	%xmm4, 48(%rdi)
	/* leave no secret in the frame or the vector registers */
	WIPE_FRAME FRAME
	pxor	%xmm1, %xmm1
	pxor	%xmm2, %xmm2
	pxor	%xmm3, %xmm3
	pxor	%xmm4, %xmm4
	RESTORE	FRAME, r15, r14, r13, r12, rbp, rbx
	ret
	.cfi_endproc
	.size	LADDER_FN, .-LADDER_FN

	OBJECT_NOTES
