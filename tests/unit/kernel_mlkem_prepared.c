/* The prepared ML-KEM entries (mlkem.h: prepare, keygen_prepared,
 * encaps_prepared, decaps_prepared) of every implementation this CPU runs,
 * against the same implementation's unprepared entries and the portable
 * ones, for random d, z, m per parameter set: the same ek, dk, ciphertext,
 * shared secret and implicit-rejection secret; the prepared data keygen
 * leaves equal to what prepare makes from its ek; a copy (dup) serving as
 * the original after it is freed; a key prepared by one implementation
 * refused by every other's prepared entries (the provider then takes the
 * unprepared path, which gives the same bytes); a prepared key of another
 * parameter set refused. No OpenSSL. */
#include <stdio.h>
#include <string.h>

#include "kernels/mlkem/mlkem.h"
#include "kernels/mlkem/mlkem_backend.h"
#include "runtime/cpu.h"
#include "support/impl_runs.h"
#include "support/tap.h"

#define TRIALS 60

static const cs_mlkem_impl *usable[8];
static unsigned nusable;

/* The prepared polynomials and H(ek) of a and b are the same bytes. */
static int same_prepared(const cs_mlkem_prepared *a, const cs_mlkem_prepared *b)
{
    unsigned k = a->p->k;
    return a->p == b->p && !memcmp(a->h, b->h, 32) &&
           !memcmp(a->poly, b->poly, (k * k + k) * sizeof(cs_mlkem_poly));
}

/* Prepared against unprepared and portable for im on parameter set ps. */
static void prepared_vs_unprepared(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], m[32], ek[3][1568], dk[3][3168], ct[4][1568], ss[4][32], s2[4][32];
    size_t ekn = cs_mlkem_ek_bytes(ps), dkn = cs_mlkem_dk_bytes(ps), ctn = cs_mlkem_ct_bytes(ps);
    unsigned bad_gen = 0, bad_enc = 0, bad_dec = 0, bad_rej = 0, bad_fill = 0;
    for (unsigned t = 0; t < TRIALS; t++) {
        cs_mlkem_prepared *pg = cs_mlkem_prepared_new(ps), *pp = cs_mlkem_prepared_new(ps);
        if (!pg || !pp) {
            tap_ok(0, "no memory");
            return;
        }
        tap_rng_bytes(d, 32);
        tap_rng_bytes(z, 32);
        tap_rng_bytes(m, 32);
        /* 0: portable, 1: im unprepared, 2: im keygen_prepared */
        int rc = cs_mlkem_portable.keygen(ps, ek[0], dk[0], d, z);
        rc |= im->keygen(ps, ek[1], dk[1], d, z);
        rc |= im->keygen_prepared(ps, ek[2], dk[2], d, z, pg);
        rc |= im->prepare(ps, pp, ek[0]);
        for (unsigned i = 1; i < 3; i++)
            bad_gen += rc != 0 || memcmp(ek[0], ek[i], ekn) || memcmp(dk[0], dk[i], dkn);
        bad_fill += cs_mlkem_prepared_impl(pg) != im || cs_mlkem_prepared_impl(pp) != im ||
                    !same_prepared(pg, pp) || memcmp(cs_mlkem_prepared_h(pp), dk[0] + dkn - 64, 32);
        /* 0: portable, 1: im unprepared, 2, 3: im on either prepared key */
        rc = cs_mlkem_portable.encaps(ps, ct[0], ss[0], ek[0], m);
        rc |= im->encaps(ps, ct[1], ss[1], ek[0], m);
        rc |= im->encaps_prepared(pg, ct[2], ss[2], m);
        rc |= im->encaps_prepared(pp, ct[3], ss[3], m);
        for (unsigned i = 1; i < 4; i++)
            bad_enc += rc != 0 || memcmp(ct[0], ct[i], ctn) || memcmp(ss[0], ss[i], 32);
        rc = cs_mlkem_portable.decaps(ps, s2[0], ct[0], dk[0]);
        rc |= im->decaps(ps, s2[1], ct[0], dk[0]);
        rc |= im->decaps_prepared(pg, s2[2], ct[0], dk[0]);
        rc |= im->decaps_prepared(pp, s2[3], ct[0], dk[0]);
        for (unsigned i = 0; i < 4; i++)
            bad_dec += rc != 0 || memcmp(s2[i], ss[0], 32);
        ct[0][tap_rng_u64() % ctn] ^= (uint8_t)(1u << (t % 8));
        rc = cs_mlkem_portable.decaps(ps, s2[0], ct[0], dk[0]);
        rc |= im->decaps(ps, s2[1], ct[0], dk[0]);
        rc |= im->decaps_prepared(pg, s2[2], ct[0], dk[0]);
        rc |= im->decaps_prepared(pp, s2[3], ct[0], dk[0]);
        bad_rej += rc != 0 || !memcmp(s2[0], ss[0], 32);
        for (unsigned i = 1; i < 4; i++)
            bad_rej += memcmp(s2[0], s2[i], 32) != 0;
        cs_mlkem_prepared_free(pg);
        cs_mlkem_prepared_free(pp);
    }
    tap_ok(!bad_gen && !bad_fill, "%s: ML-KEM-%d keygen_prepared and prepare: same ek, dk, prepared "
           "data (%u, %u of %u differ)", im->name, ps, bad_gen, bad_fill, TRIALS);
    tap_ok(!bad_enc, "%s: ML-KEM-%d encaps_prepared as encaps and portable (%u differ)", im->name,
           ps, bad_enc);
    tap_ok(!bad_dec && !bad_rej, "%s: ML-KEM-%d decaps_prepared as decaps and portable, implicit "
           "rejection too (%u, %u differ)", im->name, ps, bad_dec, bad_rej);
}

/* A copy of a prepared key serves after the original is freed; a prepared key of
 * another parameter set, or of another implementation, is refused. */
static void dup_and_mismatch(const cs_mlkem_impl *im, int ps)
{
    uint8_t d[32], z[32], m[32], ek[1568], dk[3168], ct[2][1568], ss[2][32], s2[32];
    size_t ctn = cs_mlkem_ct_bytes(ps);
    tap_rng_bytes(d, 32);
    tap_rng_bytes(z, 32);
    tap_rng_bytes(m, 32);
    cs_mlkem_prepared *pr = cs_mlkem_prepared_new(ps), *other = cs_mlkem_prepared_new(ps == 512 ? 768 : 512);
    int ok = pr && other && cs_mlkem_prepared_impl(pr) == NULL &&
             im->keygen_prepared(ps, ek, dk, d, z, pr) == 0 &&
             im->encaps_prepared(pr, ct[0], ss[0], m) == 0;
    cs_mlkem_prepared *copy = ok ? cs_mlkem_prepared_dup(pr) : NULL;
    cs_mlkem_prepared_free(pr);
    ok = ok && copy && cs_mlkem_prepared_impl(copy) == im &&
         im->encaps_prepared(copy, ct[1], ss[1], m) == 0 && !memcmp(ct[0], ct[1], ctn) &&
         !memcmp(ss[0], ss[1], 32) && im->decaps_prepared(copy, s2, ct[1], dk) == 0 &&
         !memcmp(s2, ss[0], 32);
    tap_ok(ok, "%s: ML-KEM-%d a copy of a prepared key encapsulates and decapsulates as the "
           "original", im->name, ps);
    ok = other && im->prepare(ps, other, ek) == -1 && cs_mlkem_prepared_impl(other) == NULL &&
         im->keygen_prepared(ps, ek, dk, d, z, other) == -1;
    tap_ok(ok, "%s: ML-KEM-%d prepare and keygen_prepared refuse a prepared key of another "
           "set", im->name, ps);
    unsigned refused = 0, others = 0;
    for (unsigned j = 0; copy && j < nusable; j++) {
        const cs_mlkem_impl *o = usable[j];
        if (o == im)
            continue;
        others++;
        memset(ct[1], 0, ctn);
        int rc_e = o->encaps_prepared(copy, ct[1], ss[1], m);
        int rc_d = o->decaps_prepared(copy, s2, ct[0], dk);
        /* the provider's fallback: o's unprepared entries on the key's bytes */
        int same = o->encaps(ps, ct[1], ss[1], ek, m) == 0 && !memcmp(ct[0], ct[1], ctn) &&
                   !memcmp(ss[0], ss[1], 32) && o->decaps(ps, s2, ct[0], dk) == 0 &&
                   !memcmp(s2, ss[0], 32);
        refused += rc_e == -1 && rc_d == -1 && same;
    }
    tap_ok(refused == others, "%s: ML-KEM-%d prepared key refused by the %u other "
           "implementations' prepared entries, their unprepared ones agree", im->name, ps, others);
    cs_mlkem_prepared_free(copy);
    cs_mlkem_prepared_free(other);
}

int main(void)
{
    static const int sets[] = {512, 768, 1024};
    uint32_t have = cs_cpu_probe();
    tap_rng_seed(2703);
    tap_ok(cs_mlkem_prepared_new(0) == NULL && cs_mlkem_prepared_new(1023) == NULL,
           "no prepared key for an unknown parameter set");
    for (const cs_mlkem_impl *const *i = cs_mlkem_impls; *i; i++) {
        if (impl_runs((*i)->name, (*i)->cpu_features, have) && nusable < 8)
            usable[nusable++] = *i;
    }
    for (unsigned j = 0; j < nusable; j++)
        for (unsigned s = 0; s < 3; s++) {
            prepared_vs_unprepared(usable[j], sets[s]);
            dup_and_mismatch(usable[j], sets[s]);
        }
    return tap_done();
}
