/* The s390x CPACF Keccak (kernels/keccak/s390x/cpacf.c) without the
 * instruction: no emulator runs KIMD's SHAKE function codes (qemu 7.2 and
 * 10.0 report only SHA-512 and refuse kimd-shake-128/256 under TCG;
 * docs/oldhw.md), so the code that lays our lanes out as the parameter
 * block is run against a model of KIMD written from the z/Architecture
 * Principles of Operation (COMPUTE INTERMEDIATE MESSAGE DIGEST, SHAKE-128
 * and SHAKE-256: the parameter block is the 200-byte state string of FIPS
 * 202, each message block of the rate, 168 or 136 bytes, is XORed into its
 * leading bytes and the state permuted). The model is byte-oriented (lanes
 * assembled least significant byte first by shifts), so it is the same on
 * any host, and it is itself checked against published SHAKE digests
 * before it checks anything. Then: the permutation through the model
 * equals the portable one; the start-up self-check accepts the model and
 * refuses a model with lanes in the machine's byte order (the mistake a
 * missing byte swap would make); the query's status-word bits; and the
 * s390x_vx_cpacf ML-DSA table, with Keccak through the model, gives the
 * portable keys and signatures. Elsewhere than on s390x: one skip. */
#include <stdio.h>
#include <string.h>

#include "support/tap.h"
#include "support/vectors.h"

#if defined(__s390x__)
#include "kernels/keccak/keccak_internal.h"
#include "kernels/keccak/s390x/cpacf.h"
#include "kernels/mldsa/mldsa_backend.h"
#include "kernels/mldsa/s390x/s390x_mldsa.h"
#include "runtime/cpu.h"

static int model_calls, model_misuse;

/* KIMD-SHAKE-128/256 as the Principles of Operation define it, on bytes.
 * Any other function code or a length not a multiple of the rate is a
 * specification exception on the machine: counted as misuse here. */
static void model_kimd(unsigned long fc, void *param, const uint8_t *in, unsigned long len)
{
    unsigned rate = fc == CS_KIMD_SHAKE128 ? 168 : fc == CS_KIMD_SHAKE256 ? 136 : 0;
    uint8_t *p = param;
    model_calls++;
    if (!rate || len % rate) {
        model_misuse++;
        return;
    }
    for (; len; in += rate, len -= rate) {
        uint64_t lane[25];
        for (unsigned i = 0; i < rate; i++)
            p[i] ^= in[i];
        for (unsigned i = 0; i < 25; i++) {
            lane[i] = 0;
            for (unsigned b = 0; b < 8; b++)
                lane[i] |= (uint64_t)p[8 * i + b] << (8 * b);
        }
        cs_keccakf1600_portable(lane); /* A[x, y] = lane[x + 5y], as FIPS 202 */
        for (unsigned i = 0; i < 25; i++)
            for (unsigned b = 0; b < 8; b++)
                p[8 * i + b] = (uint8_t)(lane[i] >> (8 * b));
    }
}

/* The same with each lane read and written in this machine's byte order
 * (big-endian): what the hardware would look like to code that forgot the
 * swap. */
static void wrong_kimd(unsigned long fc, void *param, const uint8_t *in, unsigned long len)
{
    uint64_t *s = param;
    for (; len >= 168; in += 168, len -= 168) {
        for (unsigned i = 0; i < 168; i++)
            ((uint8_t *)param)[i] ^= in[i];
        cs_keccakf1600_portable(s);
    }
    (void)fc;
}

/* SHAKE of msg through the model alone: the padded message absorbed by
 * KIMD calls on a zeroed parameter block, the first outlen (<= rate)
 * bytes of the block as the output (FIPS 202: pad 1F .. 80). */
static void model_shake(unsigned fc, uint8_t *out, size_t outlen, const uint8_t *msg, size_t len)
{
    unsigned rate = fc == CS_KIMD_SHAKE128 ? 168 : 136;
    uint8_t pb[200], buf[400];
    size_t full = len / rate * rate, tail = len - full;
    memset(pb, 0, sizeof pb);
    if (full)
        model_kimd(fc, pb, msg, full);
    memset(buf, 0, rate);
    memcpy(buf, msg + full, tail);
    buf[tail] ^= 0x1f;
    buf[rate - 1] ^= 0x80;
    model_kimd(fc, pb, buf, rate);
    memcpy(out, pb, outlen);
}

static void test_model(void)
{
    /* NIST's FIPS 202 examples: SHAKE128/256 of the empty message, of
     * "abc", and of 200 bytes 0xA3 (two blocks at either rate); the first
     * 32 output bytes. */
    static const struct {
        unsigned fc;
        int msg; /* 0 empty, 1 "abc", 2 200 x 0xA3 */
        const char *hex;
    } kat[] = {
        {CS_KIMD_SHAKE128, 0, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"},
        {CS_KIMD_SHAKE256, 0, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"},
        {CS_KIMD_SHAKE128, 1, "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"},
        {CS_KIMD_SHAKE256, 1, "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"},
        {CS_KIMD_SHAKE128, 2, "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"},
        {CS_KIMD_SHAKE256, 2, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"},
    };
    uint8_t a3[200];
    memset(a3, 0xa3, sizeof a3);
    int ok = 1;
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint8_t want[32], got[32];
        vec_unhex(want, sizeof want, kat[i].hex, 64);
        const uint8_t *m = kat[i].msg == 1 ? (const uint8_t *)"abc" : a3;
        size_t len = kat[i].msg == 0 ? 0 : kat[i].msg == 1 ? 3 : sizeof a3;
        model_shake(kat[i].fc, got, sizeof got, m, len);
        if (memcmp(got, want, sizeof want)) {
            tap_diag("model SHAKE-%s of message %d differs", kat[i].fc == 36 ? "128" : "256",
                     kat[i].msg);
            ok = 0;
        }
    }
    tap_ok(ok && !model_misuse, "KIMD model: FIPS 202 SHAKE-128/256 digests (6 answers)");
}

static void test_layout(void)
{
    int ok = 1;
    model_calls = model_misuse = 0;
    for (int n = 0; n < 200; n++) {
        uint64_t a[25], b[25];
        for (unsigned i = 0; i < 25; i++)
            a[i] = b[i] = tap_rng_u64();
        cs_keccakf1600_portable(a);
        cs_keccakf1600_s390x_cpacf_via(b, model_kimd);
        ok &= !memcmp(a, b, sizeof a);
    }
    tap_ok(ok && model_calls == 200 && !model_misuse,
           "parameter block: lanes through the KIMD-SHAKE-128 model equal portable f1600 "
           "(200 states, one 168-byte block each, %d misuse)", model_misuse);
    tap_ok(cs_s390x_cpacf_selfcheck(model_kimd), "start-up self-check accepts the model");
    tap_ok(!cs_s390x_cpacf_selfcheck(wrong_kimd),
           "start-up self-check refuses lanes in the machine's byte order");
}

static void test_query(void)
{
    uint8_t m[16];
    memset(m, 0, sizeof m);
    m[4] = 0x0c; /* function codes 36 and 37: bits 4 and 5 of byte 4 */
    int ok = cs_s390x_kimd_has_shake(m);
    m[4] = 0x08;
    ok &= !cs_s390x_kimd_has_shake(m);
    m[4] = 0x04;
    ok &= !cs_s390x_kimd_has_shake(m);
    memset(m, 0, sizeof m);
    m[0] = 0x90; /* qemu's answer: query and SHA-512 */
    ok &= !cs_s390x_kimd_has_shake(m);
    memset(m, 0xff, sizeof m);
    m[4] = 0xf3; /* everything but SHAKE */
    ok &= !cs_s390x_kimd_has_shake(m);
    tap_ok(ok, "query status word: SHAKE-128/256 are bits 36 and 37, counted from the left");
    tap_diag("this CPU's probe: %s", cs_cpu_probe_s390_shake() ? "CPACF SHAKE usable"
                                                                  : "no CPACF SHAKE");
}

/* Keccak through the model, for the table below. */
static void model_f1600(uint64_t s[25])
{
    cs_keccakf1600_s390x_cpacf_via(s, model_kimd);
}

static void test_mldsa(void)
{
    if (!(cs_cpu_probe() & CS_CPU_S390_VX)) {
        tap_skip("s390x_vx_cpacf with the model: no vector facility");
        return;
    }
    cs_keccak_impl k = cs_keccak_s390x_cpacf;
    k.f1600 = model_f1600;
    k.cpu_features = 0;
    cs_mldsa_impl im = cs_mldsa_s390x_vx_cpacf;
    im.keccak = &k;
    static uint8_t pk1[CS_MLDSA_MAX_PK_BYTES], sk1[CS_MLDSA_MAX_SK_BYTES];
    static uint8_t pk2[CS_MLDSA_MAX_PK_BYTES], sk2[CS_MLDSA_MAX_SK_BYTES];
    static uint8_t sig1[CS_MLDSA_MAX_SIG_BYTES], sig2[CS_MLDSA_MAX_SIG_BYTES];
    static const int sets[3] = {44, 65, 87};
    static const uint8_t zero[32];
    int bad = 0;
    model_misuse = 0;
    for (int i = 0; i < 30; i++) {
        int ps = sets[i % 3];
        uint8_t seed[32], msg[64];
        tap_rng_bytes(seed, sizeof seed);
        tap_rng_bytes(msg, sizeof msg);
        int ok = cs_mldsa_keygen(&im, ps, pk1, sk1, seed) == 0 &&
                 cs_mldsa_keygen(&cs_mldsa_portable, ps, pk2, sk2, seed) == 0 &&
                 !memcmp(pk1, pk2, cs_mldsa_pk_bytes(ps)) &&
                 !memcmp(sk1, sk2, cs_mldsa_sk_bytes(ps)) &&
                 cs_mldsa_sign(&im, ps, sig1, sk1, msg, sizeof msg, NULL, 0, zero) == 0 &&
                 cs_mldsa_sign(&cs_mldsa_portable, ps, sig2, sk2, msg, sizeof msg, NULL, 0,
                               zero) == 0 &&
                 !memcmp(sig1, sig2, cs_mldsa_sig_bytes(ps)) &&
                 cs_mldsa_verify(&im, ps, sig2, cs_mldsa_sig_bytes(ps), msg, sizeof msg, NULL,
                                 0, pk1) == 0;
        bad += !ok;
    }
    tap_ok(bad == 0 && !model_misuse,
           "s390x_vx_cpacf with Keccak through the KIMD model agrees with portable on 30 seeds "
           "(%d differ)", bad);
}

int main(void)
{
    tap_rng_seed(0xc9acfULL);
    test_model();
    test_layout();
    test_query();
    test_mldsa();
    return tap_done();
}
#else
TAP_SKIP_MAIN("CPACF Keccak: s390x only")
#endif
