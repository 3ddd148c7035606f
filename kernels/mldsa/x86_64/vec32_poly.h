/* The ML-DSA elementwise hooks written once for both x86-64 vector widths
 * (poly_avx2.c, poly_avx512.c): the including file defines VEC_W (256 or
 * 512), VEC_SFX (avx2, avx512) and how sum_chknorm collects its flags
 * (VEC_BAD_T its type, VEC_BAD_0 none yet, VEC_BAD_OR(bad, x, lim) adds the
 * lanes of x above lim, VEC_BAD_ANY(bad) nonzero iff any), then includes
 * this file once. VEC is the vector type, VEC_OP(op) the intrinsic
 * _mm<W>_op, VEC_SI(op) _mm<W>_op_si<W>, VEC_N its 32-bit lanes. Each
 * object gets its width's own code, instruction for instruction what it
 * had written out (compared with objdump). Contracts in ../mldsa_backend.h;
 * all branch-free on coefficient values. */
#define VEC_OP_(w, op) _mm##w##_##op
#define VEC_SI_(w, op) _mm##w##_##op##_si##w
#define VEC_T_(w) __m##w##i
#define VEC_HOOK_(name, sfx) cs_mldsa_##name##_##sfx
#define VEC_OPW_(w, op) VEC_OP_(w, op)
#define VEC_SIW_(w, op) VEC_SI_(w, op)
#define VEC_TW_(w) VEC_T_(w)
#define VEC_HOOKW_(name, sfx) VEC_HOOK_(name, sfx)
#define VEC VEC_TW_(VEC_W)
#define VEC_OP(op) VEC_OPW_(VEC_W, op)
#define VEC_SI(op) VEC_SIW_(VEC_W, op)
#define VEC_HOOK(name) VEC_HOOKW_(name, VEC_SFX)
#define VEC_N (VEC_W / 32)

/* Coefficients i to i + VEC_N - 1 (unaligned forms: the generic code's
 * workspaces are 16-byte aligned only). */
static inline VEC vec_load(const int32_t *p)
{
    return VEC_SI(loadu)((const void *)p);
}

static inline void vec_store(int32_t *p, VEC v)
{
    VEC_SI(storeu)((void *)p, v);
}

/* a mod q into [-6283008, 6283008]: subtracts round(a / 2^23) * q. */
void VEC_HOOK(reduce32)(cs_mldsa_poly *a)
{
    const VEC q = VEC_OP(set1_epi32)(CS_MLDSA_Q), half = VEC_OP(set1_epi32)(1 << 22);
    for (unsigned i = 0; i < 256; i += VEC_N) {
        VEC x = vec_load(a->c + i);
        VEC t = VEC_OP(srai_epi32)(VEC_OP(add_epi32)(x, half), 23);
        vec_store(a->c + i, VEC_OP(sub_epi32)(x, VEC_OP(mullo_epi32)(t, q)));
    }
}

/* c = reduce32(a + b) or reduce32(a - b), nonzero iff some |c_i| >=
 * bound: the three passes of add/sub, reduce32 and chknorm in one. */
static inline __attribute__((always_inline)) int sum_chknorm_s(cs_mldsa_poly *c,
                                                               const cs_mldsa_poly *a,
                                                               const cs_mldsa_poly *b, int sub,
                                                               int32_t bound)
{
    const VEC q = VEC_OP(set1_epi32)(CS_MLDSA_Q), half = VEC_OP(set1_epi32)(1 << 22);
    const VEC lim = VEC_OP(set1_epi32)(bound - 1);
    VEC_BAD_T bad = VEC_BAD_0;
    for (unsigned i = 0; i < 256; i += VEC_N) {
        VEC x = vec_load(a->c + i), y = vec_load(b->c + i);
        x = sub ? VEC_OP(sub_epi32)(x, y) : VEC_OP(add_epi32)(x, y);
        VEC t = VEC_OP(srai_epi32)(VEC_OP(add_epi32)(x, half), 23);
        x = VEC_OP(sub_epi32)(x, VEC_OP(mullo_epi32)(t, q));
        vec_store(c->c + i, x);
        VEC_BAD_OR(bad, x, lim);
    }
    return VEC_BAD_ANY(bad);
}

/* The sum_chknorm hook: one copy per sign of b (public), so the add or
 * subtract is fixed in each loop. */
int VEC_HOOK(sum_chknorm)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b,
                          int sub, int32_t bound)
{
    return sub ? sum_chknorm_s(c, a, b, 1, bound) : sum_chknorm_s(c, a, b, 0, bound);
}

/* Adds q to negative coefficients (mask from the sign bit). */
void VEC_HOOK(caddq)(cs_mldsa_poly *a)
{
    const VEC q = VEC_OP(set1_epi32)(CS_MLDSA_Q);
    for (unsigned i = 0; i < 256; i += VEC_N) {
        VEC x = vec_load(a->c + i);
        vec_store(a->c + i, VEC_OP(add_epi32)(x, VEC_SI(and)(VEC_OP(srai_epi32)(x, 31), q)));
    }
}

/* c = a + b. */
void VEC_HOOK(add)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += VEC_N)
        vec_store(c->c + i, VEC_OP(add_epi32)(vec_load(a->c + i), vec_load(b->c + i)));
}

/* c = a - b. */
void VEC_HOOK(sub)(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += VEC_N)
        vec_store(c->c + i, VEC_OP(sub_epi32)(vec_load(a->c + i), vec_load(b->c + i)));
}
