/* Writing into a loaded library's data that may sit in a read-only page
 * (.data.rel.ro after RELRO, or .rodata): OpenSSL 4.0 keeps its stock RSA and
 * DSA methods there, 3.x in writable .data. */
#ifndef CRYPTOSHIM_PATCH_CONST_H
#define CRYPTOSHIM_PATCH_CONST_H

#include <stddef.h>

/* Runs write(arg), which stores into [addr, addr + len) of a loaded object,
 * after making the read-only pages of that range writable, and restores their
 * protection afterwards (each page to its segment's flags, without write).
 * Returns write's result, or 0 without calling it when the range is not
 * inside one loaded object's segments or a protection change fails. Makes
 * system calls: for one-time set-up only, never on a hot path. */
int cs_patch_const(const void *addr, size_t len, int (*write)(void *arg), void *arg);

#endif
