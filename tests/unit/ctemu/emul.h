/* The AVX-512 emulation tests (mk/ctemu.mk): shared declarations. */
#ifndef CRYPTOSHIM_TEST_CTEMU_H
#define CRYPTOSHIM_TEST_CTEMU_H

/* Compares every emulated intrinsic with the instruction over `iters` random
 * rounds; one TAP line per group. Only on a CPU with AVX-512F/VL/IFMA. */
void ctemu_check_intrinsics(unsigned iters);

#endif
