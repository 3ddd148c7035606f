/* Shared by the x86-64 assembly of every kernel family (kernels/bn,
 * kernels/keccak; included by the .S files, which go through the C
 * preprocessor), so no family reaches into another's folder for it.
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

/* A global function's entry and end: aligned to 2^align bytes, hidden
 * (internal to the library), with its CFI and IBT landing pad. */
.macro FUNC_BEGIN name, align=5
	.p2align \align
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	.cfi_startproc
	endbr64
.endm

.macro FUNC_END name
	.cfi_endproc
	.size	\name, .-\name
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
