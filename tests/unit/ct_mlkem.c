/* Constant-time check of ML-KEM keygen, encapsulation and decapsulation,
 * unprepared and prepared (keygen_prepared, prepare, encaps_prepared,
 * decaps_prepared), under valgrind memcheck (run by scripts/run-tests.sh
 * with --error-exitcode): d, z, m, the decapsulation key and the
 * ciphertext given to decapsulation are marked undefined, so any branch or
 * memory index that depends on them is reported. The kernels declassify
 * only rho and the encapsulation key written by keygen
 * (kernels/mlkem/kem.c); the prepared key keygen fills must come out
 * public (defined) too.
 * Every implementation this CPU runs is checked; without valgrind the
 * client requests are no-ops and only the results are checked. Valgrind
 * 3.19 executes no AVX-512: the second build of this file,
 * ct_mlkem_avx512emu (CT_AVX512_EMULATED, mk/ctemu.mk), links the AVX-512
 * Keccak compiled over tests/unit/ctemu/avx512_emul.h and checks only the
 * tables that need it. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "kernels/mlkem/mlkem.h"
#include "kernels/mlkem/mlkem_backend.h"
#include "runtime/cpu.h"
#include "support/ct_impl_runs.h"
#include "support/tap.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* Two decapsulations with dk and the ciphertext undefined: ct, then ct
 * with byte ctn / div xored with x (implicit rejection); unprepared (by
 * im->decaps for ps) when p1 is NULL, else prepared (decaps_prepared with
 * p1, then p2). One TAP line: both succeed, the first gives ss, the
 * second not. */
static void check_decaps(const cs_mlkem_impl *im, int ps, cs_mlkem_prepared *p1,
                         cs_mlkem_prepared *p2, uint8_t *ct, size_t div, uint8_t x,
                         uint8_t *dk, uint8_t ss[32])
{
    size_t dkn = cs_mlkem_dk_bytes(ps), ctn = cs_mlkem_ct_bytes(ps);
    uint8_t ss2[32], ss3[32];
    SECRET(dk, dkn);
    SECRET(ct, ctn);
    int rc = p1 ? im->decaps_prepared(p1, ss2, ct, dk) : im->decaps(ps, ss2, ct, dk);
    PUBLIC(&rc, sizeof rc);
    ct[ctn / div] ^= x;
    rc |= p1 ? im->decaps_prepared(p2, ss3, ct, dk) : im->decaps(ps, ss3, ct, dk);
    PUBLIC(&rc, sizeof rc);
    PUBLIC(ss, 32);
    PUBLIC(ss2, 32);
    PUBLIC(ss3, 32);
    tap_ok(rc == 0 && !memcmp(ss, ss2, 32) && memcmp(ss, ss3, 32),
           "%s: ML-KEM-%d %s and implicit rejection", im->name, ps,
           p1 ? "decaps_prepared" : "decaps");
}

/* The prepared entries of im for ps, with d, z, m, dk and the ciphertext
 * undefined: keygen_prepared (its ek and prepared key must be public),
 * prepare of the public ek, encaps_prepared on either key, and
 * decaps_prepared of the ciphertext and of a corrupted one. */
static void check_prepared(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], m[32], ek[1568], dk[3168], ct[1568], ct2[1568], ss[32], ss2[32];
    size_t ekn = cs_mlkem_ek_bytes(ps), ctn = cs_mlkem_ct_bytes(ps);
    cs_mlkem_prepared *pg = cs_mlkem_prepared_new(ps), *pp = cs_mlkem_prepared_new(ps);
    if (!pg || !pp) {
        tap_ok(0, "no memory");
        return;
    }
    size_t polys = (pg->p->k * pg->p->k + pg->p->k) * sizeof(cs_mlkem_poly);
    tap_rng_bytes(d, 32);
    tap_rng_bytes(z, 32);
    tap_rng_bytes(m, 32);

    SECRET(d, 32);
    SECRET(z, 32);
    int rc = im->keygen_prepared(ps, ek, dk, d, z, pg);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0 && VALGRIND_CHECK_MEM_IS_DEFINED(ek, ekn) == 0 &&
               VALGRIND_CHECK_MEM_IS_DEFINED(pg->poly, polys) == 0 &&
               VALGRIND_CHECK_MEM_IS_DEFINED(pg->h, 32) == 0,
           "%s: ML-KEM-%d keygen_prepared, ek and prepared key public", im->name, ps);
    rc = im->prepare(ps, pp, ek);
    PUBLIC(&rc, sizeof rc);

    SECRET(m, 32);
    rc |= im->encaps_prepared(pg, ct, ss, m);
    rc |= im->encaps_prepared(pp, ct2, ss2, m);
    PUBLIC(&rc, sizeof rc);
    PUBLIC(ct, ctn);
    PUBLIC(ct2, ctn);
    PUBLIC(ss, 32);
    PUBLIC(ss2, 32);
    tap_ok(rc == 0 && !memcmp(ct, ct2, ctn) && !memcmp(ss, ss2, 32),
           "%s: ML-KEM-%d prepare, encaps_prepared", im->name, ps);

    check_decaps(im, ps, pg, pp, ct, 3, 2, dk, ss);
    cs_mlkem_prepared_free(pg);
    cs_mlkem_prepared_free(pp);
}

/* One keygen, encaps and two decapsulations (the ciphertext, and a corrupted one
 * that takes implicit rejection) of parameter set ps with secrets undefined. */
static void check(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], m[32], ek[1568], dk[3168], ct[1568], ss[32];
    size_t ekn = cs_mlkem_ek_bytes(ps);
    tap_rng_bytes(d, 32);
    tap_rng_bytes(z, 32);
    tap_rng_bytes(m, 32);

    SECRET(d, 32);
    SECRET(z, 32);
    int rc = im->keygen(ps, ek, dk, d, z);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0 && VALGRIND_CHECK_MEM_IS_DEFINED(ek, ekn) == 0,
           "%s: ML-KEM-%d keygen, ek public", im->name, ps);

    SECRET(m, 32);
    rc = im->encaps(ps, ct, ss, ek, m);
    PUBLIC(&rc, sizeof rc);
    tap_ok(rc == 0, "%s: ML-KEM-%d encaps", im->name, ps);

    check_decaps(im, ps, NULL, NULL, ct, 2, 1, dk, ss);
    check_prepared(im, ps);
}

int main(void)
{
    static const int sets[] = {512, 768, 1024};
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(27);
    for (unsigned i = 0; cs_mlkem_impls[i]; i++) {
        const cs_mlkem_impl *im = cs_mlkem_impls[i];
        if (!ct_impl_runs(im->name, im->cpu_features, have, ""))
            continue;
        for (unsigned s = 0; s < 3; s++)
            check(im, sets[s]);
    }
    return tap_done();
}
