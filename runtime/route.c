/* Route detection: every libcrypto in the link map, read in memory. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "family.h"
#include "stats.h"
#include "route.h"

#if __ELF_NATIVE_CLASS == 64
#define R_SYMIDX(info) ELF64_R_SYM(info)
#else
#define R_SYMIDX(info) ELF32_R_SYM(info)
#endif

static int forced_method;

void cs_route_set_forced_method(int on) { forced_method = on; }
int cs_route_forced_method(void) { return forced_method; }

const char *cs_route_kind_name(cs_route_kind k)
{
    return k == CS_ROUTE_SYMBOLS ? "symbols" : k == CS_ROUTE_METHOD ? "method" : "none";
}

/* One loaded object's dynamic section, pointers made absolute. */
struct dynobj {
    uintptr_t base;
    const char *name;
    const ElfW(Sym) *symtab;
    const char *strtab;
    const uint32_t *gnu_hash, *sysv_hash;
    const ElfW(Half) *versym;
    const ElfW(Verdef) *verdef;
    const ElfW(Verneed) *verneed;
    size_t verdefnum, verneednum;
    const void *rela, *jmprel;
    size_t relasz, jmprelsz;
    size_t relcount; /* leading relative relocations in rela (no symbol) */
    int rel_is_rela, plt_is_rela;
    int symbolic;
};

/* glibc rewrites some d_ptr values to absolute addresses in place and leaves
 * others as offsets: an offset is below the load address, an address not. */
static const void *abs_ptr(uintptr_t base, ElfW(Addr) v)
{
    return (const void *)(v < base ? base + v : v);
}

static int read_dynamic(struct dl_phdr_info *info, struct dynobj *o)
{
    const ElfW(Dyn) *dyn = NULL;
    memset(o, 0, sizeof *o);
    o->base = info->dlpi_addr;
    o->name = info->dlpi_name;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!dyn)
        return 0;
    uintptr_t b = o->base;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: o->symtab = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_STRTAB: o->strtab = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_GNU_HASH: o->gnu_hash = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_HASH: o->sysv_hash = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_VERSYM: o->versym = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_VERDEF: o->verdef = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_VERDEFNUM: o->verdefnum = dyn->d_un.d_val; break;
        case DT_VERNEED: o->verneed = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_VERNEEDNUM: o->verneednum = dyn->d_un.d_val; break;
        case DT_RELA: o->rela = abs_ptr(b, dyn->d_un.d_ptr); o->rel_is_rela = 1; break;
        case DT_RELASZ: o->relasz = dyn->d_un.d_val; break;
        case DT_REL: o->rela = abs_ptr(b, dyn->d_un.d_ptr); o->rel_is_rela = 0; break;
        case DT_RELSZ: o->relasz = dyn->d_un.d_val; break;
        case DT_RELACOUNT: case DT_RELCOUNT: o->relcount = dyn->d_un.d_val; break;
        case DT_JMPREL: o->jmprel = abs_ptr(b, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: o->jmprelsz = dyn->d_un.d_val; break;
        case DT_PLTREL: o->plt_is_rela = dyn->d_un.d_val == DT_RELA; break;
        case DT_SYMBOLIC: o->symbolic = 1; break;
        case DT_FLAGS:
            if (dyn->d_un.d_val & DF_SYMBOLIC)
                o->symbolic = 1;
            break;
        }
    }
    return o->symtab && o->strtab && (o->gnu_hash || o->sysv_hash);
}

/* Name of version index ndx (from DT_VERSYM) in o, or NULL. */
static const char *version_name(const struct dynobj *o, unsigned ndx)
{
    ndx &= 0x7fff;
    if (ndx < 2)
        return NULL;
    const ElfW(Verdef) *d = o->verdef;
    for (size_t i = 0; d && i < o->verdefnum; i++) {
        if (d->vd_ndx == ndx) {
            const ElfW(Verdaux) *a = (const void *)((const char *)d + d->vd_aux);
            return o->strtab + a->vda_name;
        }
        if (!d->vd_next)
            break;
        d = (const void *)((const char *)d + d->vd_next);
    }
    const ElfW(Verneed) *n = o->verneed;
    for (size_t i = 0; n && i < o->verneednum; i++) {
        const ElfW(Vernaux) *a = (const void *)((const char *)n + n->vn_aux);
        for (unsigned j = 0; j < n->vn_cnt; j++) {
            if (a->vna_other == ndx)
                return o->strtab + a->vna_name;
            a = (const void *)((const char *)a + a->vna_next);
        }
        if (!n->vn_next)
            break;
        n = (const void *)((const char *)n + n->vn_next);
    }
    return NULL;
}

/* Whether symbol idx is name, defined here, at version (NULL: the default,
 * i.e. not hidden). Stores its version node name in *node. */
static int sym_matches(const struct dynobj *o, uint32_t idx, const char *name,
                       const char *version, const char **node)
{
    const ElfW(Sym) *s = &o->symtab[idx];
    if (s->st_shndx == SHN_UNDEF || strcmp(o->strtab + s->st_name, name))
        return 0;
    unsigned vs = o->versym ? o->versym[idx] : 1;
    const char *v = o->versym ? version_name(o, vs) : NULL;
    if (version ? !v || strcmp(v, version) : (vs & 0x8000) != 0)
        return 0;
    *node = v;
    return 1;
}

/* A symbol name with its GNU and SysV hashes, computed once per name rather
 * than once per loaded object searched. */
struct symname {
    const char *name;
    uint32_t gnu, sysv;
};

static struct symname symname(const char *name)
{
    struct symname n = {name, 5381, 0};
    for (const unsigned char *c = (const void *)name; *c; c++) {
        n.gnu = n.gnu * 33 + *c;
        n.sysv = (n.sysv << 4) + *c;
        uint32_t g = n.sysv & 0xf0000000u;
        n.sysv ^= g >> 24;
        n.sysv &= ~g;
    }
    return n;
}

/* First index of o's hash chain that may hold name (GNU table: 0 when the
 * Bloom filter or the bucket rules it out), with *gnu set when it is a GNU
 * chain (walk by idx + 1 until the end bit) rather than a SysV one. */
static uint32_t chain_start(const struct dynobj *o, const struct symname *n, int *gnu)
{
    *gnu = o->gnu_hash != NULL;
    if (o->gnu_hash) {
        const uint32_t *h = o->gnu_hash;
        uint32_t nbuckets = h[0], symoffset = h[1], bloom_size = h[2], shift = h[3];
        const ElfW(Addr) *bloom = (const void *)&h[4];
        const uint32_t *buckets = (const void *)&bloom[bloom_size];
        const unsigned bits = sizeof(ElfW(Addr)) * 8;
        if (!nbuckets || !bloom_size)
            return 0;
        ElfW(Addr) word = bloom[(n->gnu / bits) & (bloom_size - 1)];
        if (!((word >> (n->gnu % bits)) & (word >> ((n->gnu >> shift) % bits)) & 1))
            return 0;
        uint32_t idx = buckets[n->gnu % nbuckets];
        return idx < symoffset ? 0 : idx;
    }
    const uint32_t *h = o->sysv_hash;
    return h[0] ? h[2 + n->sysv % h[0]] : 0;
}

/* The index after idx in its chain, or 0 at the end. */
static uint32_t chain_next(const struct dynobj *o, const struct symname *n, uint32_t idx, int gnu)
{
    if (gnu) {
        const uint32_t *h = o->gnu_hash;
        const uint32_t *chain = (const uint32_t *)((const ElfW(Addr) *)&h[4] + h[2]) + h[0];
        return chain[idx - h[1]] & 1 ? 0 : idx + 1;
    }
    return o->sysv_hash[2 + o->sysv_hash[0] + idx];
}

/* Whether chain entry idx can be name: the GNU table stores each entry's hash
 * (low bit aside), so most other names are skipped without a strcmp. */
static int chain_hash_matches(const struct dynobj *o, const struct symname *n, uint32_t idx,
                              int gnu)
{
    if (!gnu)
        return 1;
    const uint32_t *h = o->gnu_hash;
    const uint32_t *chain = (const uint32_t *)((const ElfW(Addr) *)&h[4] + h[2]) + h[0];
    return (chain[idx - h[1]] | 1) == (n->gnu | 1);
}

/* Symbol index of name@version defined in o, or 0. */
static uint32_t lookup_n(const struct dynobj *o, const struct symname *n, const char *version,
                         const char **node)
{
    int gnu;
    for (uint32_t idx = chain_start(o, n, &gnu); idx; idx = chain_next(o, n, idx, gnu))
        if (chain_hash_matches(o, n, idx, gnu) && sym_matches(o, idx, n->name, version, node))
            return idx;
    return 0;
}

/* The newest OPENSSL_* node o defines, into out. */
static void newest_node(const struct dynobj *o, char *out, size_t len)
{
    long best = -1;
    const ElfW(Verdef) *d = o->verdef;
    out[0] = 0;
    for (size_t i = 0; d && i < o->verdefnum; i++) {
        const ElfW(Verdaux) *a = (const void *)((const char *)d + d->vd_aux);
        const char *n = o->strtab + a->vda_name;
        if (!(d->vd_flags & VER_FLG_BASE) && !strncmp(n, "OPENSSL_", 8) && cs_node_rank(n) > best) {
            best = cs_node_rank(n);
            snprintf(out, len, "%s", n);
        }
        if (!d->vd_next)
            break;
        d = (const void *)((const char *)d + d->vd_next);
    }
}

/* Whether the shim exports the BN_mod_exp* entry points at this node. */
static int shim_exports_modexp_at(const char *node)
{
    return node && (!strcmp(node, "OPENSSL_3.0.0") || !strcmp(node, "OPENSSL_1_1_0"));
}

/* Whether the shim has a method-route table for this node. */
static int shim_has_methods_at(const char *node)
{
    return !strcmp(node, "OPENSSL_3.0.0") || !strcmp(node, "OPENSSL_4.0.0");
}

static int is_modexp_name(const char *n)
{
    return !strcmp(n, "BN_mod_exp_mont") || !strcmp(n, "BN_mod_exp_mont_consttime") ||
           !strcmp(n, "BN_mod_exp_mont_consttime_x2") || !strcmp(n, "BN_mod_exp2_mont");
}

static const char *const modexp_names[] = {"BN_mod_exp_mont", "BN_mod_exp_mont_consttime",
                                           "BN_mod_exp_mont_consttime_x2", "BN_mod_exp2_mont"};

/* The symbol indices in o named BN_mod_exp_mont* (any version, defined or
 * not), up to max, into idx; returns how many. Defined ones come from the
 * hash chains; the GNU table leaves undefined symbols out of its chains, so
 * those (the few below its symoffset) are compared by name. */
static int modexp_indices(const struct dynobj *o, uint32_t *idx, int max)
{
    int k = 0;
    for (size_t i = 0; i < sizeof modexp_names / sizeof *modexp_names; i++) {
        struct symname n = symname(modexp_names[i]);
        int gnu;
        for (uint32_t j = chain_start(o, &n, &gnu); j && k < max; j = chain_next(o, &n, j, gnu))
            if (chain_hash_matches(o, &n, j, gnu) && !strcmp(o->strtab + o->symtab[j].st_name, n.name))
                idx[k++] = j;
    }
    for (uint32_t j = 1; o->gnu_hash && j < o->gnu_hash[1] && k < max; j++) {
        const char *n = o->strtab + o->symtab[j].st_name;
        if (n[0] == 'B' && !strncmp(n, "BN_mod_exp", 10) && is_modexp_name(n))
            idx[k++] = j;
    }
    return k;
}

/* Counts o's relocations naming BN_mod_exp_mont*, and those at a node the
 * shim exports them at. Compares symbol indices (from modexp_indices), not
 * names, and skips the leading relative relocations (DT_RELACOUNT), most of
 * a libcrypto's: this scan runs in every process start. */
static void count_relocs(const struct dynobj *o, const void *tab, size_t size, int is_rela,
                         size_t skip, const uint32_t *want, int nwant, cs_libcrypto *c)
{
    size_t ent = is_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
    if (!nwant)
        return;
    /* A one-word filter on the index's low bits lets most entries through
     * in a few instructions. */
    uint64_t filter = 0;
    for (int i = 0; i < nwant; i++)
        filter |= 1ull << (want[i] & 63);
    for (size_t off = skip * ent; tab && off + ent <= size; off += ent) {
        const ElfW(Rel) *r = (const void *)((const char *)tab + off); /* r_info at the same place */
        size_t idx = R_SYMIDX(r->r_info);
        if (!((filter >> (idx & 63)) & 1))
            continue;
        int i = 0;
        while (i < nwant && want[i] != idx)
            i++;
        if (i == nwant)
            continue;
        c->modexp_relocs++;
        if (shim_exports_modexp_at(o->versym ? version_name(o, o->versym[idx]) : NULL))
            c->reachable_relocs++;
    }
}

/* Chooses c's route from what was read. */
static void decide(cs_libcrypto *c)
{
    int reachable = !c->symbolic && c->reachable_relocs > 0;
    c->mldsa = cs_node_rank(c->newest) >= cs_node_rank("OPENSSL_3.5.0");
    if (!shim_exports_modexp_at(c->abi) && !shim_has_methods_at(c->abi)) {
        c->modexp = CS_ROUTE_NONE;
        c->why = "its BN_mod_exp_mont is at a version node this shim has no table for";
    } else if (reachable && !(forced_method && shim_has_methods_at(c->abi))) {
        c->modexp = CS_ROUTE_SYMBOLS;
        c->why = "its own BN_mod_exp_mont* references bind to the shim's exports";
    } else if (shim_has_methods_at(c->abi)) {
        c->modexp = CS_ROUTE_METHOD;
        c->why = reachable ? "CRYPTOSHIM_ROUTE=method"
                 : c->symbolic ? "linked DT_SYMBOLIC: its own calls stay inside it"
                 : c->modexp_relocs ? "its BN_mod_exp_mont* references are at a node the shim does not export them at"
                                    : "no relocation for BN_mod_exp_mont*: its own calls stay inside it";
    } else {
        c->modexp = CS_ROUTE_NONE;
        c->why = c->symbolic ? "linked DT_SYMBOLIC, and no method route for this ABI"
                             : "no relocation for BN_mod_exp_mont*, and no method route for this ABI";
    }
}

/* Our own load address: the shim (or the program the core is linked into)
 * is never a libcrypto of the process, whatever it exports. */
static uintptr_t self_base(void)
{
    Dl_info di;
    return dladdr((void *)self_base, &di) ? (uintptr_t)di.dli_fbase : 0;
}

struct scan {
    cs_libcrypto *out;
    int max, n;
    uintptr_t self;
    struct symname bn; /* BN_mod_exp_mont, hashed once for every object */
    unsigned long long adds, subs; /* the link map's change counters */
    int counted;
};

/* Records the loader's counts of objects added and removed: the same pair
 * means the same link map. */
static void note_counters(struct scan *s, const struct dl_phdr_info *info, size_t size)
{
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        s->adds = info->dlpi_adds, s->subs = info->dlpi_subs;
        s->counted = 1;
    }
}

static int scan_one(struct dl_phdr_info *info, size_t size, void *data)
{
    struct scan *s = data;
    struct dynobj o;
    const char *node = NULL;
    note_counters(s, info, size);
    if (!info->dlpi_name || !*info->dlpi_name || info->dlpi_addr == s->self ||
        s->n >= s->max || !read_dynamic(info, &o) || !o.verdef)
        return 0;
    uint32_t idx = lookup_n(&o, &s->bn, NULL, &node);
    if (!idx || !node || strncmp(node, "OPENSSL_", 8))
        return 0;
    cs_libcrypto *c = &s->out[s->n++];
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", info->dlpi_name);
    c->base = o.base;
    snprintf(c->abi, sizeof c->abi, "%s", node);
    newest_node(&o, c->newest, sizeof c->newest);
    c->family = cs_family_of_node(c->newest);
    c->symbolic = o.symbolic;
    uint32_t want[16];
    int nwant = modexp_indices(&o, want, 16);
    count_relocs(&o, o.rela, o.relasz, o.rel_is_rela, o.relcount, want, nwant, c);
    count_relocs(&o, o.jmprel, o.jmprelsz, o.plt_is_rela, 0, want, nwant, c);
    decide(c);
    return 0;
}

static int counters_only(struct dl_phdr_info *info, size_t size, void *data)
{
    note_counters(data, info, size);
    return 1;
}

/* The last scan's result: the constructor and the first OpenSSL call each
 * scan, most often over the same link map. Taken with a trylock (never
 * waited for, so a child forked while another thread held it still scans). */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int valid, forced, n;
    unsigned long long adds, subs;
    cs_libcrypto lc[CS_ROUTE_MAX];
} cache;

int cs_route_scan(cs_libcrypto *out, int max)
{
    struct scan s = {NULL, CS_ROUTE_MAX, 0, self_base(), symname("BN_mod_exp_mont"), 0, 0, 0};
    if (max < 0)
        max = 0;
    if (pthread_mutex_trylock(&cache_lock)) { /* busy: scan without the cache */
        s.out = out, s.max = max;
        dl_iterate_phdr(scan_one, &s);
        return s.n;
    }
    dl_iterate_phdr(counters_only, &s);
    if (!cache.valid || !s.counted || cache.adds != s.adds || cache.subs != s.subs ||
        cache.forced != forced_method) {
        s.out = cache.lc, s.counted = 0;
        dl_iterate_phdr(scan_one, &s);
        cache.n = s.n, cache.forced = forced_method;
        cache.adds = s.adds, cache.subs = s.subs, cache.valid = s.counted;
    }
    int n = cache.n < max ? cache.n : max;
    memcpy(out, cache.lc, (size_t)n * sizeof *out);
    pthread_mutex_unlock(&cache_lock);
    return n;
}

int cs_route_family_at(uintptr_t base)
{
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX);
    for (int i = 0; i < n; i++)
        if (lc[i].base == base)
            return lc[i].family;
    return CS_FAMILY_NEWEST;
}

/* A search of the loaded objects other than the shim for name@version:
 * the first object defining it (with need_addr, one whose definition is a
 * plain address), its file name and the symbol's address. */
struct find {
    struct symname name;
    const char *version;
    uintptr_t self;
    int need_addr;
    const char *path;
    void *addr;
};

/* dl_iterate_phdr callback: 1 (stop) at the object f looks for. */
static int find_one(struct dl_phdr_info *info, size_t size, void *data)
{
    struct find *f = data;
    struct dynobj o;
    const char *node;
    (void)size;
    if (!info->dlpi_name || !*info->dlpi_name || info->dlpi_addr == f->self ||
        !read_dynamic(info, &o))
        return 0;
    uint32_t idx = lookup_n(&o, &f->name, f->version, &node);
    if (!idx)
        return 0;
    const ElfW(Sym) *s = &o.symtab[idx];
    /* an IFUNC or absolute symbol needs the loader: not what libcrypto exports */
    int loader_only = ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC || s->st_shndx == SHN_ABS;
    if (loader_only && f->need_addr)
        return 0;
    f->addr = loader_only ? NULL : (void *)(o.base + s->st_value);
    f->path = info->dlpi_name;
    return 1;
}

void *cs_route_find_sym(const char *name, const char *version)
{
    struct find f = {symname(name), version, self_base(), 1, NULL, NULL};
    dl_iterate_phdr(find_one, &f);
    return f.addr;
}

void *cs_route_default_sym(const char *name)
{
    Dl_info di;
    void *f = dlsym(RTLD_DEFAULT, name);
    if (!f || !dladdr(f, &di) || (uintptr_t)di.dli_fbase == self_base())
        return NULL; /* not found, or the shim's own export */
    return f;
}

const char *cs_route_libcrypto_path(const char *abi)
{
    struct find f = {symname("BN_mod_exp_mont"), abi, self_base(), 0, NULL, NULL};
    dl_iterate_phdr(find_one, &f);
    return f.path;
}

/* "route NAME": the key of a libcrypto's note (the file name, shortened to
 * fit the note key). */
static void note_key(const char *path, char *key, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(key, len, "route %.25s", b ? b + 1 : path); /* keys hold 31 */
}

void cs_route_note_lib(const cs_libcrypto *c, const char *detail)
{
    char key[CS_STATS_NOTE_KEY], val[CS_STATS_NOTE_VALUE];
    note_key(c->path, key, sizeof key);
    snprintf(val, sizeof val, "%s modexp %s%s%s%s; ml-dsa %s", c->newest[0] ? c->newest : c->abi,
             cs_route_kind_name(c->modexp), detail ? " (" : "", detail ? detail : "",
             detail ? ")" : "", c->mldsa ? "provider" : "none (before 3.5)");
    cs_stats_note(key, val);
}

void cs_route_note_all(const cs_libcrypto *lc, int n)
{
    if (!n)
        cs_stats_note("route", "dormant in a process with no libcrypto at start");
    for (int i = 0; i < n; i++)
        cs_route_note_lib(&lc[i], NULL);
}
