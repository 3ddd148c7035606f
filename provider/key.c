/* The provider key skeleton (provider/key.h): one key struct and the
 * keymgmt functions every family shares; what differs between families
 * comes from its cs_key_hooks. */
#include <stdlib.h>
#include <string.h>

#include "key.h"

const OSSL_PARAM cs_key_types_seed_priv_pub[] = {CS_KEY_P_SEED_PRIV_PUB, OSSL_PARAM_END};

const OSSL_PARAM cs_key_gen_seed_properties[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM *cs_key_params_for(const cs_prov *prov, const cs_key_params *l)
{
    static const OSSL_PARAM none[] = {OSSL_PARAM_END};
    if (l->before && !(prov && prov->core_version >= l->since))
        return l->before;
    return l->from ? l->from : none;
}

cs_key *cs_key_new(cs_prov *prov, const cs_key_hooks *hooks)
{
    cs_key *key = calloc(1, sizeof(*key) + hooks->pub_bytes);
    if (key) {
        key->prov = prov;
        key->hooks = hooks;
        key->refs = 1;
    }
    return key;
}

void cs_key_up_ref(cs_key *key)
{
    if (key)
        __atomic_add_fetch(&key->refs, 1, __ATOMIC_RELAXED);
}

void *cs_opctx_new(void *provctx, size_t size)
{
    cs_prov **ctx = calloc(1, size);
    if (ctx)
        *ctx = provctx;
    return ctx;
}

void *cs_opctx_dup(const void *ctx, size_t size)
{
    void *dst = malloc(size);
    if (dst)
        memcpy(dst, ctx, size);
    return dst;
}

void cs_opctx_free(void *ctx, size_t size)
{
    if (!ctx)
        return;
    cs_prov_cleanse(ctx, size);
    free(ctx);
}

/* Bytes of the key's secret block. */
static size_t secret_bytes(const cs_key_hooks *h)
{
    return h->seed_bytes + h->priv_bytes;
}

int cs_key_secret(cs_key *key)
{
    if (!key->secret) {
        key->secret = cs_prov_secret_alloc(key->prov, secret_bytes(key->hooks));
        if (!key->secret)
            return 0;
        key->seed = key->hooks->seed_bytes ? key->secret : NULL;
        key->priv = key->secret + key->hooks->seed_bytes;
    }
    return 1;
}

/* Frees both prepared forms (the family wipes a private one). */
static void drop_prepared(cs_key *key)
{
    for (int slot = 0; slot < 2; slot++) {
        void *pr = __atomic_exchange_n(&key->prep[slot], NULL, __ATOMIC_ACQ_REL);
        if (pr && key->hooks->unprepare)
            key->hooks->unprepare(key, pr, slot);
    }
}

void cs_key_seed_derived(cs_key *key, int retain_flag)
{
    key->has_seed = key->has_priv = key->has_pub = 1;
    if (key->prov->core_version < 400 && !(cs_prov_conf(key->prov) & retain_flag)) {
        cs_prov_cleanse(key->seed, key->hooks->seed_bytes);
        key->has_seed = 0;
    }
}

void cs_key_reset(cs_key *key)
{
    key->has_pub = key->has_priv = key->has_seed = 0;
    drop_prepared(key);
    if (key->secret)
        cs_prov_cleanse(key->secret, secret_bytes(key->hooks));
    memset(key->pub, 0, key->hooks->pub_bytes);
}

void cs_key_free(cs_key *key)
{
    if (!key || __atomic_sub_fetch(&key->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    drop_prepared(key);
    cs_prov_secret_free(key->prov, key->secret, secret_bytes(key->hooks));
    free(key);
}

void cs_key_kmfree(void *vkey)
{
    cs_key_free(vkey);
}

void *cs_key_prepared(cs_key *key, int slot)
{
    void *pr = __atomic_load_n(&key->prep[slot], __ATOMIC_ACQUIRE);
    if (pr || !key->hooks->prepare)
        return pr;
    void *mine = key->hooks->prepare(key, slot);
    if (!mine)
        return NULL;
    void *expected = NULL;
    if (__atomic_compare_exchange_n(&key->prep[slot], &expected, mine, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return mine;
    key->hooks->unprepare(key, mine, slot); /* another thread published first */
    return expected;
}

int cs_key_part_len_ok(const cs_prov *prov, const cs_key_part *part, size_t want, int reason)
{
    if (!part->given || part->len == want)
        return 1;
    if (reason)
        CS_RAISE(prov, CS_LIB_PROV, reason, NULL);
    return 0;
}

/* Reads one part (absent: not given). 0 when present with a type that is
 * no octet string (error raised by the param helper). */
static int read_part(const cs_prov *prov, const OSSL_PARAM *params, const char *name,
                     cs_key_part *part)
{
    const OSSL_PARAM *p = cs_param_locate(params, name);
    const void *d = NULL;
    part->given = p != NULL;
    part->data = NULL;
    part->len = 0;
    if (!p)
        return 1;
    if (!cs_param_get_octets_ptr(prov, p, &d, &part->len))
        return 0;
    part->data = d;
    return 1;
}

int cs_key_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    cs_key *key = vkey;
    cs_key_parts parts;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    int include_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    memset(&parts, 0, sizeof parts);
    parts.params = params;
    if (key->hooks->flags & CS_KEY_RAW_PARTS)
        goto family;
    if (!read_part(key->prov, params, CS_P_PUB, &parts.pub))
        return 0;
    if (include_private) {
        if (key->hooks->seed_bytes && !read_part(key->prov, params, CS_P_SEED, &parts.seed))
            return 0;
        if (!read_part(key->prov, params, CS_P_PRIV, &parts.priv))
            return 0;
    }
family:
    drop_prepared(key); /* made from the material replaced here */
    int ok = key->hooks->import(key, &parts, include_private);
    if (!ok)
        cs_key_reset(key);
    return ok;
}

/* Appends the public key to params[*n] when the selection or the family
 * asks for it. */
static void export_pub(const cs_key *key, int selection, OSSL_PARAM *params, int *n)
{
    const cs_key_hooks *h = key->hooks;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) || (h->flags & CS_KEY_EXPORT_PUB_ALWAYS)) {
        if (key->has_pub || (h->flags & CS_KEY_EXPORT_PUB_ALWAYS))
            params[(*n)++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PUB, (void *)key->pub,
                                                                 h->pub_bytes);
    }
}

int cs_key_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    cs_key *key = vkey;
    OSSL_PARAM params[4];
    int n = 0;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    const cs_key_hooks *h = key->hooks;
    if (h->export_refused && h->export_refused(key, selection))
        return 0;
    if (!(h->flags & CS_KEY_EXPORT_PRIV_FIRST))
        export_pub(key, selection, params, &n);
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        if (key->has_seed && h->seed_bytes)
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_SEED, key->seed, h->seed_bytes);
        if (key->has_priv && !(h->export_seed_only && key->has_seed && h->export_seed_only(key)))
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PRIV, key->priv, h->priv_bytes);
    }
    if (h->flags & CS_KEY_EXPORT_PRIV_FIRST)
        export_pub(key, selection, params, &n);
    if (n == 0)
        return 0;
    params[n] = (OSSL_PARAM)OSSL_PARAM_END;
    return cb(params, cbarg);
}

int cs_key_has(const void *vkey, int selection)
{
    const cs_key *key = vkey;
    if (!key)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && !key->has_pub)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !key->has_priv)
        return 0;
    return 1;
}

/* ECX's rule (the default): see cs_key_hooks.match. */
static int match_default(const cs_key *a, const cs_key *b, int selection)
{
    int same = a->hooks == b->hooks;
    if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) && !same)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && a->has_pub && b->has_pub)
        return same && memcmp(a->pub, b->pub, a->hooks->pub_bytes) == 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && a->has_priv && b->has_priv)
        return same && cs_prov_ct_equal(a->priv, b->priv, a->hooks->priv_bytes);
    return 0;
}

int cs_key_match(const void *v1, const void *v2, int selection)
{
    const cs_key *a = v1, *b = v2;
    if (!a || !b)
        return 0;
    if (a->hooks->match)
        return a->hooks->match(a, b, selection);
    return match_default(a, b, selection);
}

/* Recomputes the public key from the private one and compares. */
static int pairwise_default(const cs_key *key)
{
    cs_key *tmp = cs_key_new(key->prov, key->hooks);
    int ok = 0;
    if (tmp && cs_key_secret(tmp)) {
        memcpy(tmp->priv, key->priv, key->hooks->priv_bytes);
        tmp->has_priv = 1;
        ok = key->hooks->pub_from_priv(tmp) &&
             cs_prov_ct_equal(tmp->pub, key->pub, key->hooks->pub_bytes);
    }
    cs_key_free(tmp);
    return ok;
}

int cs_key_validate(const void *vkey, int selection, int checktype)
{
    const cs_key *key = vkey;
    (void)checktype;
    if (!key)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (!cs_key_has(key, selection))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != OSSL_KEYMGMT_SELECT_KEYPAIR)
        return 1;
    return key->hooks->pairwise ? key->hooks->pairwise(key) : pairwise_default(key);
}

int cs_key_get_params(void *vkey, OSSL_PARAM params[])
{
    cs_key *key = vkey;
    OSSL_PARAM *p;
    if (!key)
        return 0;
    const cs_key_hooks *h = key->hooks;
    /* OpenSSL's param setters raise errors from 3.2 on (served: 3.5+);
     * 3.0's fail silently: no core, no error */
    const cs_prov *prov = key->prov->core_version >= 305 ? key->prov : NULL;
    if ((p = cs_param_locate_mut(params, CS_P_BITS)) && !cs_param_set_int(prov, p, h->bits))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_SECURITY_BITS)) &&
        !cs_param_set_int(prov, p, h->sec_bits))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_MAX_SIZE)) && !cs_param_set_int(prov, p, h->max_size))
        return 0;
    if (h->sec_category_since && key->prov->core_version >= h->sec_category_since &&
        (p = cs_param_locate_mut(params, CS_P_SECURITY_CATEGORY)) &&
        !cs_param_set_int(prov, p, h->sec_category))
        return 0;
    if (!(h->flags & CS_KEY_P_OWN_MATERIAL)) {
        int pub_always = (h->flags & CS_KEY_EXPORT_PUB_ALWAYS) != 0;
        if ((h->flags & CS_KEY_P_ENCODED_PUB) && (key->has_pub || pub_always) &&
            (p = cs_param_locate_mut(params, CS_P_ENCODED_PUB_KEY)) &&
            !cs_param_set_octets(prov, p, key->pub, h->pub_bytes))
            return 0;
        if ((key->has_pub || pub_always) && (p = cs_param_locate_mut(params, CS_P_PUB)) &&
            !cs_param_set_octets(prov, p, key->pub, h->pub_bytes))
            return 0;
        if (key->has_priv && (p = cs_param_locate_mut(params, CS_P_PRIV)) &&
            !cs_param_set_octets(prov, p, key->priv, h->priv_bytes))
            return 0;
        if (key->has_seed && h->seed_bytes && (p = cs_param_locate_mut(params, CS_P_SEED)) &&
            !cs_param_set_octets(prov, p, key->seed, h->seed_bytes))
            return 0;
    }
    if ((h->flags & CS_KEY_P_MAND_DIGEST) &&
        (p = cs_param_locate_mut(params, CS_P_MANDATORY_DIGEST)) && !cs_param_set_utf8(prov, p, ""))
        return 0;
    return h->get_params ? h->get_params(key, params) : 1;
}

int cs_key_set_params(void *vkey, const OSSL_PARAM params[])
{
    cs_key *key = vkey;
    if (!key)
        return 0;
    return key->hooks->set_params ? key->hooks->set_params(key, params) : 1;
}

void *cs_key_dup(const void *vsrc, int selection)
{
    const cs_key *src = vsrc;
    cs_key *key = src ? cs_key_new(src->prov, src->hooks) : NULL;
    if (!key)
        return NULL;
    const cs_key_hooks *h = src->hooks;
    if (((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) ||
         ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && (h->flags & CS_KEY_DUP_PRIV_WITH_PUB))) &&
        src->has_pub) {
        memcpy(key->pub, src->pub, h->pub_bytes);
        key->has_pub = 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && src->has_priv) {
        if (!cs_key_secret(key)) {
            cs_key_free(key);
            return NULL;
        }
        memcpy(key->secret, src->secret, secret_bytes(h));
        key->has_priv = 1;
        key->has_seed = src->has_seed;
    }
    return key;
}

void *cs_key_gen_init(cs_prov *prov, const cs_key_hooks *hooks, int selection,
                      const OSSL_PARAM params[])
{
    cs_key_gen *g = cs_prov_secret_alloc(prov, sizeof(*g));
    if (!g)
        return NULL;
    g->prov = prov;
    g->hooks = hooks;
    g->selection = selection;
    if (!hooks->gen_set_params(g, params)) {
        cs_key_gen_cleanup(g);
        return NULL;
    }
    return g;
}

int cs_key_gen_set_params(void *vgen, const OSSL_PARAM params[])
{
    cs_key_gen *g = vgen;
    return g ? g->hooks->gen_set_params(g, params) : 0;
}

void cs_key_gen_cleanup(void *vgen)
{
    cs_key_gen *g = vgen;
    if (g)
        cs_prov_secret_free(g->prov, g, sizeof *g);
}

void *cs_key_generate(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
    cs_key_gen *g = vgen;
    (void)cb;
    (void)cbarg;
    cs_key *key = g ? cs_key_new(g->prov, g->hooks) : NULL;
    if (!key)
        return NULL;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0 && (g->hooks->flags & CS_KEY_GEN_EMPTY))
        return key;
    if (!cs_key_secret(key) || !g->hooks->gen(key, g)) {
        cs_key_free(key);
        return NULL;
    }
    return key;
}

const char *cs_key_opname(const cs_key_hooks *hooks)
{
    return hooks->opname;
}
