/* What the two halves of ab-tls-client share: the one-by-one handshakes of
 * ab_tls_client.c (the CLI) and the load loop of tls_load.c. */
#ifndef CRYPTOSHIM_AB_TLS_CLIENT_H
#define CRYPTOSHIM_AB_TLS_CLIENT_H

#include <netdb.h>
#include <openssl/ssl.h>

/* How tls_load() offers handshakes: closed loop keeps `concurrency`
 * handshakes in flight; open loop starts one every 1/rate seconds whatever
 * the server does (latency counts from each one's scheduled start). */
struct tls_load_plan {
    int concurrency;   /* closed loop: handshakes in flight (0: open loop) */
    double rate;       /* open loop: new handshakes per second */
    double seconds;    /* new handshakes start only during this time */
    double drain;      /* then at most this long for those in flight */
    long max_handshakes; /* started handshakes, never more */
    int max_inflight;  /* open loop: connections open at once, never more */
};

/* Prints what a handshake negotiated on stderr ("negotiated: ..."). */
void tls_describe(SSL *ssl);

/* Runs the plan against addr with ctx (SNI sni_name unless empty), one line
 * per handshake on stdout ("ok START_US LATENCY_US" or "fail START_US
 * REASON", START_US from the run's start), then a summary on stderr;
 * returns 0, or 2 when nothing could be started. */
int tls_load(SSL_CTX *ctx, const struct addrinfo *addr, const char *sni_name,
             const struct tls_load_plan *plan);

#endif
