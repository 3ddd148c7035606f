/* Shared by the x86-64 assembly kernels (included by the .S files, which
 * go through the C preprocessor).
 *
 * Function frames: SAVE pushes the callee-saved registers named, in order,
 * with their CFI, then reserves `frame` bytes of locals; RESTORE undoes it,
 * the registers named in the reverse order. */
.macro SAVE frame, regs:vararg
	.irp r, \regs
	push	%\r
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %\r, 0
	.endr
	.if \frame
	sub	$\frame, %rsp
	.cfi_adjust_cfa_offset \frame
	.endif
.endm

.macro RESTORE frame, regs:vararg
	.if \frame
	add	$\frame, %rsp
	.cfi_adjust_cfa_offset -\frame
	.endif
	.irp r, \regs
	pop	%\r
	.cfi_adjust_cfa_offset -8
	.cfi_restore %\r
	.endr
.endm

/* The object's notes, at its end: IBT and SHSTK compatible (endbr64 at
 * every entry, no stack switching), as the C objects built with
 * -fcf-protection, so the library keeps both marks; and no executable
 * stack. */
.macro OBJECT_NOTES
	.section .note.gnu.property, "a"
	.p2align 3
	.long	4
	.long	16
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	3
	.long	0

	.section .note.GNU-stack, "", @progbits
.endm

/* The ADX code's window of nine registers (adx_blk.S, adx_fixed.S), in
 * rotation r: W_k = R[(k + r) mod 9], so a window that moves up a word
 * renames instead of moving values. */
#define ROT0 %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13, %r14
#define ROT1 %rbp, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %rbx
#define ROT2 %r8, %r9, %r10, %r11, %r12, %r13, %r14, %rbx, %rbp
#define ROT3 %r9, %r10, %r11, %r12, %r13, %r14, %rbx, %rbp, %r8
#define ROT4 %r10, %r11, %r12, %r13, %r14, %rbx, %rbp, %r8, %r9
#define ROT5 %r11, %r12, %r13, %r14, %rbx, %rbp, %r8, %r9, %r10
#define ROT6 %r12, %r13, %r14, %rbx, %rbp, %r8, %r9, %r10, %r11
#define ROT7 %r13, %r14, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12
#define ROT8 %r14, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13

/* An empty window (and CF = OF = 0). */
.macro ZW
	xor	%ebx, %ebx
	xor	%ebp, %ebp
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	xor	%r12d, %r12d
	xor	%r13d, %r13d
	xor	%r14d, %r14d
.endm
