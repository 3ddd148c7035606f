/* The x86-64 samplers: A_hat (SampleNTT over SHAKE128) and the noise
 * (SamplePolyCBD over SHAKE256) with several Keccak states at once, the
 * rejection step and CBD in AVX2. The streams of one call go in batches
 * over the widest permutations of the given Keccak table: eight (x8), four
 * (x4), with one more state fused (x8x1, x4x1) where that saves a call, or
 * one. Batch sizes depend only on the stream count; the matrix's extra
 * blocks only on public rho. */
#include <immintrin.h>

#include "../../ct.h"
#include "../../keccak/keccak_internal.h"
#include "mlkem_x86.h"

#define MAX_STREAMS 9
#define MATRIX_BLOCKS 3 /* 504 bytes: 336 candidates, enough for 256 but rarely */

/* A hash computed in a spare slot of the matrix's Keccak calls: SHA3-256 (domain 0x06) or
 * SHAKE256 to 32 bytes (0x1F) of m1 || m2, rate 136. st is its state between calls (a
 * slot holds it during one batch), pos counts the input absorbed, perms the permutations
 * still to run; out gets the digest after the last one. Only the first avail bytes of the
 * input may be known yet (keygen's ek, written row by row): loaded says st holds its next
 * block, ready to permute; a job waits, riding nowhere, until that block is there. */
typedef struct hash_job {
    uint64_t st[25];
    const uint8_t *m1, *m2;
    size_t l1, l2, pos, avail;
    unsigned perms;
    uint8_t domain, loaded;
    uint8_t *out;
} hash_job;

/* XORs the job's next block (the padded last one when the input runs out) into its state;
 * only the input length decides a branch (J's input holds the secret z). */
static void hj_load(hash_job *h)
{
    uint8_t blk[CS_SHAKE256_RATE];
    size_t len = h->l1 + h->l2;
    size_t take = len - h->pos < CS_SHAKE256_RATE ? len - h->pos : CS_SHAKE256_RATE;
    const uint8_t *whole = NULL; /* a full block lying inside m1 or inside m2 */
    if (take == CS_SHAKE256_RATE && h->pos + take <= h->l1)
        whole = h->m1 + h->pos;
    else if (take == CS_SHAKE256_RATE && h->pos >= h->l1)
        whole = h->m2 + (h->pos - h->l1);
    if (whole) {
        for (unsigned i = 0; i < CS_SHAKE256_RATE / 8; i++)
            h->st[i] ^= cs_load64_le(whole + 8 * i);
        h->pos += take;
        return;
    }
    size_t from1 = h->pos < h->l1 ? h->l1 - h->pos : 0; /* bytes still in m1 */
    if (from1 > take)
        from1 = take;
    if (from1)
        memcpy(blk, h->m1 + h->pos, from1);
    if (take > from1)
        memcpy(blk + from1, h->m2 + (h->pos + from1 - h->l1), take - from1);
    h->pos += take;
    if (take < CS_SHAKE256_RATE) {
        memset(blk + take, 0, sizeof blk - take);
        blk[take] = h->domain;
        blk[CS_SHAKE256_RATE - 1] |= 0x80;
    }
    for (unsigned i = 0; i < CS_SHAKE256_RATE / 8; i++)
        h->st[i] ^= cs_load64_le(blk + 8 * i);
    cs_wipe(blk, sizeof blk);
}

/* Loads the job's next block if it is waiting and that block's bytes are known (all of
 * it, or the whole input for the last, padded block). */
static void hj_try_load(hash_job *h)
{
    if (h->perms && !h->loaded &&
        (h->pos + CS_SHAKE256_RATE <= h->avail || h->avail == h->l1 + h->l2)) {
        hj_load(h);
        h->loaded = 1;
    }
}

/* After a permutation of the job's state: its digest if that was the last, else its next
 * block XORed in when known. */
static void hj_next(hash_job *h)
{
    h->loaded = 0;
    if (--h->perms == 0) {
        for (unsigned i = 0; i < 4; i++)
            cs_store64_le(h->out + 8 * i, h->st[i]);
        return;
    }
    hj_try_load(h);
}

/* Up to nine SHAKE streams in one vector state (w lanes, interleaved as keccak.h says) and
 * one scalar state s1: streams 0..w-1 in the vector state, stream w in s1; a lone stream
 * uses s1 alone. With a hash job, the last stream is the hash. */
typedef struct multi_shake {
    uint64_t s[8 * 25] __attribute__((aligned(64)));
    uint64_t s1[25];
    unsigned w, n, rate;
    const cs_keccak_impl *k;
    hash_job *hj;
} multi_shake;

/* Lane i of stream j. */
static uint64_t *lane(multi_shake *m, unsigned j, unsigned i)
{
    if (m->n == 1 || j == m->w)
        return &m->s1[i];
    return &m->s[m->w * i + j];
}

/* n streams (n <= 9, as the table allows; the last one the hash job hj if not NULL), the
 * others stream j absorbing key[32] || suf[j] (slen <= 2 bytes) with SHAKE padding at rate
 * bytes. */
static void ms_init(multi_shake *m, const cs_keccak_impl *k, unsigned n, const uint8_t key[32],
                    const uint8_t (*suf)[2], unsigned slen, unsigned rate, hash_job *hj)
{
    m->k = k, m->n = n, m->rate = rate, m->hj = hj;
    m->w = n <= 5 && !(n == 5 && k->f1600_x8) ? 4 : 8;
    memset(m->s, 0, m->w * 25 * sizeof m->s[0]);
    memset(m->s1, 0, sizeof m->s1);
    for (unsigned j = 0; j < n - (hj != NULL); j++) {
        for (unsigned i = 0; i < 4; i++)
            *lane(m, j, i) = cs_load64_le(key + 8 * i);
        uint64_t tail = suf[j][0];
        if (slen == 2)
            tail |= (uint64_t)suf[j][1] << 8;
        *lane(m, j, 4) = tail | (uint64_t)0x1F << (8 * slen);
        *lane(m, j, rate / 8 - 1) ^= (uint64_t)0x80 << 56;
    }
    for (unsigned i = 0; hj && i < 25; i++)
        *lane(m, n - 1, i) = hj->st[i];
}

/* Permutes every stream and appends one block of each XOF stream to out[j]; the hash
 * stream takes its next block, or gives its digest after its last permutation. */
static void ms_block(multi_shake *m, uint8_t *const *out)
{
    if (m->n == 1)
        m->k->f1600(m->s1);
    else if (m->n == m->w + 1)
        (m->w == 4 ? m->k->f1600_x4x1 : m->k->f1600_x8x1)(m->s, m->s1);
    else
        (m->w == 4 ? m->k->f1600_x4 : m->k->f1600_x8)(m->s);
    unsigned xofs = m->n - (m->hj != NULL), lanes = m->rate / 8;
    uint8_t spare[4][CS_SHAKE128_RATE];
    for (unsigned g = 0; m->n > 1 && g < m->w && g < xofs; g += 4) {
        /* streams g..g+3 of the vector state: 4x4 transposes of lanes, 32 bytes a store */
        uint8_t *o[4];
        for (unsigned j = 0; j < 4; j++)
            o[j] = g + j < xofs && g + j < m->w ? out[g + j] : spare[j];
        unsigned i = 0;
        for (; i + 4 <= lanes; i += 4) {
            const uint64_t *r = &m->s[m->w * i + g];
            __m256i r0 = _mm256_loadu_si256((const __m256i *)r);
            __m256i r1 = _mm256_loadu_si256((const __m256i *)(r + m->w));
            __m256i r2 = _mm256_loadu_si256((const __m256i *)(r + 2 * m->w));
            __m256i r3 = _mm256_loadu_si256((const __m256i *)(r + 3 * m->w));
            __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
            __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
            _mm256_storeu_si256((__m256i *)(o[0] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
            _mm256_storeu_si256((__m256i *)(o[1] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
            _mm256_storeu_si256((__m256i *)(o[2] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
            _mm256_storeu_si256((__m256i *)(o[3] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
        }
        for (; i < lanes; i++)
            for (unsigned j = 0; j < 4; j++)
                cs_store64_le(o[j] + 8 * i, m->s[m->w * i + g + j]);
    }
    if ((m->n == 1 || m->n == m->w + 1) && xofs == m->n) /* an XOF stream in s1 */
        for (unsigned i = 0; i < lanes; i++)
            cs_store64_le(out[xofs - 1] + 8 * i, m->s1[i]);
    hash_job *h = m->hj;
    if (h)
        cs_wipe(spare, sizeof spare); /* may hold the hash lane (J's state depends on z) */
    if (!h || !h->loaded) /* done, or waiting for input: its lane ran idle */
        return;
    for (unsigned i = 0; i < 25; i++)
        h->st[i] = *lane(m, m->n - 1, i);
    hj_next(h);
    for (unsigned i = 0; h->loaded && i < 25; i++)
        *lane(m, m->n - 1, i) = h->st[i];
}

/* How many of n remaining streams the next call takes: four or fewer on the 4-way
 * permutation, five on the fused 4+1 where there are no eight-way ones; otherwise up to
 * eight, nine on the fused 8+1, and 16 as 8 + 8. */
static unsigned batch_size(const cs_keccak_impl *k, unsigned n)
{
    if (n <= 4)
        return n;
    if (!k->f1600_x8)
        return k->f1600_x4x1 ? 5 : 4;
    if (n <= 8 || (n > 9 && n <= 16))
        return n < 8 ? n : 8;
    return k->f1600_x8x1 ? 9 : 8;
}

/* The values below q of the 16 12-bit candidates in 24 bytes at in (readable to in + 32),
 * packed to dst[0..count) (dst has room for 16); returns count. One byte shuffle spreads
 * the candidates to lanes; the accept mask, by pdep/pext, builds the compacting shuffle of
 * each half. Public data. */
static inline unsigned rej16(int16_t *dst, const uint8_t *in)
{
    const __m256i idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5,
                                         5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
    __m256i x = _mm256_loadu_si256((const __m256i *)in);
    x = _mm256_permute4x64_epi64(x, 0x94); /* bytes 0-15 | 8-23 */
    x = _mm256_shuffle_epi8(x, idx);
    /* even lanes: low 12 bits; odd lanes: high 12 bits of their byte pair */
    __m256i v = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xAA);
    v = _mm256_and_si256(v, _mm256_set1_epi16(0xFFF));
    uint32_t good = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi16(_mm256_set1_epi16(CS_MLKEM_Q), v));
    good = _pext_u32(good, 0x55555555u); /* one bit a lane */
    unsigned count = 0;
    for (unsigned half = 0; half < 2; half++) {
        uint32_t m8 = (good >> (8 * half)) & 0xFF;
        uint64_t sel = _pext_u64(0x0706050403020100ull, _pdep_u64(m8, 0x0101010101010101ull) * 0xFF);
        __m128i l = _mm_cvtepu8_epi16(_mm_cvtsi64_si128((long long)sel));
        __m128i sh = _mm_add_epi16(_mm_mullo_epi16(l, _mm_set1_epi16(0x0202)), _mm_set1_epi16(0x0100));
        __m128i h = half ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
        _mm_storeu_si128((__m128i *)(dst + count), _mm_shuffle_epi8(h, sh));
        count += (unsigned)__builtin_popcount(m8);
    }
    return count;
}

/* Appends to r[have..] the 12-bit values below q of buf (len bytes, readable to len + 8),
 * 24 bytes a step (the last steps through a spare buffer, so r is never overrun), the
 * portable step for a tail of under 24 bytes. Public data. */
unsigned cs_mlkem_rej_uniform_avx2(int16_t *r, unsigned have, const uint8_t *buf, size_t len)
{
    return cs_mlkem_rej_steps(r, have, buf, len, rej16);
}

/* Runs the job's remaining permutations alone on kt's scalar permutation, straight on its
 * state (no stream set-up around a lone state); its whole input must be known by now. */
static void hj_finish(const cs_keccak_impl *kt, hash_job *hj)
{
    while (hj->perms) {
        hj_try_load(hj);
        kt->f1600(hj->st);
        hj_next(hj);
    }
}

/* A rejection step (as cs_mlkem_rej_uniform, buf readable to len + 8). */
typedef unsigned (*rej_fn)(int16_t *r, unsigned have, const uint8_t *buf, size_t len);

/* A_hat[i][j] = SampleNTT(rho || j || i) into a[i*k + j] (transposed: a[j*k + i]) for
 * the streams i*k + j in [from, to), in batches on keccak table kt, values by the rejection
 * step rej; with hj, the hash job rides in one more slot of each batch while it is loaded
 * (the caller finishes it). While it rides, a batch is three streams and the hash in one 4-way call
 * a block: the hash's chain of single permutations then sets the pace, and on the model 167
 * Xeon a 4-way call costs 620 TSC cycles against 1000 for 8-way and 1560 for 8+1-way (ML-KEM-768
 * matrix and H(ek): avx512 12.2k -> 9.5k, avx2 18.7k -> 14.8k). */
static void gen_matrix_part(const cs_keccak_impl *kt, rej_fn rej, cs_mlkem_poly *a, unsigned k,
                            const uint8_t rho[32], int transposed, unsigned from, unsigned to,
                            hash_job *hj)
{
    static const size_t bytes = MATRIX_BLOCKS * CS_SHAKE128_RATE;
    uint8_t buf[MAX_STREAMS][MATRIX_BLOCKS * CS_SHAKE128_RATE + 8];
    uint8_t suf[MAX_STREAMS][2];
    uint8_t *out[MAX_STREAMS];
    unsigned have[MAX_STREAMS];
    multi_shake m;
    for (unsigned t0 = from, n; t0 < to; t0 += n) {
        hash_job *h = hj && hj->loaded ? hj : NULL;
        n = batch_size(kt, to - t0);
        if (h && n > 3)
            n = 3; /* three streams and the hash: one 4-way call a block */
        for (unsigned j = 0; j < n; j++) {
            unsigned t = t0 + j, row = t / k, col = t % k;
            suf[j][0] = (uint8_t)(transposed ? row : col);
            suf[j][1] = (uint8_t)(transposed ? col : row);
        }
        ms_init(&m, kt, n + (h != NULL), rho, suf, 2, CS_SHAKE128_RATE, h);
        for (unsigned b = 0; b < MATRIX_BLOCKS; b++) {
            for (unsigned j = 0; j < n; j++)
                out[j] = buf[j] + b * CS_SHAKE128_RATE;
            ms_block(&m, out);
        }
        unsigned done = 1;
        for (unsigned j = 0; j < n; j++) {
            have[j] = rej(a[t0 + j].c, 0, buf[j], bytes);
            done &= have[j] == CS_MLKEM_N;
        }
        while (!done) {
            for (unsigned j = 0; j < n; j++)
                out[j] = buf[j];
            ms_block(&m, out);
            done = 1;
            for (unsigned j = 0; j < n; j++) {
                have[j] = rej(a[t0 + j].c, have[j], buf[j], CS_SHAKE128_RATE);
                done &= have[j] == CS_MLKEM_N;
            }
        }
    }
    if (hj)
        cs_wipe(&m, sizeof m); /* its last lane held the hash's state (J's depends on z) */
}

/* The whole matrix (as gen_matrix_part), the hash job riding, then finishing alone. */
static void gen_matrix(const cs_keccak_impl *kt, rej_fn rej, cs_mlkem_poly *a, unsigned k,
                       const uint8_t rho[32], int transposed, hash_job *hj)
{
    gen_matrix_part(kt, rej, a, k, rho, transposed, 0, k * k, hj);
    if (hj)
        hj_finish(kt, hj);
}

/* SamplePolyCBD_2 of 128 bytes in AVX2: per byte, two 2-bit popcount pairs. */
static void cbd2_avx2(cs_mlkem_poly *p, const uint8_t *buf)
{
    const __m256i m55 = _mm256_set1_epi8(0x55), m33 = _mm256_set1_epi8(0x33),
                  m0f = _mm256_set1_epi8(0x0F);
    for (unsigned i = 0; i < 4; i++) {
        __m256i t = _mm256_loadu_si256((const __m256i *)(buf + 32 * i));
        __m256i d = _mm256_add_epi8(_mm256_and_si256(t, m55),
                                    _mm256_and_si256(_mm256_srli_epi16(t, 1), m55));
        __m256i x = _mm256_and_si256(d, m33), y = _mm256_and_si256(_mm256_srli_epi16(d, 2), m33);
        __m256i ev = _mm256_sub_epi8(_mm256_and_si256(x, m0f), _mm256_and_si256(y, m0f));
        __m256i od = _mm256_sub_epi8(_mm256_and_si256(_mm256_srli_epi16(x, 4), m0f),
                                     _mm256_and_si256(_mm256_srli_epi16(y, 4), m0f));
        __m256i lo = _mm256_unpacklo_epi8(ev, od), hi = _mm256_unpackhi_epi8(ev, od);
        int16_t *c = &p->c[64 * i];
        _mm256_store_si256((__m256i *)c, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(lo)));
        _mm256_store_si256((__m256i *)(c + 16), _mm256_cvtepi8_epi16(_mm256_castsi256_si128(hi)));
        _mm256_store_si256((__m256i *)(c + 32),
                           _mm256_cvtepi8_epi16(_mm256_extracti128_si256(lo, 1)));
        _mm256_store_si256((__m256i *)(c + 48),
                           _mm256_cvtepi8_epi16(_mm256_extracti128_si256(hi, 1)));
    }
}

/* SamplePolyCBD_3 of 192 bytes in AVX2: three bytes to a 32-bit lane, the 3-bit popcounts
 * of its four coefficient pairs, two coefficients to a 16-bit lane, then interleaved. */
static void cbd3_avx2(cs_mlkem_poly *p, const uint8_t *buf)
{
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4,
                                         5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    const __m256i m249 = _mm256_set1_epi32(0x249249), m12 = _mm256_set1_epi32(0xFFF);
    const __m256i m3f = _mm256_set1_epi16(0x3F), m7 = _mm256_set1_epi16(7);
    for (unsigned i = 0; i < 8; i++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(buf + 24 * i));
        __m128i hi = _mm_loadl_epi64((const __m128i *)(buf + 24 * i + 16));
        __m256i t = _mm256_setr_m128i(lo, _mm_alignr_epi8(hi, lo, 8)); /* 0-15 | 8-23 */
        t = _mm256_shuffle_epi8(t, idx);
        __m256i d = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_and_si256(t, m249),
                             _mm256_and_si256(_mm256_srli_epi32(t, 1), m249)),
            _mm256_and_si256(_mm256_srli_epi32(t, 2), m249));
        /* 16-bit lanes: coefficients 0, 1 (low) and 2, 3 (high) of each 32-bit lane */
        __m256i u = _mm256_or_si256(_mm256_and_si256(d, m12),
                                    _mm256_slli_epi32(_mm256_srli_epi32(d, 12), 16));
        __m256i f0 = _mm256_and_si256(u, m3f), f1 = _mm256_and_si256(_mm256_srli_epi16(u, 6), m3f);
        f0 = _mm256_sub_epi16(_mm256_and_si256(f0, m7), _mm256_srli_epi16(f0, 3));
        f1 = _mm256_sub_epi16(_mm256_and_si256(f1, m7), _mm256_srli_epi16(f1, 3));
        __m256i a = _mm256_unpacklo_epi16(f0, f1), b = _mm256_unpackhi_epi16(f0, f1);
        _mm256_store_si256((__m256i *)&p->c[32 * i], _mm256_permute2x128_si256(a, b, 0x20));
        _mm256_store_si256((__m256i *)&p->c[32 * i + 16], _mm256_permute2x128_si256(a, b, 0x31));
    }
}

/* As cs_mlkem_cbd. */
void cs_mlkem_cbd_avx2(cs_mlkem_poly *p, const uint8_t *buf, unsigned eta)
{
    if (eta == 2)
        cbd2_avx2(p, buf);
    else
        cbd3_avx2(p, buf);
}

/* r[i] = SamplePolyCBD(PRF(seed, nonce + i)), the n streams in batches on kt; with hj, the
 * hash job rides in one more slot of each batch while it lasts (the caller finishes it). */
static void sample_noise(const cs_keccak_impl *kt, cs_mlkem_poly *r, unsigned n, unsigned n1,
                         unsigned eta1, unsigned eta2, const uint8_t seed[32], uint8_t nonce,
                         hash_job *hj)
{
    uint8_t buf[MAX_STREAMS][2 * CS_SHAKE256_RATE], suf[MAX_STREAMS][2];
    uint8_t *out[MAX_STREAMS];
    multi_shake m;
    for (unsigned t0 = 0, b; t0 < n; t0 += b) {
        hash_job *h = hj && hj->loaded ? hj : NULL;
        b = batch_size(kt, n - t0);
        if (h && b > (kt->f1600_x8 ? 8u : 4u))
            b = kt->f1600_x8 ? 8 : 4; /* the fused slot goes to the hash */
        unsigned blocks = 1;
        for (unsigned j = 0; j < b; j++) {
            suf[j][0] = (uint8_t)(nonce + t0 + j);
            if ((t0 + j < n1 ? eta1 : eta2) == 3)
                blocks = 2; /* 192 bytes */
        }
        ms_init(&m, kt, b + (h != NULL), seed, suf, 1, CS_SHAKE256_RATE, h);
        for (unsigned blk = 0; blk < blocks; blk++) {
            for (unsigned j = 0; j < b; j++)
                out[j] = buf[j] + blk * CS_SHAKE256_RATE;
            ms_block(&m, out);
        }
        for (unsigned j = 0; j < b; j++)
            cs_mlkem_cbd_avx2(&r[t0 + j], buf[j], t0 + j < n1 ? eta1 : eta2);
    }
    cs_wipe(&m, sizeof m);
    cs_wipe(buf, sizeof buf);
}

/* kr = G(m || h) (SHA3-512: one block at rate 72) in lane 0 of one 4-way call whose lane
 * 1 runs the job's next permutation (lanes 2 and 3 idle): on both x86-64 tables a 4-way
 * call costs about two single ones or less. */
static void g_with_job(const cs_keccak_impl *kt, uint8_t kr[64], const uint8_t m[32],
                       const uint8_t h[32], hash_job *hj)
{
    uint64_t s[4 * 25] __attribute__((aligned(64)));
    memset(s, 0, sizeof s);
    for (unsigned i = 0; i < 4; i++) {
        s[4 * i] = cs_load64_le(m + 8 * i);
        s[4 * (4 + i)] = cs_load64_le(h + 8 * i);
    }
    s[4 * 8] = 0x06 | (uint64_t)0x80 << 56; /* SHA3 domain bits and pad10*1 of 72 bytes */
    for (unsigned i = 0; i < 25; i++)
        s[4 * i + 1] = hj->st[i];
    kt->f1600_x4(s);
    for (unsigned i = 0; i < 8; i++)
        cs_store64_le(kr + 8 * i, s[4 * i]);
    for (unsigned i = 0; i < 25; i++)
        hj->st[i] = s[4 * i + 1];
    hj_next(hj);
    cs_wipe(s, sizeof s);
}

/* The hash job of cs_mlkem_ops.gen_matrix_hash: digest of m1 || m2 into out. */
static hash_job job(int shake, const uint8_t *m1, size_t l1, const uint8_t *m2, size_t l2,
                    uint8_t out[32])
{
    hash_job h = {{0}, m1, m2, l1, l2, 0, l1 + l2, (unsigned)((l1 + l2) / CS_SHAKE256_RATE + 1),
                  (uint8_t)(shake ? 0x1F : 0x06), 0, out};
    hj_try_load(&h);
    return h;
}

/* cs_mlkem_ops.gen_matrix_rows_hash on kt. For k = 3, row by row: H(ek) waits for ek's
 * first row, then takes the fourth lane of the next rows' 4-way calls (three streams a
 * batch) as their bytes arrive, and finishes alone: on the model 167 Xeon that spends 9
 * four-way calls (620 TSC cycles each) for the matrix against three 8+1-way ones (1560)
 * and saves five of H's nine single permutations (541). For k = 2 and 4 row by row costs
 * more calls than the hash saves: the whole matrix, then the rows, then H. */
static void gen_matrix_rows_hash(const cs_keccak_impl *kt, rej_fn rej, cs_mlkem_poly *a,
                                 unsigned k, const uint8_t rho[32], const uint8_t *ek,
                                 size_t ek_bytes, uint8_t h[32],
                                 void (*row_done)(void *ctx, unsigned row), void *ctx)
{
    if (k != 3) {
        gen_matrix(kt, rej, a, k, rho, 0, NULL);
        for (unsigned i = 0; i < k; i++)
            row_done(ctx, i);
        cs_mlkem_hash_h(kt, h, ek, ek_bytes);
        return;
    }
    hash_job hj = {{0}, ek, NULL, ek_bytes, 0, 0, 0, (unsigned)(ek_bytes / CS_SHAKE256_RATE + 1),
                   0x06, 0, h};
    for (unsigned i = 0; i < k; i++) {
        gen_matrix_part(kt, rej, a, k, rho, 0, i * k, i * k + k, &hj);
        row_done(ctx, i);
        hj.avail = i + 1 < k ? (size_t)CS_MLKEM_POLY_BYTES * (i + 1) : ek_bytes;
        hj_try_load(&hj);
    }
    hj_finish(kt, &hj);
}

/* cs_mlkem_ops.g_noise_j on kt: J's job takes a lane of G's call and of the noise's. */
static void g_noise_j(const cs_keccak_impl *kt, cs_mlkem_poly *r, unsigned n, unsigned n1,
                      unsigned eta1, unsigned eta2, uint8_t kr[64], const uint8_t m[32],
                      const uint8_t h[32], const uint8_t z[32], const uint8_t *ct, size_t ctlen,
                      uint8_t kbar[32])
{
    hash_job hj = job(1, z, 32, ct, ctlen, kbar);
    g_with_job(kt, kr, m, h, &hj);
    sample_noise(kt, r, n, n1, eta1, eta2, kr + 32, 0, &hj);
    hj_finish(kt, &hj);
    cs_wipe(&hj, sizeof hj);
}

/* The ops entries of the same names (mlkem_x86.h) on Keccak table KECCAK with the
 * rejection step REJ, for the table suffix SFX. */
#define SAMPLER_ENTRIES(SFX, KECCAK, REJ)                                                      \
    void cs_mlkem_gen_matrix_##SFX(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],        \
                                   int transposed)                                             \
    {                                                                                          \
        gen_matrix(&KECCAK, REJ, a, k, rho, transposed, NULL);                                 \
    }                                                                                          \
    void cs_mlkem_gen_matrix_hash_##SFX(cs_mlkem_poly *a, unsigned k, const uint8_t rho[32],   \
                                        int transposed, int shake, const uint8_t *m1,          \
                                        size_t l1, const uint8_t *m2, size_t l2,               \
                                        uint8_t out[32])                                       \
    {                                                                                          \
        hash_job h = job(shake, m1, l1, m2, l2, out);                                          \
        gen_matrix(&KECCAK, REJ, a, k, rho, transposed, &h);                                   \
        cs_wipe(&h, sizeof h);                                                                 \
    }                                                                                          \
    void cs_mlkem_gen_matrix_rows_hash_##SFX(cs_mlkem_poly *a, unsigned k,                     \
                                             const uint8_t rho[32], const uint8_t *ek,         \
                                             size_t ek_bytes, uint8_t h[32],                   \
                                             void (*row_done)(void *ctx, unsigned row),        \
                                             void *ctx)                                        \
    {                                                                                          \
        gen_matrix_rows_hash(&KECCAK, REJ, a, k, rho, ek, ek_bytes, h, row_done, ctx);         \
    }                                                                                          \
    void cs_mlkem_g_noise_j_##SFX(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1,    \
                                  unsigned eta2, uint8_t kr[64], const uint8_t m[32],          \
                                  const uint8_t h[32], const uint8_t z[32], const uint8_t *ct, \
                                  size_t ctlen, uint8_t kbar[32])                              \
    {                                                                                          \
        g_noise_j(&KECCAK, r, n, n1, eta1, eta2, kr, m, h, z, ct, ctlen, kbar);                \
    }                                                                                          \
    void cs_mlkem_sample_noise_##SFX(cs_mlkem_poly *r, unsigned n, unsigned n1, unsigned eta1, \
                                     unsigned eta2, const uint8_t seed[32], uint8_t nonce)     \
    {                                                                                          \
        sample_noise(&KECCAK, r, n, n1, eta1, eta2, seed, nonce, NULL);                        \
    }

SAMPLER_ENTRIES(avx2, cs_keccak_avx2, cs_mlkem_rej_uniform_avx2)
/* The same on the AVX-512 Keccak table (8-way and 8+1-way permutations). */
SAMPLER_ENTRIES(avx512, cs_keccak_avx512, cs_mlkem_rej_uniform_avx512)
