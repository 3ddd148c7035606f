/* One ML-DSA operation N times on one kernel table, no OpenSSL and no timing:
 * the workload for a profiler. `perf record` over it gives where the time
 * goes; `valgrind --tool=callgrind` gives exact call counts per operation
 * (docs/benchmarks.md counts Keccak permutations this way). Keys, messages
 * and rnd vary per iteration from fixed seeds, so runs repeat exactly.
 *   keygen  KeyGen from a seed
 *   sign    Sign from the encoded private key (key decoding, ExpandA included)
 *   verify  Verify from the encoded public key
 *   signp   Sign with a prepared key (what `openssl speed` and the provider's
 *           key cache measure)
 *   verifyp Verify with a prepared key
 * Usage: mldsa_loop KERNEL 44|65|87 OP N. Build: make bench-tools
 * (build/bench/mldsa_loop). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa.h"

enum { OP_KEYGEN, OP_SIGN, OP_VERIFY, OP_SIGNP, OP_VERIFYP };
static const char *const op_names[] = {"keygen", "sign", "verify", "signp", "verifyp"};

int main(int argc, char **argv)
{
    const cs_mldsa_impl *impl = NULL;
    int op = -1, ps = argc > 2 ? atoi(argv[2]) : 0;
    long n = argc > 4 ? atol(argv[4]) : 0;
    for (int i = 0; argc > 1 && cs_mldsa_impls[i]; i++)
        if (!strcmp(cs_mldsa_impl_name(cs_mldsa_impls[i]), argv[1]))
            impl = cs_mldsa_impls[i];
    for (int i = 0; argc > 3 && i < 5; i++)
        if (!strcmp(op_names[i], argv[3]))
            op = i;
    if (!impl || op < 0 || n <= 0 || (ps != 44 && ps != 65 && ps != 87)) {
        fprintf(stderr,
                "usage: mldsa_loop KERNEL 44|65|87 keygen|sign|verify|signp|verifyp N\n");
        return 2;
    }
    static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES], sig[CS_MLDSA_MAX_SIG_BYTES];
    uint8_t seed[32] = {1}, rnd[32] = {2}, msg[64] = {3};
    const size_t siglen = cs_mldsa_sig_bytes(ps);
    if (cs_mldsa_keygen(impl, ps, pk, sk, seed) ||
        cs_mldsa_sign(impl, ps, sig, sk, msg, sizeof msg, NULL, 0, rnd))
        return 1;
    cs_mldsa_prepared *prs = cs_mldsa_prepare_sk(impl, ps, sk);
    cs_mldsa_prepared *prp = cs_mldsa_prepare_pk(impl, ps, pk);
    int bad = !prs || !prp;
    for (long i = 0; i < n && !bad; i++) {
        seed[1] = rnd[1] = (uint8_t)i;
        seed[2] = rnd[2] = (uint8_t)(i >> 8);
        if (op != OP_VERIFY && op != OP_VERIFYP) /* those verify the signature above */
            msg[1] = seed[1], msg[2] = seed[2];
        switch (op) {
        case OP_KEYGEN: bad = cs_mldsa_keygen(impl, ps, pk, sk, seed); break;
        case OP_SIGN: bad = cs_mldsa_sign(impl, ps, sig, sk, msg, sizeof msg, NULL, 0, rnd); break;
        case OP_VERIFY: bad = cs_mldsa_verify(impl, ps, sig, siglen, msg, 64, NULL, 0, pk); break;
        case OP_SIGNP: bad = cs_mldsa_sign_prepared(prs, sig, msg, sizeof msg, NULL, 0, rnd); break;
        default: bad = cs_mldsa_verify_prepared(prp, sig, siglen, msg, 64, NULL, 0); break;
        }
    }
    cs_mldsa_prepared_free(prs);
    cs_mldsa_prepared_free(prp);
    if (bad)
        fprintf(stderr, "mldsa_loop: an operation failed\n");
    return bad;
}
