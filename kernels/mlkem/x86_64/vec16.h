/* The 16-bit lane arithmetic of the x86-64 ML-KEM kernels, written once for
 * both vector widths: the including file defines VEC_W (256 or 512) and
 * includes this file; VEC is then its vector type (__m256i, __m512i),
 * VEC_OP(op) the intrinsic _mm<W>_op, VEC_SI(op) the whole-register one
 * _mm<W>_op_si<W>, VEC_N the coefficients a vector. The helpers are static
 * inline, so each object gets its width's own copy, the instructions it had
 * when each width was written out (compared with objdump). With VEC_SFX
 * defined (poly_avx2.c, poly_avx512.c) it also defines the elementwise
 * cs_mlkem_ops entries of that suffix. */
#define VEC_OP_(w, op) _mm##w##_##op
#define VEC_SI_(w, op) _mm##w##_##op##_si##w
#define VEC_T_(w) __m##w##i
#define VEC_OPW_(w, op) VEC_OP_(w, op)
#define VEC_SIW_(w, op) VEC_SI_(w, op)
#define VEC_TW_(w) VEC_T_(w)
#define VEC VEC_TW_(VEC_W)
#define VEC_OP(op) VEC_OPW_(VEC_W, op)
#define VEC_SI(op) VEC_SIW_(VEC_W, op)
#define VEC_N (VEC_W / 16)

#define QINV (-3327) /* q^-1 mod 2^16 */

/* Vector i of p (coefficients VEC_N i to VEC_N i + VEC_N - 1); p is 64-byte aligned. */
static inline VEC load(const cs_mlkem_poly *p, unsigned i)
{
    return VEC_SI(load)((const void *)&p->c[VEC_N * i]);
}

static inline void store(cs_mlkem_poly *p, unsigned i, VEC v)
{
    VEC_SI(store)((void *)&p->c[VEC_N * i], v);
}

/* a * z * 2^-16 mod q in (-q, q), zq = z * q^-1 mod 2^16 lane by lane. */
static inline VEC fqmul(VEC a, VEC z, VEC zq)
{
    VEC hi = VEC_OP(mulhi_epi16)(a, z);
    VEC lo = VEC_OP(mullo_epi16)(a, zq);
    return VEC_OP(sub_epi16)(hi, VEC_OP(mulhi_epi16)(lo, VEC_OP(set1_epi16)(CS_MLKEM_Q)));
}

/* The centred representative of a mod q: a - round(a * 20159 / 2^26) q. */
static inline VEC barrett(VEC a)
{
    VEC t = VEC_OP(mulhi_epi16)(a, VEC_OP(set1_epi16)(20159));
    t = VEC_OP(mulhrs_epi16)(t, VEC_OP(set1_epi16)(32)); /* round(t / 2^10) */
    return VEC_OP(sub_epi16)(a, VEC_OP(mullo_epi16)(t, VEC_OP(set1_epi16)(CS_MLKEM_Q)));
}

/* 32-bit lanes x (|x| < 2^15 q) to x * 2^-16 mod q in the even 16-bit lanes (odd lanes
 * garbage): the high half of x minus the high half of t q, t = x q^-1 mod 2^16. */
static inline VEC mont32(VEC x)
{
    VEC t = VEC_OP(mullo_epi16)(x, VEC_OP(set1_epi16)(QINV));
    t = VEC_OP(mulhi_epi16)(t, VEC_OP(set1_epi16)(CS_MLKEM_Q));
    return VEC_OP(sub_epi16)(VEC_OP(srli_epi32)(x, 16), t);
}

#ifdef VEC_SFX
#define VEC_ENTRY_(name, sfx) cs_mlkem_##name##_##sfx
#define VEC_ENTRYS_(name, sfx) VEC_ENTRY_(name, sfx)
#define VEC_ENTRY(name) VEC_ENTRYS_(name, VEC_SFX)
/* r = Barrett(a + b). */
void VEC_ENTRY(add_reduce)(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N / VEC_N; i++)
        store(r, i, barrett(VEC_OP(add_epi16)(load(a, i), load(b, i))));
}

/* r = Barrett(a - b). */
void VEC_ENTRY(sub_reduce)(cs_mlkem_poly *r, const cs_mlkem_poly *a, const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N / VEC_N; i++)
        store(r, i, barrett(VEC_OP(sub_epi16)(load(a, i), load(b, i))));
}

/* r = Barrett(r * 1353 * 2^-16 + e) (1353 = 2^32 mod q). */
void VEC_ENTRY(tomont_add)(cs_mlkem_poly *r, const cs_mlkem_poly *e)
{
    const VEC z = VEC_OP(set1_epi16)(1353), zq = VEC_OP(set1_epi16)((int16_t)(1353 * QINV));
    const VEC q = VEC_OP(set1_epi16)(CS_MLKEM_Q);
    for (unsigned i = 0; i < CS_MLKEM_N / VEC_N; i++) {
        VEC a = load(r, i);
        VEC m = VEC_OP(sub_epi16)(VEC_OP(mulhi_epi16)(a, z),
                                  VEC_OP(mulhi_epi16)(VEC_OP(mullo_epi16)(a, zq), q));
        store(r, i, barrett(VEC_OP(add_epi16)(m, load(e, i))));
    }
}
#endif
