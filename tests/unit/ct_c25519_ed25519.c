/* Constant-time check of the Ed25519 and fixed-base X25519 entries under
 * valgrind memcheck (run by scripts/run-tests.sh with --error-exitcode):
 * the private key (and so the secret scalar and the nonce derived from
 * it) is marked undefined for ed25519_pubkey, ed25519_sign (plain and with
 * a dom2 prefix, messages of 0 to 3 SHA-512 blocks) and x25519_base, so
 * any branch or memory index that depends on them is reported. The kernel
 * declassifies only R, the public half of a signature (ed25519_ops.h).
 * Every implementation this CPU runs is checked (valgrind 3.19 runs
 * adcx/adox but its CPUID denies ADX, so ADX is probed by executing one, as
 * ct_bn_x86 does); without valgrind the client requests are no-ops and
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
    static const size_t lens[4] = {0, 40, 200, 300};
    uint8_t sk[32], pk[32], pk2[32], sig[64], sig2[64], xp[32], xp2[32], msg[300], dom[40];
    int ok = 1;
    memcpy(dom, "SigEd25519 no Ed25519 collisions\x00\x03" "ctx", 37);
    for (unsigned t = 0; t < 8; t++) {
        size_t n = lens[t % 4], dlen = t >= 4 ? 37 : 0;
        tap_rng_bytes(sk, 32);
        tap_rng_bytes(msg, n);
        /* reference results with nothing marked */
        im->ed25519_pubkey(pk2, sk);
        im->ed25519_sign(sig2, dom, dlen, msg, n, sk, pk2);
        im->x25519_base(xp2, sk);

        SECRET(sk, 32);
        im->ed25519_pubkey(pk, sk);
        PUBLIC(pk, 32);
        im->ed25519_sign(sig, dom, dlen, msg, n, sk, pk);
        PUBLIC(sig, 64);
        im->x25519_base(xp, sk);
        PUBLIC(xp, 32);
        PUBLIC(sk, 32);
        ok &= !memcmp(pk, pk2, 32) && !memcmp(sig, sig2, 64) && !memcmp(xp, xp2, 32);
        ok &= im->ed25519_verify(sig, dom, dlen, msg, n, pk) == 1;
    }
    tap_ok(ok, "%s: pubkey, sign (plain and dom2, 0-300 bytes), x25519_base with the key "
               "undefined: same results, signatures verify",
           im->name);
}

int main(void)
{
    tap_rng_seed(25519);
    if (c25519_built())
        c25519_each(ct_cpu_probe(), 1, check, NULL);
    return tap_done();
}
