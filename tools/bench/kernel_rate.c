/* Calls per CPU-second of the ML-DSA kernel called directly (no OpenSSL),
 * for tools/bench/bench-mldsa.sh to subtract from `openssl speed` through the
 * provider: the difference is the provider's per-call overhead. Signing and
 * verification use prepared keys, as the provider does.
 * Usage: kernel_rate KERNEL SECONDS; prints "ps op calls_per_second". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mldsa/mldsa.h"
#include "runtime/timer.h"

int main(int argc, char **argv)
{
    const cs_mldsa_impl *impl = NULL;
    double secs = argc > 2 ? atof(argv[2]) : 1.0;
    for (int i = 0; cs_mldsa_impls[i]; i++)
        if (argc > 1 && !strcmp(cs_mldsa_impl_name(cs_mldsa_impls[i]), argv[1]))
            impl = cs_mldsa_impls[i];
    if (!impl) {
        fprintf(stderr, "usage: kernel_rate KERNEL [SECONDS]\n");
        return 2;
    }
    static uint8_t pk[CS_MLDSA_MAX_PK_BYTES], sk[CS_MLDSA_MAX_SK_BYTES], sig[CS_MLDSA_MAX_SIG_BYTES];
    uint8_t seed[32] = {1}, rnd[32] = {2}, msg[36] = {3};
    static const int sets[] = {44, 65, 87};
    for (int s = 0; s < 3; s++) {
        int ps = sets[s];
        for (int op = 0; op < 3; op++) {
            long n = 0;
            /* Sign and verify with the key prepared once, as the provider
             * keeps it per key (cs_mldsa_prepare_sk/_pk). */
            cs_mldsa_prepared *prs = cs_mldsa_prepare_sk(impl, ps, sk);
            cs_mldsa_prepared *prv = cs_mldsa_prepare_pk(impl, ps, pk);
            double t0 = cs_timer_process_cpu(), t;
            do {
                for (int k = 0; k < 16; k++, n++) {
                    seed[0] = (uint8_t)n;
                    if (op == 1)
                        msg[1] = (uint8_t)n; /* average over rejection-loop counts */
                    int rc = op == 0 ? cs_mldsa_keygen(impl, ps, pk, sk, seed)
                           : op == 1 ? cs_mldsa_sign_prepared(prs, sig, msg, sizeof msg, NULL, 0, rnd)
                                     : cs_mldsa_verify_prepared(prv, sig, cs_mldsa_sig_bytes(ps),
                                                                msg, sizeof msg, NULL, 0);
                    if (rc != 0) {
                        fprintf(stderr, "kernel_rate: ML-DSA-%d op %d failed\n", ps, op);
                        return 1;
                    }
                }
                t = cs_timer_process_cpu() - t0;
            } while (t < secs);
            cs_mldsa_prepared_free(prs);
            cs_mldsa_prepared_free(prv);
            /* Leave a matching key, then a signature of msg, for the next op. */
            if (op == 0)
                cs_mldsa_keygen(impl, ps, pk, sk, seed);
            if (op == 1)
                cs_mldsa_sign(impl, ps, sig, sk, msg, sizeof msg, NULL, 0, rnd);
            printf("%d %s %.1f\n", ps, op == 0 ? "keygen" : op == 1 ? "sign" : "verify", n / t);
        }
    }
    return 0;
}
