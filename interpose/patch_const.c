/* Temporarily writable read-only library pages, found from the link map's
 * program headers (PT_LOAD flags, PT_GNU_RELRO) in memory: no file read. */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "patch_const.h"

#define MAX_PAGES 4

/* One page of the range and the protection its segment gives it. */
struct page {
    uintptr_t start;
    int prot;     /* protection to restore */
    int writable; /* already writable: left alone */
};

struct lookup {
    uintptr_t first, pagesize; /* page-aligned start of the range */
    size_t npages;
    struct page page[MAX_PAGES];
    int found; /* every page lies in exactly one PT_LOAD of one object */
};

static int prot_of(uint32_t flags)
{
    return (flags & PF_R ? PROT_READ : 0) | (flags & PF_X ? PROT_EXEC : 0);
}

/* Whether program header ph of an object loaded at base overlaps the page
 * at a. */
static int overlaps(const ElfW(Phdr) *ph, ElfW(Addr) base, uintptr_t a, uintptr_t pagesize)
{
    uintptr_t lo = base + ph->p_vaddr, hi = lo + ph->p_memsz;
    return ph->p_memsz && a < hi && a + pagesize > lo;
}

/* dl_iterate_phdr callback: fills in each page's protection when this object
 * holds the whole range. A page shared by two PT_LOADs is refused (its
 * protection is not one segment's); RELRO pages are read-only whatever their
 * PT_LOAD says. */
static int find_pages(struct dl_phdr_info *info, size_t size, void *data)
{
    struct lookup *l = data;
    (void)size;
    for (size_t p = 0; p < l->npages; p++) {
        uintptr_t a = l->first + p * l->pagesize;
        int loads = 0, relro = 0;
        for (int i = 0; i < info->dlpi_phnum; i++) {
            const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
            if (!overlaps(ph, info->dlpi_addr, a, l->pagesize))
                continue;
            if (ph->p_type == PT_LOAD) {
                loads++;
                l->page[p].start = a;
                l->page[p].prot = prot_of(ph->p_flags);
                l->page[p].writable = (ph->p_flags & PF_W) != 0;
            } else if (ph->p_type == PT_GNU_RELRO) {
                relro = 1;
            }
        }
        if (loads != 1)
            return 0; /* not this object (or an ambiguous page) */
        if (relro)
            l->page[p].writable = 0;
    }
    l->found = 1;
    return 1;
}

int cs_patch_const(const void *addr, size_t len, int (*write)(void *arg), void *arg)
{
    uintptr_t pagesize = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct lookup l = {0};
    if (!len)
        return 0;
    l.pagesize = pagesize;
    l.first = (uintptr_t)addr & ~(pagesize - 1);
    l.npages = (size_t)(((((uintptr_t)addr + len - 1) & ~(pagesize - 1)) - l.first) / pagesize + 1);
    if (l.npages > MAX_PAGES || !dl_iterate_phdr(find_pages, &l) || !l.found)
        return 0;
    size_t opened = 0;
    int ok = 1;
    for (; opened < l.npages && ok; opened++)
        if (!l.page[opened].writable &&
            mprotect((void *)l.page[opened].start, pagesize, PROT_READ | PROT_WRITE) != 0)
            ok = 0;
    if (!ok)
        opened--; /* the page that failed was not changed */
    int ret = ok ? write(arg) : 0;
    for (size_t p = 0; p < opened; p++)
        if (!l.page[p].writable)
            mprotect((void *)l.page[p].start, pagesize, l.page[p].prot);
    return ret;
}
