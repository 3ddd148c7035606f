/* The library constructor: read controls, detect the CPU, load the policy,
 * map the stats file, find the libcryptos already loaded (link map, in
 * memory), choose and record each one's route, and resolve its functions.
 * No OpenSSL function is called here; nothing runs at exit. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "route.h"
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
    cs_route_set_forced_method(cs_controls_route_method());
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX);
    for (int i = 0; i < n; i++) {
        cs_ossl *api = cs_ossl_for_node(lc[i].abi);
        if (api)
            cs_ossl_resolve_path(api, lc[i].path);
    }
    cs_route_note_all(lc, n);
}
