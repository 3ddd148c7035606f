/* ab-tls-client: full TLS handshakes (no resumption) against HOST:PORT, one
 * line per handshake with the time from connect() to handshake complete, in
 * microseconds. Used by tools/bench/ab/ab.py; links the system libssl.
 * With --cafile the client verifies the server's chain against that CA and
 * the name localhost (SSL_VERIFY_PEER): a handshake that fails verification
 * fails the run. Without it nothing is verified but the handshake itself.
 * Usage: ab-tls-client HOST PORT COUNT [--tls 1.2|1.3] [--groups LIST]
 *        [--ciphers LIST] [--ciphersuites LIST] [--sigalgs LIST] [--cafile FILE] */
#include <arpa/inet.h>
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

#include "tools/bench/timer.h"

/* Connects a TCP socket to addr with Nagle off; -1 on failure. */
static int tcp_connect(const struct sockaddr_in *addr)
{
    int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (const struct sockaddr *)addr, sizeof *addr) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Set by --cafile: the server's chain and name are verified. */
static int verify_peer;

/* Prints what a handshake negotiated, on stderr (once per run). */
static void describe(SSL *ssl)
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

/* One handshake; returns its duration in microseconds or a negative value. */
static double one_handshake(SSL_CTX *ctx, const struct sockaddr_in *addr, int first)
{
    double t0 = cs_timer_wall(), t1 = -1;
    int fd = tcp_connect(addr);
    if (fd < 0) {
        perror("connect");
        return -1;
    }
    SSL *ssl = SSL_new(ctx);
    if (ssl && SSL_set_fd(ssl, fd) == 1 && SSL_set_tlsext_host_name(ssl, "localhost") == 1 &&
        (!verify_peer || SSL_set1_host(ssl, "localhost") == 1) && SSL_connect(ssl) == 1 &&
        (!verify_peer || SSL_get_verify_result(ssl) == X509_V_OK)) {
        t1 = cs_timer_wall();
        if (first)
            describe(ssl);
        SSL_shutdown(ssl);
    } else {
        if (ssl)
            report_verify_failure(ssl);
        ERR_print_errors_fp(stderr);
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
                        "[--ciphers L] [--ciphersuites L] [--sigalgs L] [--cafile FILE]\n",
                argv[0]);
        return 2;
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
    long count = strtol(argv[3], NULL, 10);
    if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1 || count <= 0 || count > 1000000) {
        fprintf(stderr, "bad host or count\n");
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
    int failed = 0;
    for (long i = 0; i < count; i++) {
        double us = one_handshake(ctx, &addr, i == 0);
        if (us < 0) {
            failed++;
            continue;
        }
        printf("%.1f\n", us);
    }
    fflush(stdout);
    SSL_CTX_free(ctx);
    if (failed)
        fprintf(stderr, "%d of %ld handshakes failed\n", failed, count);
    return failed ? 1 : 0;
}
