/* Keccak-f[1600] through the CPACF message-digest instruction KIMD with the
 * SHAKE-128 function code: absorbing one all-zero block runs exactly one
 * permutation on the state held in the parameter block. The parameter
 * block is the 200-byte sponge state as FIPS 202's state string (lane
 * (x, y) at byte 8(5y + x), least significant byte first); our lanes are
 * that string read as little-endian words, so on this big-endian machine
 * each lane is byte-swapped on the way in and out. No emulator runs the
 * SHAKE codes (docs/oldhw.md): tests/unit/kernel_keccak_cpacf.c checks this
 * layout against a model of the instruction and published SHAKE digests.
 * Also the s390x Keccak table. */
#include <string.h>

#include "../keccak_internal.h"
#include "cpacf.h"

/* The instruction (cs_s390x_kimd_fn); repeats while the CPU reports
 * partial completion (condition code 3). */
static void kimd(unsigned long fc, void *param, const uint8_t *in, unsigned long len)
{
    register unsigned long r0 __asm__("0") = fc;
    register unsigned long r1 __asm__("1") = (unsigned long)param;
    register unsigned long r2 __asm__("2") = (unsigned long)in;
    register unsigned long r3 __asm__("3") = len;
    __asm__ volatile("0:\t.insn\trre,0xb93e0000,0,2\n\t"
                     "brc\t1,0b"
                     : "+d"(r2), "+d"(r3)
                     : "d"(r0), "a"(r1)
                     : "cc", "memory");
}

/* Swap lanes into the parameter block's byte order, absorb a zero block,
 * swap back. */
static inline void permute_via(uint64_t s[25], cs_s390x_kimd_fn *k)
{
    static const uint8_t zero[CS_SHAKE128_RATE];
    uint64_t st[25];
    for (unsigned i = 0; i < 25; i++)
        st[i] = __builtin_bswap64(s[i]);
    k(CS_KIMD_SHAKE128, st, zero, sizeof zero);
    for (unsigned i = 0; i < 25; i++)
        s[i] = __builtin_bswap64(st[i]);
}

void cs_keccakf1600_s390x_cpacf(uint64_t s[25])
{
    permute_via(s, kimd);
}

void cs_keccakf1600_s390x_cpacf_via(uint64_t s[25], cs_s390x_kimd_fn *k)
{
    permute_via(s, k);
}

/* The status word has bit 0 leftmost: function code fc is bit 7 - fc % 8
 * of byte fc / 8. */
int cs_s390x_kimd_has_shake(const uint8_t mask[16])
{
    return (mask[CS_KIMD_SHAKE128 / 8] >> (7 - CS_KIMD_SHAKE128 % 8)) & 1 &&
           (mask[CS_KIMD_SHAKE256 / 8] >> (7 - CS_KIMD_SHAKE256 % 8)) & 1;
}

int cs_s390x_cpacf_selfcheck(cs_s390x_kimd_fn *k)
{
    uint64_t a[25], b[25];
    for (unsigned i = 0; i < 25; i++)
        a[i] = b[i] = 0x0123456789abcdefULL * (i + 1) ^ (uint64_t)i << 58;
    cs_keccakf1600_portable(a);
    cs_keccakf1600_portable(a);
    permute_via(b, k);
    permute_via(b, k);
    return !memcmp(a, b, sizeof a);
}

/* The query (function code 0) returns the status word of installed
 * function codes; the permutation is then checked against the software one
 * before use. KIMD itself is part of the message-security assist, present
 * on every CPU Linux on s390x supports. */
uint32_t cs_cpu_probe_s390_shake(void)
{
    uint8_t mask[16] __attribute__((aligned(8)));
    memset(mask, 0, sizeof mask);
    kimd(CS_KIMD_QUERY, mask, NULL, 0);
    if (!cs_s390x_kimd_has_shake(mask))
        return 0;
    return cs_s390x_cpacf_selfcheck(kimd) ? CS_CPU_S390_SHAKE : 0;
}

/* The scalar permutation in CPACF. x4 NULL: the ML-DSA samplers then run
 * their streams one at a time on KIMD (as the s390x_vx_cpacf table always
 * did). */
const cs_keccak_impl cs_keccak_s390x_cpacf = {
    .name = "s390x_cpacf",
    .cpu_features = CS_CPU_S390_SHAKE,
    .f1600 = cs_keccakf1600_s390x_cpacf,
    .f1600_x2 = cs_keccakf1600_x2_vec,
};
