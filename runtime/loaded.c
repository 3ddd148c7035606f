/* Lookup in loaded objects by walking the link map (dl_iterate_phdr): no
 * system call, unlike dlopen(soname, RTLD_NOLOAD), which searches the
 * library path when the name is not loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "route.h"
#include "loaded.h"

struct find {
    const char *soname;
    const char *path; /* the loaded object's name as the loader holds it */
};

/* Matches the object whose file name is exactly f->soname. */
static int match(struct dl_phdr_info *info, size_t size, void *data)
{
    struct find *f = data;
    const char *name = info->dlpi_name, *base;
    (void)size;
    if (!name || !*name)
        return 0;
    base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strcmp(base, f->soname))
        return 0;
    f->path = name;
    return 1;
}

void *cs_loaded_open(const char *soname)
{
    struct find f = {soname, NULL};
    if (!dl_iterate_phdr(match, &f) || !f.path)
        return NULL;
    /* The exact name of a loaded object: matched in the link map, no search. */
    return dlopen(f.path, RTLD_LAZY | RTLD_NOLOAD);
}

void *cs_loaded_sym(const char *soname, const char *name, const char *version)
{
    void *h = cs_loaded_open(soname);
    void *sym = h ? dlvsym(h, name, version) : NULL;
    if (h)
        dlclose(h); /* the process keeps its own reference */
    /* A libcrypto under another file name (an auditwheel-style
     * libcrypto-9a1b2c3d.so.3): whichever loaded object defines the symbol
     * at that version node. */
    return sym ? sym : cs_route_find_sym(name, version);
}
