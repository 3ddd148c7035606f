/* Counters in a file-backed shared mapping: one open+mmap in the
 * constructor, then only atomic operations on mapped memory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"

static cs_stats_file *stats_map;

int cs_stats_open(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        (st.st_size < (off_t)sizeof(cs_stats_file) &&
         ftruncate(fd, sizeof(cs_stats_file)) < 0)) {
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, sizeof(cs_stats_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return -1;
    cs_stats_file *f = p;
    /* A fresh (zero) file is stamped by whoever gets there first. */
    uint32_t zero = 0;
    __atomic_compare_exchange_n(&f->magic, &zero, CS_STATS_MAGIC, 0, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&f->magic, __ATOMIC_ACQUIRE) != CS_STATS_MAGIC) {
        munmap(p, sizeof(cs_stats_file));
        return -1;
    }
    f->nslots = CS_STATS_SLOTS;
    stats_map = f;
    return 0;
}

/* FNV-1a over the three fields; never 0 (0 marks a free slot). */
static uint64_t slot_key(const char *op, const char *kernel, unsigned bits)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *s = op; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;
    for (const char *s = kernel; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
    for (int i = 0; i < 4; i++)
        h = (h ^ ((bits >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
    return h ? h : 1;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; i + 1 < size && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

static void copy_name(char *dst, const char *src) { copy_text(dst, CS_STATS_NAME, src); }

void cs_stats_count(const char *op, const char *kernel, unsigned bits)
{
    cs_stats_file *f = stats_map;
    if (!f)
        return;
    uint64_t key = slot_key(op, kernel, bits);
    for (unsigned i = 0; i < CS_STATS_SLOTS; i++) {
        cs_stats_slot *s = &f->slot[(key + i) % CS_STATS_SLOTS];
        uint64_t cur = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uint64_t expect = 0;
            if (__atomic_compare_exchange_n(&s->key, &expect, key, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                copy_name(s->op, op);
                copy_name(s->kernel, kernel);
                s->bits = bits;
                __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
                cur = key;
            } else {
                cur = expect;
            }
        }
        if (cur == key) {
            __atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    __atomic_fetch_add(&f->dropped, 1, __ATOMIC_RELAXED);
}

void cs_stats_note(const char *key, const char *value)
{
    cs_stats_file *f = stats_map;
    if (!f)
        return;
    uint64_t h = slot_key(key, "", 0);
    for (unsigned i = 0; i < CS_STATS_NOTES; i++) {
        cs_stats_note_slot *s = &f->note[(h + i) % CS_STATS_NOTES];
        uint64_t expect = 0;
        if (__atomic_compare_exchange_n(&s->key, &expect, h, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            copy_text(s->name, sizeof s->name, key);
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            expect = h;
        }
        if (expect == h) {
            copy_text(s->value, sizeof s->value, value);
            return;
        }
    }
}
