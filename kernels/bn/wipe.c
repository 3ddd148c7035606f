/* See wipe.h. */
#include <string.h>

#include "wipe.h"

void cs_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    /* The compiler must assume the zeroes are read. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* The buffer is this function's own frame, which starts right below the
 * caller's: it covers what the caller's earlier callees left there. */
__attribute__((noinline)) void cs_wipe_stack(size_t bytes)
{
    unsigned char area[bytes];
    cs_wipe(area, bytes);
}
