/* The ADX exponentiation code's register window (adx_blk.S, adx_fixed.S);
 * the function frames and object notes are kernels/x86_64_asm.h's. */
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
