/* The side sponge of keygen (mldsa_backend.h: cs_mldsa_side), fed with the
 * public key as ExpandA makes it available. The sponge itself is Keccak's
 * (kernels/keccak/keccak.h). */
#include "mldsa_backend.h"

/* XORs the ready bytes up to the end of the block; 1 if it is full. */
int cs_side_fill(cs_mldsa_side *side)
{
    side->used += cs_shake_fill(&side->sp, side->data + side->used, side->avail - side->used);
    return side->sp.pos == side->sp.rate;
}
