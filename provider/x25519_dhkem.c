/* DHKEM(X25519, HKDF-SHA256) DeriveKeyPair (RFC 9180 7.1.3), the private
 * key stock's X25519 key generation makes from a "dhkem-ikm" parameter
 * (HPKE's deterministic key pairs). HMAC-SHA256 is libcrypto's own. */
#include <string.h>

#include "ecx.h"

/* "HPKE-v1" || "KEM" || I2OSP(0x0020, 2): RFC 9180's labels' prefix. */
static const uint8_t label_prefix[] = {'H', 'P', 'K', 'E', '-', 'v', '1', 'K', 'E', 'M', 0x00, 0x20};

/* out = HMAC-SHA256(key, a || b || c), a and b short labels. */
static int hmac3(const cs_prov *prov, uint8_t out[32], const uint8_t *key, size_t keylen,
                 const uint8_t *a, size_t alen, const void *b, size_t blen, const uint8_t *c,
                 size_t clen)
{
    uint8_t buf[2 + sizeof label_prefix + 16 + 512];
    size_t n = 0, outlen = 0;
    if (alen + sizeof label_prefix + blen + clen > sizeof buf || !prov->q_mac)
        return 0;
    if (alen)
        memcpy(buf + n, a, alen), n += alen;
    memcpy(buf + n, label_prefix, sizeof label_prefix), n += sizeof label_prefix;
    memcpy(buf + n, b, blen), n += blen;
    if (clen)
        memcpy(buf + n, c, clen), n += clen;
    int ok = prov->q_mac(prov->libctx, "HMAC", NULL, "SHA256", NULL, key, keylen, buf, n, out,
                         32, &outlen) != NULL &&
             outlen == 32;
    cs_prov_cleanse(buf, sizeof buf);
    return ok;
}

int cs_x25519_dhkem_derive(const cs_prov *prov, uint8_t priv[32], const uint8_t *ikm,
                           size_t ikmlen)
{
    static const uint8_t zero_salt[32];
    static const uint8_t okmlen_sk[2] = {0, 32};
    uint8_t prk[32], t1[32];
    if (ikmlen < 32) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_INPUT_LENGTH,
                 "ikm length is :%zu, should be at least %zu", ikmlen, (size_t)32);
        return 0;
    }
    /* LabeledExtract("", "dkp_prk", ikm) = HMAC(salt of zeros, labeled ikm) */
    int ok = hmac3(prov, prk, zero_salt, sizeof zero_salt, NULL, 0, "dkp_prk", 7, ikm, ikmlen);
    /* LabeledExpand(prk, "sk", "", 32): the first HKDF-Expand block, T(1) */
    static const uint8_t one = 1;
    uint8_t info[2 + 2];
    memcpy(info, "sk", 2);
    info[2] = one;
    ok = ok && hmac3(prov, t1, prk, sizeof prk, okmlen_sk, 2, info, 3, NULL, 0);
    if (ok)
        memcpy(priv, t1, 32);
    cs_prov_cleanse(prk, sizeof prk);
    cs_prov_cleanse(t1, sizeof t1);
    return ok;
}
