/* Sweeps the ways an ML-KEM or ML-DSA key enters and leaves a provider and
 * prints one line per point, so a run on stock OpenSSL and a run with the
 * shim preloaded compare line by line (tests/bats/mlkem_keys.bats,
 * tests/bats/mldsa_keys.bats):
 *     ALG NAME rc=R err=LIB:REASON[,LIB:REASON...]|none [key=...]
 * err lists every error left on the queue, oldest first (ERR_peek_error's
 * first); key= describes a key made: which of seed/priv/pub get_params
 * gives and a hash of each, a hash of EVP_PKEY_todata's parameter names and
 * values, and a hash of the DER the default provider's encoders write for
 * it (PrivateKeyInfo, or SubjectPublicKeyInfo for a public key).
 * Groups:
 *   sweep   EVP_PKEY_fromdata of every combination of seed, private key and
 *           public key, each absent, consistent or inconsistent in one way,
 *           with a key-pair and a public-key selection;
 *   decode  PKCS#8 (seed-only, priv-only, seed-priv with each inconsistency)
 *           read with OSSL_DECODER;
 *   gen     generation from a seed and from fresh randomness, dup, encoders.
 * The provider configuration (OPENSSL_CONF: ml-kem.prefer_seed, retain_seed,
 * import_pct_type, output_formats, ml-dsa.*) is the caller's. Lines starting
 * "#" say who served what. Usage: DRIVER ALG GROUP|all SEED. Built against the
 * system's 3.0 headers; run on 3.5, 3.6 or 4.0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "pq_driver.h"

#define MAXPRIV 4896 /* ML-DSA-87 sk */
#define MAXPUB 2592  /* ML-DSA-87 pk */

static const char *alg;
static int is_kem;
static size_t seedb, privb, pubb;
static int rank; /* ML-KEM k */
static unsigned oid_last; /* last arc of the algorithm's OID */

/* ---- describing a key ---------------------------------------------------- */

/* Hash of the DER the encoders write for key (structure PrivateKeyInfo with
 * a key-pair selection, SubjectPublicKeyInfo otherwise), its length in *n. */
static unsigned long long der_hash(EVP_PKEY *key, int priv, size_t *n)
{
    unsigned char *der = NULL;
    size_t len = 0;
    unsigned long long h = 0;
    OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(
        key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, "DER",
        priv ? "PrivateKeyInfo" : "SubjectPublicKeyInfo", NULL);
    *n = 0;
    if (e && OSSL_ENCODER_to_data(e, &der, &len) == 1) {
        h = fnv(FNV0, der, len);
        *n = len;
    }
    OPENSSL_free(der);
    OSSL_ENCODER_CTX_free(e);
    return h;
}

/* Hash of EVP_PKEY_todata(selection): every parameter's name and value. */
static unsigned long long todata_hash(EVP_PKEY *key, int selection, char *names, size_t cap)
{
    OSSL_PARAM *ps = NULL;
    unsigned long long h = FNV0;
    names[0] = 0;
    if (EVP_PKEY_todata(key, selection, &ps) != 1)
        return 0;
    for (const OSSL_PARAM *p = ps; p->key; p++) {
        h = fnv(h, p->key, strlen(p->key) + 1);
        h = fnv(h, p->data, p->data_size);
        size_t l = strlen(names);
        snprintf(names + l, cap - l, "%s%c", l ? "+" : "", p->key[0]);
    }
    OSSL_PARAM_free(ps);
    return h;
}

/* Appends " key=..." for a key made by a point (nothing for NULL). */
static void describe(char *out, size_t cap, EVP_PKEY *key)
{
    static unsigned char buf[MAXPRIV];
    static const char *const parts[] = {"seed", "priv", "pub"};
    char names[32];
    size_t l = 0, n;
    if (!key)
        return;
    l += snprintf(out + l, cap - l, " key=");
    for (int i = 0; i < 3; i++) {
        n = get_octets(key, parts[i], buf, sizeof buf);
        if (n)
            l += snprintf(out + l, cap - l, "%c%04llx", parts[i][0],
                          fnv(FNV0, buf, n) & 0xffff);
        else
            l += snprintf(out + l, cap - l, "%c-", parts[i][0]);
    }
    int priv = EVP_PKEY_get_octet_string_param(key, "priv", NULL, 0, &n) == 1 && n;
    unsigned long long t = todata_hash(key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                                       names, sizeof names);
    l += snprintf(out + l, cap - l, ",todata=%s:%04llx", names, t & 0xffff);
    unsigned long long d = der_hash(key, priv, &n);
    snprintf(out + l, cap - l, ",der=%zu:%08llx", n, d & 0xffffffffULL);
}

/* Prints one point's line (every error on the queue) and clears the queue. */
static void point_key(const char *name, int rc, EVP_PKEY *key)
{
    char errs[160] = "none", desc[200] = "";
    size_t l = 0;
    unsigned long e;
    /* describe() may itself leave errors: take the point's first */
    while ((e = ERR_get_error()) != 0 && l < sizeof errs - 16)
        l += snprintf(errs + l, sizeof errs - l, "%s%d:%d", l ? "," : "", ERR_GET_LIB(e),
                      ERR_GET_REASON(e));
    describe(desc, sizeof desc, key);
    printf("%s %s rc=%d err=%s%s\n", alg, name, rc > 0 ? 1 : 0, errs, desc);
    ERR_clear_error();
}

/* ---- making keys --------------------------------------------------------- */

/* A key from its seed through keygen's "seed" parameter (NULL: random),
 * and EVP_PKEY_fromdata of up to three parts of full length (NULL: absent). */
static EVP_PKEY *keygen(const unsigned char *seed, size_t seedlen)
{
    return pq_keygen(alg, seed, seedlen);
}

static EVP_PKEY *fromdata(int selection, const unsigned char *seed, const unsigned char *priv,
                          const unsigned char *pub)
{
    return pq_fromdata(alg, selection, seed, seedb, priv, privb, pub, pubb);
}

/* ---- the variants of each part ------------------------------------------- */

/* One variant of a key part: its name and bytes (NULL: absent). */
typedef struct variant {
    const char *name;
    unsigned char *v;
} variant;

#define MAXV 14
static unsigned char vbuf[3][MAXV][MAXPRIV];
static variant seeds[MAXV], privs[MAXV], pubs[MAXV];
static int nseeds, nprivs, npubs;

/* Adds a variant of part (0 seed, 1 priv, 2 pub) copied from src. */
static unsigned char *add(int part, const char *name, const unsigned char *src)
{
    variant *list = part == 0 ? seeds : part == 1 ? privs : pubs;
    int *n = part == 0 ? &nseeds : part == 1 ? &nprivs : &npubs;
    size_t len = part == 0 ? seedb : part == 1 ? privb : pubb;
    list[*n].name = name;
    list[*n].v = src ? memcpy(vbuf[part][*n], src, len) : NULL;
    return list[(*n)++].v;
}

/* ML-KEM: dk = s (384k) || ek || H(ek) || z. */
static void kem_variants(const unsigned char *sa, const unsigned char *dka, const unsigned char *eka,
                         const unsigned char *sb, const unsigned char *dkb_, const unsigned char *ekb_)
{
    size_t sbytes = 384 * (size_t)rank, hoff = privb - 64, zoff = privb - 32;
    unsigned char *p;
    add(0, "none", NULL);
    add(0, "good", sa);
    add(0, "other", sb);
    p = add(0, "z.other", sa); /* d of this key, z of the other */
    memcpy(p + 32, sb + 32, 32);
    p = add(0, "d.other", sb); /* d of the other, z of this key */
    memcpy(p + 32, sa + 32, 32);

    add(1, "none", NULL);
    add(1, "good", dka);
    p = add(1, "s.first+1", dka); /* s changed in range; ek, H(ek), z untouched */
    set_coeff(p, 0, (get_coeff(p, 0) + 1) % 3329);
    p = add(1, "s.last+1", dka);
    set_coeff(p, 256 * (size_t)rank - 1, (get_coeff(p, 256 * (size_t)rank - 1) + 1) % 3329);
    p = add(1, "s.first=q", dka);
    set_coeff(p, 0, 3329);
    p = add(1, "s.other", dka); /* the other key's s */
    memcpy(p, dkb_, sbytes);
    p = add(1, "h.flip", dka);
    p[hoff] ^= 1;
    p = add(1, "z.flip", dka);
    p[zoff + 31] ^= 0x80;
    p = add(1, "ek.other", dka); /* the other key's ek, this key's H(ek) */
    memcpy(p + sbytes, ekb_, pubb);
    p = add(1, "ek.t=q", dka);
    set_coeff(p + sbytes, 0, 3329);
    add(1, "other", dkb_);
    p = add(1, "other.z", dkb_); /* the other key with this key's z */
    memcpy(p + zoff, dka + zoff, 32);

    add(2, "none", NULL);
    add(2, "good", eka);
    add(2, "other", ekb_);
    p = add(2, "t=q", eka);
    set_coeff(p, 0, 3329);
    p = add(2, "rho.flip", eka);
    p[pubb - 1] ^= 1;
}

/* ML-DSA: sk = rho (32) || K (32) || tr (64) || s1 || s2 || t0 (416 k). */
static void dsa_variants(const unsigned char *sa, const unsigned char *ska, const unsigned char *pka,
                         const unsigned char *sb, const unsigned char *skb, const unsigned char *pkb)
{
    unsigned char *p;
    add(0, "none", NULL);
    add(0, "good", sa);
    add(0, "other", sb);

    add(1, "none", NULL);
    add(1, "good", ska);
    p = add(1, "rho.flip", ska);
    p[0] ^= 1;
    p = add(1, "K.flip", ska);
    p[32] ^= 1;
    p = add(1, "tr.flip", ska);
    p[64] ^= 1;
    p = add(1, "s1.range", ska); /* first coefficients of s1 out of [-eta, eta] */
    p[128] = 0xff;
    p = add(1, "t0.flip", ska);
    p[privb - 1] ^= 1;
    add(1, "other", skb);

    add(2, "none", NULL);
    add(2, "good", pka);
    add(2, "other", pkb);
    p = add(2, "t1.flip", pka);
    p[pubb - 1] ^= 1;
}

/* Two keys from seeds of the run, and the variants of their parts. */
static void make_variants(void)
{
    unsigned char sa[64], sb[64], pa[MAXPRIV], pb[MAXPRIV], ua[MAXPUB], ub[MAXPUB];
    rnd(sa, seedb);
    rnd(sb, seedb);
    EVP_PKEY *a = keygen(sa, seedb), *b = keygen(sb, seedb);
    driver_provider(a, "keygen");
    if (get_octets(a, "priv", pa, sizeof pa) != privb || get_octets(b, "priv", pb, sizeof pb) != privb ||
        get_octets(a, "pub", ua, sizeof ua) != pubb || get_octets(b, "pub", ub, sizeof ub) != pubb) {
        printf("%s setup rc=0 (no keys from seeds)\n", alg);
        exit(1);
    }
    if (is_kem)
        kem_variants(sa, pa, ua, sb, pb, ub);
    else
        dsa_variants(sa, pa, ua, sb, pb, ub);
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

/* ---- groups ------------------------------------------------------------ */

/* Every combination of seed, priv and pub variants, imported with a
 * key-pair and with a public-key selection. */
static void group_sweep(void)
{
    static const struct {
        const char *name;
        int selection;
    } sels[] = {{"kp", EVP_PKEY_KEYPAIR}, {"pub", EVP_PKEY_PUBLIC_KEY}};
    char name[128];
    int served = 0;
    for (size_t s = 0; s < 2; s++)
        for (int i = 0; i < nseeds; i++)
            for (int j = 0; j < nprivs; j++)
                for (int l = 0; l < npubs; l++) {
                    EVP_PKEY *key = fromdata(sels[s].selection, seeds[i].v, privs[j].v, pubs[l].v);
                    if (key && !served++)
                        driver_provider(key, "fromdata");
                    snprintf(name, sizeof name, "sweep.%s.seed=%s.priv=%s.pub=%s", sels[s].name,
                             seeds[i].name, privs[j].name, pubs[l].name);
                    point_key(name, key != NULL, key);
                    EVP_PKEY_free(key);
                }
}

/* DER length octets for n into out: their count. */
static size_t der_len(unsigned char *out, size_t n)
{
    if (n < 128) {
        out[0] = (unsigned char)n;
        return 1;
    }
    if (n < 256) {
        out[0] = 0x81;
        out[1] = (unsigned char)n;
        return 2;
    }
    out[0] = 0x82;
    out[1] = (unsigned char)(n >> 8);
    out[2] = (unsigned char)n;
    return 3;
}

/* A DER TLV of tag and the n bytes v at out: its length. */
static size_t tlv(unsigned char *out, unsigned tag, const unsigned char *v, size_t n)
{
    size_t l = 1 + der_len(out + 1, n);
    out[0] = (unsigned char)tag;
    memmove(out + l, v, n);
    return l + n;
}

/* PKCS#8 PrivateKeyInfo of the algorithm holding inner (the private key
 * CHOICE: [0] seed, OCTET STRING priv, or SEQUENCE { seed, priv }). */
static size_t pkcs8(unsigned char *out, const unsigned char *inner, size_t n)
{
    unsigned char body[MAXPRIV + 256];
    unsigned char algid[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
                             0x03, 0x04, (unsigned char)(is_kem ? 4 : 3), (unsigned char)oid_last};
    size_t l = 0;
    body[l++] = 0x02, body[l++] = 0x01, body[l++] = 0x00;
    memcpy(body + l, algid, sizeof algid);
    l += sizeof algid;
    l += tlv(body + l, 0x04, inner, n);
    return tlv(out, 0x30, body, l);
}

/* Decodes DER PrivateKeyInfo with the decoders of the default properties. */
static EVP_PKEY *decode(const unsigned char *der, size_t n)
{
    EVP_PKEY *key = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&key, "DER", "PrivateKeyInfo", alg,
                                                        EVP_PKEY_KEYPAIR, NULL, NULL);
    const unsigned char *p = der;
    if (d && OSSL_DECODER_from_data(d, &p, &n) != 1) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    return key;
}

/* PKCS#8 files of each shape: seed only, priv only, and seed with priv for
 * every (seed, priv) variant pair present. */
static void group_decode(void)
{
    static unsigned char inner[MAXPRIV + 128], pair[MAXPRIV + 128], der[MAXPRIV + 256];
    char name[128];
    int served = 0;
    for (int i = 0; i < nseeds; i++)
        for (int j = 0; j < nprivs; j++) {
            size_t n = 0;
            if (!seeds[i].v && !privs[j].v)
                continue;
            if (seeds[i].v && privs[j].v) {
                size_t m = tlv(pair, 0x04, seeds[i].v, seedb);
                m += tlv(pair + m, 0x04, privs[j].v, privb);
                n = tlv(inner, 0x30, pair, m);
            } else if (seeds[i].v) {
                n = tlv(inner, 0x80, seeds[i].v, seedb);
            } else {
                n = tlv(inner, 0x04, privs[j].v, privb);
            }
            size_t dn = pkcs8(der, inner, n);
            EVP_PKEY *key = decode(der, dn);
            if (key && !served++)
                driver_provider(key, "decode");
            snprintf(name, sizeof name, "decode.seed=%s.priv=%s", seeds[i].name, privs[j].name);
            point_key(name, key != NULL, key);
            EVP_PKEY_free(key);
        }
}

/* Generation from a seed (its key, a dup, a public-only dup) and from fresh
 * randomness (which parts it holds and the DER's length only). */
static void group_gen(void)
{
    unsigned char seed[64];
    char name[64];
    for (int i = 0; i < 3; i++) {
        rnd(seed, seedb);
        EVP_PKEY *key = keygen(seed, seedb);
        if (i == 0)
            driver_provider(key, "keygen");
        snprintf(name, sizeof name, "gen.%d.seed", i);
        point_key(name, key != NULL, key);
        EVP_PKEY *d = key ? EVP_PKEY_dup(key) : NULL;
        snprintf(name, sizeof name, "gen.%d.dup", i);
        point_key(name, d != NULL, d);
        EVP_PKEY_free(d);
        EVP_PKEY_free(key);
    }
    EVP_PKEY *key = keygen(NULL, 0);
    static unsigned char buf[MAXPRIV];
    size_t n;
    printf("%s gen.random rc=%d parts=%c%c%c", alg, key != NULL,
           get_octets(key, "seed", buf, sizeof buf) ? 's' : '-',
           get_octets(key, "priv", buf, sizeof buf) ? 'p' : '-',
           get_octets(key, "pub", buf, sizeof buf) ? 'u' : '-');
    der_hash(key, 1, &n);
    printf(" der=%zu\n", n);
    ERR_clear_error();
    EVP_PKEY_free(key);
}

int main(int argc, char **argv)
{
    if (!driver_args(argc, argv, 4, "ALG sweep|decode|gen|all SEED"))
        return 2;
    alg = argv[1];
    int ps = atoi(strrchr(alg, '-') ? strrchr(alg, '-') + 1 : "0");
    is_kem = !strncmp(alg, "ML-KEM-", 7);
    if (is_kem) {
        rank = ps / 256;
        seedb = 64;
        pubb = 384 * (size_t)rank + 32;
        privb = 384 * (size_t)rank + pubb + 64;
        oid_last = rank == 2 ? 1 : rank == 3 ? 2 : 3;
    } else {
        static const size_t sk[] = {2560, 4032, 4896}, pk[] = {1312, 1952, 2592};
        int i = ps == 44 ? 0 : ps == 65 ? 1 : ps == 87 ? 2 : -1;
        if (i < 0) {
            fprintf(stderr, "unknown algorithm %s\n", alg);
            return 2;
        }
        seedb = 32;
        privb = sk[i];
        pubb = pk[i];
        oid_last = 17 + (unsigned)i;
    }
    rng_state = strtoull(argv[3], NULL, 10) * 2 + 1 + (uint64_t)ps;
    make_variants();
    int all = !strcmp(argv[2], "all");
    if (all || !strcmp(argv[2], "sweep"))
        group_sweep();
    if (all || !strcmp(argv[2], "decode"))
        group_decode();
    if (all || !strcmp(argv[2], "gen"))
        group_gen();
    if (!all && strcmp(argv[2], "sweep") && strcmp(argv[2], "decode") && strcmp(argv[2], "gen")) {
        fprintf(stderr, "unknown group %s\n", argv[2]);
        return 2;
    }
    return 0;
}
