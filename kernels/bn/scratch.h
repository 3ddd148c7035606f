/* Per-thread scratch memory for big-number work, so that no exponentiation
 * needs more than a few KB of the caller's stack (threads with small
 * stacks). One block per thread, allocated at its first use and freed by a
 * thread-exit destructor; taking and giving back are pointer bumps (no
 * syscall after the first use). Blocks are given back in the reverse order
 * of taking, and wiped as they are. Nothing happens at process exit. */
#ifndef CRYPTOSHIM_BN_SCRATCH_H
#define CRYPTOSHIM_BN_SCRATCH_H

#include <stddef.h>

/* Bytes one thread's block holds: the deepest chain (shim operands, a
 * kernel's context and its 32 KB window table) fits with room to spare. */
#define CS_SCRATCH_BYTES (96 * 1024)

/* Returns `bytes` of this thread's scratch, 64-byte aligned, or NULL when
 * memory is short or the block is full (the caller then lets libcrypto
 * serve the call). */
void *cs_scratch_take(size_t bytes);

/* Gives back p (from cs_scratch_take) and everything taken after it,
 * zeroing the `bytes` taken at p first (secrets). p may be NULL (no-op). */
void cs_scratch_give(void *p, size_t bytes);

#endif
