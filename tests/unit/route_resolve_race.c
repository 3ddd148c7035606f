/* 8 threads race the first resolution of one libcrypto function table
 * (cs_ossl_resolve, as the interposed entry points do on their first call)
 * and then use it; run under helgrind by tests/bats/routes_race.bats, where
 * any report about the table fails. Also checks the route scan finds the
 * libcrypto this program links. TAP. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/bn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "runtime/route.h"
#include "runtime/ossl.h"

static cs_ossl table = {.version = "OPENSSL_3.0.0"};
static pthread_barrier_t start;

static void *racer(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start); /* all eight reach the first call together */
    if (!cs_ossl_resolve(&table))
        return NULL;
    BIGNUM *b = BN_new();
    BN_set_word(b, 0x10001);
    int bits = table.num_bits(b);
    BN_free(b);
    return bits == 17 ? (void *)1 : NULL;
}

int main(void)
{
    pthread_t t[8];
    int good = 0;
    pthread_barrier_init(&start, NULL, 8);
    for (int i = 0; i < 8; i++)
        pthread_create(&t[i], NULL, racer, NULL);
    for (int i = 0; i < 8; i++) {
        void *r;
        pthread_join(t[i], &r);
        good += r != NULL;
    }
    printf("1..2\n%s 1 - 8 threads resolved the table and used it\n", good == 8 ? "ok" : "not ok");
    cs_libcrypto lc[CS_ROUTE_MAX];
    int n = cs_route_scan(lc, CS_ROUTE_MAX);
    int found = n >= 1 && !strcmp(lc[0].abi, "OPENSSL_3.0.0") && lc[0].modexp == CS_ROUTE_SYMBOLS;
    printf("%s 2 - the route scan finds this program's libcrypto (%s, route %s)\n",
           found ? "ok" : "not ok", n ? lc[0].path : "none",
           n ? cs_route_kind_name(lc[0].modexp) : "-");
    return good == 8 && found ? 0 : 1;
}
