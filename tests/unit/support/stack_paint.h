/* Stack painting for the stack-depth tests (no OpenSSL, also cross-built):
 * fill the area below the caller's frame with a known byte, call the code
 * under test, then read back what it changed. */
#ifndef CS_TEST_STACK_PAINT_H
#define CS_TEST_STACK_PAINT_H

#include <stddef.h>

#define STACK_AREA (96 * 1024)
#define STACK_PAINT 0xA5

/* Paints the STACK_AREA bytes below the caller's frame with STACK_PAINT. */
__attribute__((noinline)) static void stack_paint(void)
{
    volatile unsigned char area[STACK_AREA];
    for (size_t i = 0; i < STACK_AREA; i++)
        area[i] = STACK_PAINT;
    __asm__ __volatile__("" : : "r"(area) : "memory");
}

#endif
