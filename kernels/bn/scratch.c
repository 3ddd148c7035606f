/* See scratch.h. The block's pointer lives in initial-exec TLS, so the hot
 * path is a few instructions; a pthread key only serves to free the block
 * when its thread exits. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "scratch.h"
#include "../ct.h"

#define ALIGN 64

static __thread struct {
    unsigned char *base; /* CS_SCRATCH_BYTES, ALIGN-aligned; NULL until first use */
    size_t used;
} tls __attribute__((tls_model("initial-exec")));

static pthread_key_t key;
static int key_ok;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/* Thread exit: the block is all given back (and so wiped) unless the thread
 * ended inside a call; wipe it whole anyway. */
static void free_block(void *p)
{
    cs_wipe(p, CS_SCRATCH_BYTES);
    free(p);
}

static void make_key(void)
{
    key_ok = pthread_key_create(&key, free_block) == 0;
}

/* Allocates this thread's block; 0 or -1. */
static int first_use(void)
{
    pthread_once(&key_once, make_key);
    if (!key_ok)
        return -1;
    void *p = NULL;
    if (posix_memalign(&p, ALIGN, CS_SCRATCH_BYTES))
        return -1;
    if (pthread_setspecific(key, p)) {
        free(p);
        return -1;
    }
    tls.base = p;
    tls.used = 0;
    return 0;
}

void *cs_scratch_take(size_t bytes)
{
    if (!tls.base && first_use() < 0)
        return NULL;
    size_t need = (bytes + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (need < bytes || need > CS_SCRATCH_BYTES - tls.used)
        return NULL;
    void *p = tls.base + tls.used;
    tls.used += need;
    return p;
}

void cs_scratch_give(void *p, size_t bytes)
{
    if (!p)
        return;
    cs_wipe(p, bytes);
    tls.used = (size_t)((unsigned char *)p - tls.base);
}
