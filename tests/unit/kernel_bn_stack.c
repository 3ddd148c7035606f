/* Stack use and dead-stack secrets of every big-number kernel usable here
 * (issue 14). The stack below a frame is painted, a kernel entry is called
 * from that frame, and the region is read back: its lowest changed byte
 * gives the entry's depth, which must stay within CS_BN_KERNEL_STACK, and no
 * copy of the secret exponent or of the result (as limbs, or as the 28-,
 * 49- or 52-bit digits of the vector kernels) may remain there. The depths
 * measured are printed as TAP comments (docs/stack.md records them). */
#include <stdio.h>
#include <string.h>

#include "../../kernels/bn/bn_kernel.h"
#include "../../kernels/ct.h"
#include "runtime/cpu.h"
#include "support/rand_limbs.h"
#include "support/stack_paint.h"
#include "support/impl_runs.h"
#include "support/tap.h"

/* Most stack a kernel entry may use, its own frame and the wipe included. */
#define CS_BN_KERNEL_STACK (12 * 1024)


/* Reading what another frame left is the point here. */
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

/* Copies the STACK_AREA bytes below the caller's frame (as left by whatever the
 * caller called since paint) to out, lowest address first. */
__attribute__((noinline)) static void snapshot(unsigned char *out)
{
    volatile unsigned char area[STACK_AREA];
    for (size_t i = 0; i < STACK_AREA; i++)
        out[i] = area[i];
}

static unsigned char seen[STACK_AREA];

/* Bytes of the snapshot the call changed, counted from the top: the depth. */
static size_t depth(void)
{
    size_t i = 0;
    while (i < STACK_AREA && seen[i] == STACK_PAINT)
        i++;
    return STACK_AREA - i;
}

/* Changed bytes below the longest run of zeros in the snapshot (the wiped
 * region): none but the wipe's own few frames if the wipe reached as deep
 * as the work went. *run gets the run's length. */
static size_t below_wipe(size_t *run)
{
    size_t best = 0, best_at = 0;
    for (size_t i = 0; i < STACK_AREA;) {
        size_t j = i;
        while (j < STACK_AREA && seen[j] == 0)
            j++;
        if (j - i > best)
            best = j - i, best_at = i;
        i = j + 1;
    }
    size_t changed = 0;
    for (size_t i = 0; i < best_at; i++)
        changed += seen[i] != STACK_PAINT;
    *run = best;
    return changed;
}

/* Whether the snapshot holds two consecutive 64-bit words of x (k words) at
 * any 8-byte-aligned place: a copy of the number, or of part of it. */
static int holds(const uint64_t *x, size_t k)
{
    for (size_t off = 0; off + 16 <= STACK_AREA; off += 8)
        for (size_t j = 0; j + 1 < k; j++)
            if ((x[j] | x[j + 1]) && !memcmp(seen + off, x + j, 16))
                return 1;
    return 0;
}

/* x (n limbs) as 64-bit words of w-bit digits (w = 64: the limbs packed
 * into words); returns the count. */
static size_t as_digits(uint64_t *d, const cs_limb *x, size_t n, unsigned w)
{
    size_t bits = n * CS_LIMB_BITS, k = 0;
    for (size_t pos = 0; pos < bits; pos += w, k++) {
        uint64_t v = 0;
        for (unsigned b = 0; b < w && pos + b < bits; b++)
            v |= (uint64_t)((x[(pos + b) / CS_LIMB_BITS] >> ((pos + b) % CS_LIMB_BITS)) & 1) << b;
        d[k] = v;
    }
    return k;
}

/* Whether the snapshot holds x in any of the forms above. */
static int holds_any_form(const cs_limb *x, size_t n)
{
    static const unsigned widths[] = {64, 52, 49, 28};
    static uint64_t d[CS_BN_MAX_BITS / 28 + 2];
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
        if (holds(d, as_digits(d, x, n, widths[i])))
            return 1;
    return 0;
}

static cs_mont mont;
static cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], r[CS_BN_MAX_LIMBS];
static cs_limb e[CS_BN_MAX_EXP_BITS / CS_LIMB_BITS], e2[CS_BN_MAX_EXP_BITS / CS_LIMB_BITS];

enum call { EXP_CT, EXP_PUBLIC, EXP2, EXP_X2, MONT_MUL };
static const char *const call_name[] = {"exp consttime", "exp public", "exp2", "exp_x2",
                                        "mont_mul"};

/* Runs one entry of k on the globals (n-limb modulus, ebits-bit exponents)
 * between paint and snapshot; returns the entry's result code. */
__attribute__((noinline)) static int run(const cs_bn_kernel *k, enum call c, size_t ebits)
{
    static cs_limb r1[CS_BN_MAX_LIMBS];
    stack_paint();
    int ret = 0;
    switch (c) {
    case EXP_CT: ret = k->exp(r, a, e, ebits, &mont, 1); break;
    case EXP_PUBLIC: ret = k->exp(r, a, e, ebits, &mont, 0); break;
    case EXP2: ret = k->exp2(r, a, e, ebits, b, e2, 160, &mont); break;
    case EXP_X2: ret = k->exp_x2(r, a, e, ebits, &mont, r1, b, e2, ebits, &mont); break;
    case MONT_MUL: k->mont_mul(r, a, b, &mont); break;
    }
    snapshot(seen);
    return ret;
}

int main(void)
{
    static const unsigned sizes[] = {512, 1024, 2048, 3072, 4096, 8192};
    uint32_t have = cs_cpu_probe();
    for (const cs_bn_kernel *const *kp = cs_bn_kernels; *kp; kp++) {
        const cs_bn_kernel *k = *kp;
        if (!impl_runs(k->name, k->cpu_features, have))
            continue;
        size_t worst = 0;
        int deep_ok = 1, clean = 1, covered = 1, ran = 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            unsigned bits = sizes[si];
            if (bits < k->min_bits || bits > k->max_bits)
                continue;
            size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
            rand_odd_limbs(m, n, bits);
            if (cs_mont_init(&mont, m, n) < 0)
                continue;
            rand_odd_limbs(a, n, bits - 1);
            rand_odd_limbs(b, n, bits - 1);
            rand_odd_limbs(e, n, bits);
            rand_odd_limbs(e2, n, bits);
            for (int c = EXP_CT; c <= MONT_MUL; c++) {
                if ((c == EXP2 && !k->exp2) || (c == EXP_X2 && !k->exp_x2))
                    continue;
                if (run(k, (enum call)c, bits) < 0)
                    continue; /* a size this entry does not serve */
                ran++;
                size_t d = depth();
                worst = d > worst ? d : worst;
                if (d > CS_BN_KERNEL_STACK) {
                    deep_ok = 0;
                    tap_diag("%s %s, %u bits: %zu bytes of stack", k->name, call_name[c], bits,
                             d);
                }
                size_t run_len, below = below_wipe(&run_len);
                if (below > 256 || run_len < CS_BN_WIPE_STACK - 512) {
                    covered = 0;
                    tap_diag("%s %s, %u bits: %zu bytes changed below a wiped run of %zu",
                             k->name, call_name[c], bits, below, run_len);
                }
                /* The exponent of a consttime call is secret, and every
                 * result may be (a DH secret, an RSA plaintext). */
                if (holds_any_form(r, n) || (c == EXP_CT && holds_any_form(e, n))) {
                    clean = 0;
                    tap_diag("%s %s, %u bits: a copy is left on the dead stack", k->name,
                             call_name[c], bits);
                }
            }
        }
        tap_diag("%s: at most %zu bytes of stack over %d calls", k->name, worst, ran);
        tap_ok(ran > 0 && deep_ok, "%s: every entry within %d bytes of stack", k->name,
               CS_BN_KERNEL_STACK);
        tap_ok(ran > 0 && covered, "%s: the wipe reaches as deep as the work", k->name);
        tap_ok(ran > 0 && clean, "%s: no copy of the result or secret exponent left on the stack",
               k->name);
    }
    return tap_done();
}
