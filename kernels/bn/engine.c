/* The exponentiation engine: one fixed-window constant-time ladder (one
 * exponent, or the two halves of a paired call), one sliding window for a
 * public exponent, one two-exponent chain, over any kernel's primitives
 * (engine.h). Numbers and tables live in per-thread scratch; the kernel's
 * context comes prepared with the modulus (cs_mont.prep) or is prepared
 * here for the one call. Only sizes and public exponents steer control. */
#include <string.h>

#include "../ct.h"
#include "engine.h"
#include "scratch.h"

#define W CS_LIMB_BITS

/* Largest exponentiation table (per-thread scratch), in bytes: a
 * 32-entry table at every size served, and within L1 on current CPUs. */
#define TABLE_BYTES 32768

const cs_limb cs_bn_one[CS_BN_MAX_WORDS] __attribute__((aligned(64))) = {1};

/* One arithmetic the ladders run on: a kernel's prepared context (one
 * lane) or a paired one (two lanes, joined numbers). */
typedef struct {
    const void *ctx;
    size_t words;
    unsigned lanes;
    cs_bn_mul_fn *mul, *sqr;
    cs_bn_select_fn *select;
} arith;

static arith single(const cs_bn_prep *p)
{
    arith a = {p, p->words, 1, p->mul, p->sqr, p->select};
    return a;
}

/* See engine.h: every entry read, kept under a mask (one lane; at most 64
 * entries, the widest window's table). Word by word, so each result word
 * is stored once. */
void cs_bn_select_c(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx)
{
    cs_limb mask[64];
    for (size_t j = 0; j < entries; j++)
        mask[j] = (cs_limb)cs_ct_eq_mask(j, idx[0]);
    for (size_t i = 0; i < words; i++) {
        const cs_limb *t = tab + i;
        cs_limb acc = 0;
        for (size_t j = 0; j < entries; j++)
            acc |= t[j * words] & mask[j];
        out[i] = acc;
    }
}

/* Fills p with kernel k's context for mont: -1 outside k's range or when
 * its prepare refuses. Then R' mod m, the ladders' starting 1. */
static int fill_prep(const cs_bn_kernel *k, cs_bn_prep *p, const cs_mont *mont)
{
    p->kernel = NULL;
    if (mont->n < 1 || mont->n > CS_BN_MAX_LIMBS || !(mont->m[0] & 1) ||
        mont->bits < k->min_bits || mont->bits > k->max_bits)
        return -1;
    p->n = mont->n;
    p->select = cs_bn_select_c;
    p->max_window = 5;
    if (k->ops->prepare(p, mont) < 0)
        return -1;
    p->mul(p->onem, p->rr, cs_bn_one, p);
    p->kernel = k;
    return 0;
}

/* See bn_kernel.h. */
int cs_bn_prepare(const cs_bn_kernel *k, cs_mont *mont)
{
    if (mont->prep.kernel == k)
        return 0;
    return fill_prep(k, &mont->prep, mont);
}

/* k's context for mont: the one it holds, else one prepared into scratch
 * (*taken is set; give it back). NULL when k does not serve mont. */
static const cs_bn_prep *get_prep(const cs_bn_kernel *k, const cs_mont *mont,
                                  cs_bn_prep **taken)
{
    *taken = NULL;
    if (mont->prep.kernel == k)
        return &mont->prep;
    cs_bn_prep *p = cs_scratch_take(sizeof *p);
    if (!p)
        return NULL;
    *taken = p;
    return fill_prep(k, p, mont) == 0 ? p : NULL;
}

/* Bits [pos, pos + len) of e, zero at and above ebits (len <= 8). Positions
 * are public, the value may be secret: no branch on it. */
static unsigned window(const cs_limb *e, size_t ebits, size_t pos, unsigned len)
{
    unsigned v = 0;
    for (unsigned k = 0; k < len; k++) {
        size_t b = pos + k;
        if (b < ebits)
            v |= (unsigned)((e[b / W] >> (b % W)) & 1) << k;
    }
    return v;
}

/* Bit i of a public exponent. */
static int bit(const cs_limb *e, size_t i)
{
    return (int)((e[i / W] >> (i % W)) & 1);
}

/* Fixed window for a secret exponent of ebits bits over A's numbers: the
 * width up to wmax minimising squarings + one multiply and one full table
 * read per window + the table's set-up, in quarter word products (a
 * multiply 8 words^2, a squaring 6 where it has its own code, a masked read
 * of one word 1), within TABLE_BYTES. */
static unsigned ct_window(size_t ebits, const arith *A, unsigned wmax)
{
    size_t words = A->words;
    uint64_t mul = 8 * (uint64_t)words * words;
    uint64_t sqr = A->sqr == A->mul ? mul : 6 * (uint64_t)words * words;
    unsigned best = 1;
    uint64_t best_cost = 0;
    for (unsigned w = 1; w <= wmax; w++) {
        uint64_t count = (uint64_t)1 << w;
        if (count * words * sizeof(cs_limb) > TABLE_BYTES)
            break;
        uint64_t windows = (ebits + w - 1) / w;
        uint64_t cost = windows * (w * sqr + mul + count * words) + (count - 2) * mul;
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* acc = am^e per lane (Montgomery form), secret exponents: fixed windows
 * over the longest exponent's bits (shorter ones read as zero-padded),
 * every window's entries fetched under masks and always multiplied in.
 * onem is 1 in Montgomery form. -1 without scratch for the table. */
static int ladder_ct(const arith *A, cs_limb *acc, const cs_limb *am, const cs_limb *onem,
                     const cs_limb *const *e, const size_t *eb, unsigned wmax, cs_limb *sel)
{
    size_t ebits = A->lanes == 2 && eb[1] > eb[0] ? eb[1] : eb[0];
    size_t words = A->words;
    if (ebits == 0) {
        memcpy(acc, onem, words * sizeof *acc);
        return 0;
    }
    unsigned w = ct_window(ebits, A, wmax);
    size_t count = (size_t)1 << w, bytes = count * words * sizeof(cs_limb);
    cs_limb *tab = cs_scratch_take(bytes);
    if (!tab)
        return -1;
    memcpy(tab, onem, words * sizeof *tab);
    memcpy(tab + words, am, words * sizeof *tab);
    for (size_t j = 2; j < count; j++) {
        if (j & 1)
            A->mul(tab + j * words, tab + (j - 1) * words, am, A->ctx);
        else
            A->sqr(tab + j * words, tab + (j / 2) * words, tab + (j / 2) * words, A->ctx);
    }
    /* The top window holds the leftover bits, so all later windows are full. */
    size_t nwin = (ebits + w - 1) / w;
    unsigned idx[2];
    for (size_t k = nwin; k-- > 0;) {
        for (unsigned l = 0; l < A->lanes; l++)
            idx[l] = window(e[l], eb[l], k * w, w);
        if (k + 1 == nwin) {
            A->select(acc, tab, count, words, idx);
            continue;
        }
        for (unsigned s = 0; s < w; s++)
            A->sqr(acc, acc, acc, A->ctx);
        A->select(sel, tab, count, words, idx);
        A->mul(acc, acc, sel, A->ctx);
    }
    cs_scratch_give(tab, bytes);
    return 0;
}

/* Window bits for a public exponent of ebits significant bits with `ones`
 * set bits: squarings are the same for every width, so compare multiplies.
 * Width 1 costs one per further set bit (best for sparse exponents such as
 * 65537); width w about ebits/(w+1) plus 2^(w-1) for the table of odd
 * powers, which must fit its share of TABLE_BYTES (narms tables). */
static unsigned vt_window(size_t ebits, size_t ones, size_t words, size_t narms)
{
    unsigned best = 1;
    uint64_t best_cost = ones;
    for (unsigned w = 2; w <= 6; w++) {
        uint64_t count = (uint64_t)1 << (w - 1);
        if (narms * count * words * sizeof(cs_limb) > TABLE_BYTES)
            break;
        uint64_t cost = ebits / (w + 1) + count;
        if (cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* ebits less e's leading zero bits, and the set bits in what remains. */
static size_t significant(const cs_limb *e, size_t ebits, size_t *ones)
{
    while (ebits > 0 && !bit(e, ebits - 1))
        ebits--;
    *ones = 0;
    for (size_t i = 0; i < ebits; i++)
        *ones += (size_t)bit(e, i);
    return ebits;
}

/* tab = am^1, am^3, ..., am^(2*count - 1) (Montgomery form); sq is scratch. */
static void odd_powers(const arith *A, cs_limb *tab, const cs_limb *am, size_t count,
                       cs_limb *sq)
{
    size_t words = A->words;
    memcpy(tab, am, words * sizeof *tab);
    if (count > 1)
        A->sqr(sq, am, am, A->ctx);
    for (size_t j = 1; j < count; j++)
        A->mul(tab + j * words, tab + (j - 1) * words, sq, A->ctx);
}

/* One public exponent of the sliding-window chain: its odd-power table and
 * the window being consumed (v = 0: none pending). */
struct arm {
    const cs_limb *e;
    size_t ebits;
    unsigned w;
    const cs_limb *tab;
    size_t low; /* lowest bit of the pending window */
    unsigned v; /* its value (odd), 0 when none is pending */
};

/* At bit b of the scan: opens x's next window if one starts at b (bits b
 * down to the lowest set bit within x->w), and returns the table entry to
 * multiply by when the pending window ends at b, else NULL. */
static const cs_limb *arm_step(struct arm *x, size_t b, size_t words)
{
    if (!x->v && b < x->ebits && bit(x->e, b)) {
        size_t j = b + 1 >= x->w ? b + 1 - x->w : 0;
        while (!bit(x->e, j))
            j++;
        unsigned v = 0;
        for (size_t k = b + 1; k-- > j;)
            v = (v << 1) | (unsigned)bit(x->e, k);
        x->low = j;
        x->v = v;
    }
    if (!x->v || x->low != b)
        return NULL;
    const cs_limb *t = x->tab + (x->v >> 1) * words;
    x->v = 0;
    return t;
}

/* acc = prod am[i]^e[i] (Montgomery form) for `narms` public exponents
 * (one: exp; two: exp2) over one squaring chain, each by sliding windows
 * over its own odd powers; onem is 1 in Montgomery form. -1 without
 * scratch for the tables. */
static int chain_vt(const arith *A, cs_limb *acc, const cs_limb *const *am,
                    const cs_limb *const *e, const size_t *eb, size_t narms,
                    const cs_limb *onem, cs_limb *tmp)
{
    size_t words = A->words, top = 0, entries = 0;
    struct arm arm[2];
    for (size_t i = 0; i < narms; i++) {
        size_t ones;
        arm[i].e = e[i];
        arm[i].ebits = significant(e[i], eb[i], &ones);
        arm[i].w = vt_window(arm[i].ebits, ones, words, narms);
        arm[i].low = 0;
        arm[i].v = 0;
        entries += arm[i].ebits ? (size_t)1 << (arm[i].w - 1) : 0;
        if (arm[i].ebits > top)
            top = arm[i].ebits;
    }
    size_t bytes = (entries ? entries : 1) * words * sizeof(cs_limb);
    cs_limb *tab = cs_scratch_take(bytes);
    if (!tab)
        return -1;
    cs_limb *t = tab;
    for (size_t i = 0; i < narms; i++) {
        if (!arm[i].ebits)
            continue; /* factor 1: no table */
        size_t count = (size_t)1 << (arm[i].w - 1);
        odd_powers(A, t, am[i], count, tmp);
        arm[i].tab = t;
        t += count * words;
    }
    int started = 0;
    for (size_t b = top; b-- > 0;) {
        if (started)
            A->sqr(acc, acc, acc, A->ctx);
        for (size_t i = 0; i < narms; i++) {
            const cs_limb *x = arm[i].ebits ? arm_step(&arm[i], b, words) : NULL;
            if (x && started)
                A->mul(acc, acc, x, A->ctx);
            else if (x) {
                memcpy(acc, x, words * sizeof *acc);
                started = 1;
            }
        }
    }
    if (!started)
        memcpy(acc, onem, words * sizeof *acc);
    cs_scratch_give(tab, bytes);
    return 0;
}

/* The numbers one call keeps beside the table, in scratch. */
enum { AM0, AM1, ACC, TMP, NUMS };

/* exp (narms = 1) and exp2 (narms = 2, public exponents): r = prod
 * a[i]^e[i] mod m, ordinary form in and out; into Montgomery form, the
 * ladder (secret exponent) or the chain, out again. */
static int single_call(const cs_bn_kernel *k, cs_limb *r, const cs_limb *const *a,
                       const cs_limb *const *e, const size_t *eb, size_t narms,
                       const cs_mont *mont, int consttime)
{
    for (size_t i = 0; i < narms; i++)
        if (eb[i] > CS_BN_MAX_EXP_BITS)
            return -1;
    cs_bn_prep *taken;
    const cs_bn_prep *p = get_prep(k, mont, &taken);
    int ret = -1;
    cs_limb *x = p ? cs_scratch_take(NUMS * p->words * sizeof *x) : NULL;
    if (x) {
        arith A = single(p);
        size_t words = p->words;
        const cs_limb *am[2] = {x + AM0 * words, x + AM1 * words};
        cs_limb *acc = x + ACC * words, *tmp = x + TMP * words;
        for (size_t i = 0; i < narms; i++) {
            k->ops->load(tmp, a[i], p);
            A.mul((cs_limb *)am[i], tmp, p->rr, p); /* a R' */
        }
        ret = consttime ? ladder_ct(&A, acc, am[0], p->onem, e, eb, p->max_window, tmp)
                        : chain_vt(&A, acc, am, e, eb, narms, p->onem, tmp);
        if (ret == 0) {
            A.mul(acc, acc, cs_bn_one, p); /* out of Montgomery form: at most m */
            k->ops->store(r, acc, p);
        }
        cs_scratch_give(x, NUMS * words * sizeof *x);
    }
    if (taken)
        cs_scratch_give(taken, sizeof *taken);
    cs_wipe_stack(CS_BN_WIPE_STACK);
    return ret;
}

/* See engine.h. */
int cs_bn_engine_exp(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a, const cs_limb *e,
                     size_t ebits, const cs_mont *mont, int consttime)
{
    return single_call(k, r, &a, &e, &ebits, 1, mont, consttime);
}

/* See engine.h. */
int cs_bn_engine_exp2(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a0, const cs_limb *e0,
                      size_t ebits0, const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                      const cs_mont *mont)
{
    const cs_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
    size_t eb[2] = {ebits0, ebits1};
    return single_call(k, r, a, e, eb, 2, mont, 0);
}

/* exp_x2's work once both contexts are at hand: the halves joined, one
 * constant-time ladder over both, split again. */
static int pair_work(const cs_bn_kernel *k, const cs_bn_prep *const *p, cs_limb *const *r,
                     const cs_limb *const *a, const cs_limb *const *e, const size_t *eb)
{
    const cs_bn_pair_ops *po = k->ops->pair;
    void *ctx = cs_scratch_take(po->ctx_bytes);
    if (!ctx)
        return -1;
    int ret = -1;
    size_t words = po->prepare(ctx, p[0], p[1]);
    size_t half = p[0]->words > p[1]->words ? p[0]->words : p[1]->words;
    size_t bytes = (5 * words + 2 * half) * sizeof(cs_limb);
    cs_limb *x = words ? cs_scratch_take(bytes) : NULL;
    if (x) {
        arith A = {ctx, words, 2, po->mul, po->sqr, po->select};
        cs_limb *am = x, *acc = am + words, *sel = acc + words, *rr = sel + words,
                *onem = rr + words, *h0 = onem + words, *h1 = h0 + half;
        k->ops->load(h0, a[0], p[0]);
        k->ops->load(h1, a[1], p[1]);
        po->join(am, h0, h1, ctx);
        po->join(rr, p[0]->rr, p[1]->rr, ctx);
        po->join(onem, p[0]->onem, p[1]->onem, ctx);
        A.mul(am, am, rr, ctx); /* a R' */
        unsigned wmax = p[0]->max_window < p[1]->max_window ? p[0]->max_window : p[1]->max_window;
        ret = ladder_ct(&A, acc, am, onem, e, eb, wmax, sel);
        if (ret == 0) {
            po->join(rr, cs_bn_one, cs_bn_one, ctx);
            A.mul(acc, acc, rr, ctx); /* out of Montgomery form */
            po->split(h0, h1, acc, ctx);
            k->ops->store(r[0], h0, p[0]);
            k->ops->store(r[1], h1, p[1]);
        }
        cs_scratch_give(x, bytes);
    }
    cs_scratch_give(ctx, po->ctx_bytes);
    return ret;
}

/* See engine.h. */
int cs_bn_engine_exp_x2(const cs_bn_kernel *k, cs_limb *r0, const cs_limb *a0,
                        const cs_limb *e0, size_t ebits0, const cs_mont *mont0, cs_limb *r1,
                        const cs_limb *a1, const cs_limb *e1, size_t ebits1,
                        const cs_mont *mont1)
{
    if (!k->ops->pair || ebits0 > CS_BN_MAX_EXP_BITS || ebits1 > CS_BN_MAX_EXP_BITS)
        return -1;
    cs_bn_prep *taken[2] = {NULL, NULL};
    const cs_bn_prep *p[2];
    int ret = -1;
    p[0] = get_prep(k, mont0, &taken[0]);
    p[1] = p[0] ? get_prep(k, mont1, &taken[1]) : NULL;
    if (p[1]) {
        cs_limb *r[2] = {r0, r1};
        const cs_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
        size_t eb[2] = {ebits0, ebits1};
        ret = pair_work(k, p, r, a, e, eb);
    }
    /* Given back in the reverse order of taking. */
    if (taken[1])
        cs_scratch_give(taken[1], sizeof *taken[1]);
    if (taken[0])
        cs_scratch_give(taken[0], sizeof *taken[0]);
    cs_wipe_stack(CS_BN_WIPE_STACK);
    return ret;
}

/* See engine.h: r = a*b/R = (a*b/R') * (R'^2/R) / R', in the kernel's form. */
void cs_bn_engine_mont_mul(const cs_bn_kernel *k, cs_limb *r, const cs_limb *a,
                           const cs_limb *b, const cs_mont *mont)
{
    cs_bn_prep *taken;
    const cs_bn_prep *p = get_prep(k, mont, &taken);
    size_t words = p ? p->words : 0;
    cs_limb *x = p ? cs_scratch_take(2 * words * sizeof *x) : NULL;
    if (x) {
        k->ops->load(x, a, p);
        k->ops->load(x + words, b, p);
        if (a == b)
            p->sqr(x, x, x, p);
        else
            p->mul(x, x, x + words, p);
        p->mul(x, x, p->rx, p);
        k->ops->store(r, x, p);
        cs_scratch_give(x, 2 * words * sizeof *x);
    }
    if (taken)
        cs_scratch_give(taken, sizeof *taken);
    cs_wipe_stack(CS_BN_WIPE_STACK);
}
