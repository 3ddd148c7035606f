/* Montgomery constant cache: a few entries, round-robin replacement, guarded
 * by a try-lock so a forked child or a contended caller never waits. */
#include <string.h>

#include "mont_cache.h"

#define CACHE_ENTRIES 8

static struct {
    int lock;
    unsigned next;
    unsigned used;
    cs_mont entry[CACHE_ENTRIES];
} cache;

static int try_lock(void) { return !__atomic_exchange_n(&cache.lock, 1, __ATOMIC_ACQUIRE); }
static void unlock(void) { __atomic_store_n(&cache.lock, 0, __ATOMIC_RELEASE); }

int cs_mont_cache_get(cs_mont *mont, const cs_limb *m, size_t n, const cs_bn_kernel *k)
{
    if (try_lock()) {
        for (unsigned i = 0; i < cache.used; i++) {
            cs_mont *e = &cache.entry[i];
            if (e->n == n && !memcmp(e->m, m, n * sizeof(cs_limb))) {
                if (k)
                    cs_bn_prepare(k, e); /* once per modulus and kernel */
                memcpy(mont, e, sizeof *mont);
                unlock();
                return 0;
            }
        }
        unlock();
    }
    if (cs_mont_init(mont, m, n) < 0)
        return -1;
    if (k)
        cs_bn_prepare(k, mont);
    if (try_lock()) {
        memcpy(&cache.entry[cache.next], mont, sizeof *mont);
        cache.next = (cache.next + 1) % CACHE_ENTRIES;
        if (cache.used < CACHE_ENTRIES)
            cache.used++;
        unlock();
    }
    return 0;
}
