/* Wiping secrets: the one helper every big-number kernel and the shim use,
 * for their own buffers and for the dead stack below them. */
#ifndef CRYPTOSHIM_BN_WIPE_H
#define CRYPTOSHIM_BN_WIPE_H

#include <stddef.h>

/* Zeroes n bytes at p; the stores are kept even though p is not read again. */
void cs_wipe(void *p, size_t n);

/* Zeroes `bytes` of the stack just below the caller's frame: where the
 * functions it has called kept their frames, register spills and results.
 * Call it after the work, with at most the depth that work is known to use
 * (tests/unit/kernel_bn_stack.c measures it), so it never reaches further
 * than the work did. */
void cs_wipe_stack(size_t bytes);

/* Stack below a kernel's exp, exp2 or exp_x2 entry wiped after the work: at
 * least the deepest callee chain of any kernel (measured, with margin). */
#define CS_BN_WIPE_STACK 8192

#endif
