/* ab-tls-client: full TLS handshakes (no resumption) against HOST:PORT, one
 * line per handshake with the time from connect() to handshake complete, in
 * microseconds (with --ports, then the client's local port). Used by
 * ab/ab.py; links the system libssl. The server name sent (SNI)
 * is --sni (localhost by default). With --cafile (or --default-ca, the
 * system's store) the client verifies the server's chain and the name
 * --verify-name (default: the SNI name) with SSL_VERIFY_PEER: a handshake that
 * fails verification fails the run. Without them nothing is verified but the
 * handshake itself. --cert/--key present a client certificate.
 * Load (tls_load.c): with --concurrency N (closed loop) or --rate R (open
 * loop), handshakes start for --seconds S (COUNT at most) and those in
 * flight get --drain S more; one line each, "ok START_US LATENCY_US" or
 * "fail START_US REASON".
 * Usage: ab-tls-client HOST PORT COUNT [--tls 1.2|1.3] [--groups LIST]
 *        [--ciphers LIST] [--ciphersuites LIST] [--sigalgs LIST] [--cafile FILE]
 *        [--default-ca 1] [--sni NAME] [--verify-name NAME] [--cert FILE]
 *        [--key FILE] [--ports 1] [--concurrency N | --rate R --max-inflight N]
 *        [--seconds S] [--drain S] */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include "ab/tls_client.h"
#include "runtime/timer.h"

/* Connects a TCP socket to addr with Nagle off; -1 on failure. */
static int tcp_connect(const struct addrinfo *addr)
{
    int one = 1, fd = socket(addr->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, addr->ai_addr, addr->ai_addrlen) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The local port of a connected socket (0 when unknown). */
static unsigned local_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        return 0;
    if (ss.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return 0;
}

/* Set by --cafile or --default-ca: the server's chain and name are verified. */
static int verify_peer;
/* --sni, --verify-name (NULL: the SNI name), --ports. */
static const char *sni_name = "localhost", *verify_name;
static int print_ports;

/* --concurrency, --rate, --seconds, --drain, --max-inflight: a load run. */
static struct tls_load_plan plan = {.seconds = 2, .drain = 5, .max_inflight = 1000};

/* Prints what a handshake negotiated, on stderr (once per run). */
void tls_describe(SSL *ssl)
{
    int nid = 0;
    const char *group = SSL_group_to_name(ssl, SSL_get_negotiated_group(ssl));
    SSL_get_peer_signature_type_nid(ssl, &nid);
    fprintf(stderr, "negotiated: %s %s, group %s, server signature %s, chain %s\n",
            SSL_get_version(ssl), SSL_get_cipher_name(ssl), group ? group : "none",
            nid ? OBJ_nid2sn(nid) : "unknown",
            verify_peer ? "verified against the CA file" : "not verified");
}

/* After a failed SSL_connect: why the chain was refused, when it was. */
static void report_verify_failure(SSL *ssl)
{
    long v = SSL_get_verify_result(ssl);
    if (verify_peer && v != X509_V_OK)
        fprintf(stderr, "certificate verification failed: %s\n",
                X509_verify_cert_error_string(v));
}

/* After a failed handshake: one line "handshake failed: REASON" (the
 * first error OpenSSL queued, or the connection closing early). */
static void report_handshake_failure(void)
{
    unsigned long e = ERR_peek_error();
    const char *why = e ? ERR_reason_error_string(e) : NULL;
    fprintf(stderr, "handshake failed: %s\n",
            why ? why : "the server closed the connection during the handshake");
    ERR_print_errors_fp(stderr);
}

/* One handshake; returns its duration in microseconds or a negative value,
 * and the local port in *port. */
static double one_handshake(SSL_CTX *ctx, const struct addrinfo *addr, int first, unsigned *port)
{
    double t0 = cs_timer_wall(), t1 = -1;
    int fd = tcp_connect(addr);
    if (fd < 0) {
        perror("connect");
        return -1;
    }
    *port = local_port(fd);
    SSL *ssl = SSL_new(ctx);
    const char *vname = verify_name ? verify_name : sni_name;
    if (ssl && SSL_set_fd(ssl, fd) == 1 && (!*sni_name || SSL_set_tlsext_host_name(ssl, sni_name) == 1) &&
        (!verify_peer || SSL_set1_host(ssl, vname) == 1) && SSL_connect(ssl) == 1 &&
        (!verify_peer || SSL_get_verify_result(ssl) == X509_V_OK)) {
        t1 = cs_timer_wall();
        if (first)
            tls_describe(ssl);
        SSL_shutdown(ssl);
    } else {
        if (ssl)
            report_verify_failure(ssl);
        report_handshake_failure();
    }
    SSL_free(ssl);
    close(fd);
    return t1 < 0 ? -1 : (t1 - t0) * 1e6;
}

/* Applies the command-line options to ctx; 0 on success. */
static int configure(SSL_CTX *ctx, int argc, char **argv)
{
    for (int i = 4; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int ok;
        if (!val)
            return fprintf(stderr, "missing value for %s\n", opt), -1;
        i++;
        if (!strcmp(opt, "--tls")) {
            int v = !strcmp(val, "1.2") ? TLS1_2_VERSION : !strcmp(val, "1.3") ? TLS1_3_VERSION : 0;
            ok = v && SSL_CTX_set_min_proto_version(ctx, v) && SSL_CTX_set_max_proto_version(ctx, v);
        } else if (!strcmp(opt, "--groups")) {
            ok = SSL_CTX_set1_groups_list(ctx, val);
        } else if (!strcmp(opt, "--ciphers")) {
            ok = SSL_CTX_set_cipher_list(ctx, val);
        } else if (!strcmp(opt, "--ciphersuites")) {
            ok = SSL_CTX_set_ciphersuites(ctx, val);
        } else if (!strcmp(opt, "--sigalgs")) {
            ok = SSL_CTX_set1_sigalgs_list(ctx, val);
        } else if (!strcmp(opt, "--cafile")) {
            /* the only trust anchor: the system's store is not loaded */
            ok = SSL_CTX_load_verify_locations(ctx, val, NULL);
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
            verify_peer = 1;
        } else if (!strcmp(opt, "--default-ca")) {
            ok = SSL_CTX_set_default_verify_paths(ctx);
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
            verify_peer = 1;
        } else if (!strcmp(opt, "--sni")) {
            sni_name = val;
            ok = 1;
        } else if (!strcmp(opt, "--verify-name")) {
            verify_name = val;
            ok = 1;
        } else if (!strcmp(opt, "--cert")) {
            ok = SSL_CTX_use_certificate_chain_file(ctx, val);
        } else if (!strcmp(opt, "--key")) {
            ok = SSL_CTX_use_PrivateKey_file(ctx, val, SSL_FILETYPE_PEM) &&
                 SSL_CTX_check_private_key(ctx);
        } else if (!strcmp(opt, "--concurrency")) {
            plan.concurrency = atoi(val);
            ok = plan.concurrency > 0 && plan.concurrency <= 100000;
        } else if (!strcmp(opt, "--rate")) {
            plan.rate = strtod(val, NULL);
            ok = plan.rate > 0 && plan.rate <= 1e6;
        } else if (!strcmp(opt, "--seconds")) {
            plan.seconds = strtod(val, NULL);
            ok = plan.seconds > 0 && plan.seconds <= 3600;
        } else if (!strcmp(opt, "--drain")) {
            plan.drain = strtod(val, NULL);
            ok = plan.drain >= 0 && plan.drain <= 600;
        } else if (!strcmp(opt, "--max-inflight")) {
            plan.max_inflight = atoi(val);
            ok = plan.max_inflight > 0 && plan.max_inflight <= 100000;
        } else if (!strcmp(opt, "--ports")) {
            print_ports = 1;
            ok = 1;
        } else {
            return fprintf(stderr, "unknown option %s\n", opt), -1;
        }
        if (!ok) {
            fprintf(stderr, "bad value for %s: %s\n", opt, val);
            ERR_print_errors_fp(stderr);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s HOST PORT COUNT [--tls 1.2|1.3] [--groups L] "
                        "[--ciphers L] [--ciphersuites L] [--sigalgs L] [--cafile FILE] "
                        "[--default-ca 1] [--sni NAME] [--verify-name NAME] [--cert FILE] "
                        "[--key FILE] [--ports 1] [--concurrency N | --rate R --max-inflight N] "
                        "[--seconds S] [--drain S]\n",
                argv[0]);
        return 2;
    }
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *addr = NULL;
    long count = strtol(argv[3], NULL, 10);
    int gai = getaddrinfo(argv[1], argv[2], &hints, &addr);
    if (gai != 0 || count <= 0 || count > 1000000) {
        fprintf(stderr, "bad host or count%s%s\n", gai ? ": " : "", gai ? gai_strerror(gai) : "");
        return 2;
    }
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx)
        return 2;
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); /* --cafile turns verification on */
    if (configure(ctx, argc, argv))
        return 2;
    /* Every handshake is a full one: no session cache, no tickets. */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
    if (plan.concurrency > 0 || plan.rate > 0) {
        plan.max_handshakes = count;
        int rc = tls_load(ctx, addr, sni_name, &plan);
        freeaddrinfo(addr);
        SSL_CTX_free(ctx);
        return rc;
    }
    int failed = 0;
    for (long i = 0; i < count; i++) {
        unsigned port = 0;
        double us = one_handshake(ctx, addr, i == 0, &port);
        if (us < 0) {
            failed++;
            continue;
        }
        if (print_ports)
            printf("%.1f %u\n", us, port);
        else
            printf("%.1f\n", us);
    }
    fflush(stdout);
    freeaddrinfo(addr);
    SSL_CTX_free(ctx);
    if (failed)
        fprintf(stderr, "%d of %ld handshakes failed\n", failed, count);
    return failed ? 1 : 0;
}
