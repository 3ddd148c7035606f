/* The library constructor: read controls, detect the CPU, load the policy,
 * map the stats file, and resolve libcrypto if it is already loaded. No
 * OpenSSL function is called here; nothing runs at exit. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "controls.h"
#include "dispatch.h"
#include "ossl.h"
#include "stats.h"

__attribute__((constructor)) static void cryptoshim_init(void)
{
    cs_controls_load();
    cs_dispatch_init();
    const char *stats = secure_getenv("CRYPTOSHIM_STATS");
    if (stats && *stats)
        cs_stats_open(stats);
    if (!cs_ossl_resolve(&cs_ossl30))
        cs_ossl_resolve(&cs_ossl11);
}
