/* See ct.h: the one out-of-line helper. */
#include "ct.h"

/* The buffer is this function's own frame, which starts right below the
 * caller's: it covers what the caller's earlier callees left there. */
__attribute__((noinline)) void cs_wipe_stack(size_t bytes)
{
    unsigned char area[bytes];
    cs_wipe(area, bytes);
}
