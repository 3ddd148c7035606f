/* ML-KEM part of `cryptoshim selftest` (cli/selftest_kat.c runs it on
 * every implementation this CPU can run): a key pair from fixed d and z,
 * encapsulation to it with a fixed m and decapsulation; the shared secrets
 * must agree, and SHAKE256(ek || dk || ct || ss) must equal the known
 * answer (checked against OpenSSL 3.5's own ML-KEM: the same seed and
 * ikme through EVP). */
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "cli.h"

/* Key pair of set ps from fixed d, z; encapsulation with a fixed m and
 * decapsulation (agreeing); ek, dk, ct and ss into st. */
int cli_kat_mlkem(const void *vimpl, int ps, cs_shake256 *st)
{
    const cs_mlkem_impl *impl = vimpl;
    uint8_t d[32], z[32], m[32], ek[1568], dk[3168], ct[1568], ss[32], ss2[32];
    for (int j = 0; j < 32; j++) {
        d[j] = (uint8_t)(j * 3 + ps);
        z[j] = (uint8_t)(j * 5 + 1);
        m[j] = (uint8_t)(j * 11 + 7);
    }
    if (impl->keygen(ps, ek, dk, d, z) || impl->encaps(ps, ct, ss, ek, m) ||
        impl->decaps(ps, ss2, ct, dk) || memcmp(ss, ss2, 32))
        return 1;
    cs_shake256_absorb(st, ek, cs_mlkem_ek_bytes(ps));
    cs_shake256_absorb(st, dk, cs_mlkem_dk_bytes(ps));
    cs_shake256_absorb(st, ct, cs_mlkem_ct_bytes(ps));
    cs_shake256_absorb(st, ss, 32);
    return 0;
}
