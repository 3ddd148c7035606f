/* Constant-time check of the X25519 ladder under valgrind memcheck (run by
 * scripts/run-tests.sh with --error-exitcode): the scalar and the peer's
 * u are marked undefined for x25519, so any branch or memory index that
 * depends on either is reported; the result and the return value are
 * marked defined afterwards (they are the caller's to use). Peers: random,
 * top bit set, u >= p, low order (the all-zero result, returned as 0 by
 * arithmetic, not a branch). Every implementation this CPU runs, in turn
 * (valgrind 3.19 runs adcx/adox but its CPUID denies ADX, so ADX is probed
 * by executing one); without valgrind the client requests are no-ops and
 * only the results are checked. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "kernels/c25519/c25519.h"
#include "runtime/cpu.h"
#include "support/adx_probe.h"
#include "support/c25519_runs.h"
#include "support/tap.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static void check(const cs_c25519_impl *im, void *arg)
{
    int ok = 1, zeros = 0;
    for (unsigned t = 0; t < 8; t++) {
        uint8_t k[32], u[32], out[32], want[32];
        tap_rng_bytes(k, 32);
        tap_rng_bytes(u, 32);
        if (t % 4 == 1)
            u[31] |= 0x80;
        if (t % 4 == 2) { /* u >= p */
            memset(u, 0xff, 32);
            u[0] = (uint8_t)(0xed + t);
            u[31] = 0x7f;
        }
        if (t % 4 == 3) { /* order 2 (p - 1) or 1 (0): the all-zero result */
            memset(u, t & 4 ? 0xff : 0, 32);
            u[0] = t & 4 ? 0xec : 0;
            u[31] = t & 4 ? 0x7f : 0;
        }
        int r0 = im->x25519(want, k, u);
        SECRET(k, 32);
        SECRET(u, 32);
        int r = im->x25519(out, k, u);
        PUBLIC(&r, sizeof r);
        PUBLIC(out, 32);
        PUBLIC(k, 32);
        PUBLIC(u, 32);
        ok &= r == r0 && !memcmp(out, want, 32);
        zeros += r == 0;
    }
    tap_ok(ok && zeros == 2, "%s: x25519 with scalar and u undefined: same results (%d all-zero)",
           im->name, zeros);
}

int main(void)
{
    tap_rng_seed(7748);
    if (c25519_built())
        c25519_each(ct_cpu_probe(), 0, check, NULL);
    return tap_done();
}
