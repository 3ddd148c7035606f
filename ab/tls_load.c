/* ab-tls-client's load loop: many full TLS handshakes in flight at once on
 * non-blocking sockets, one thread, poll(2). Closed loop (a fixed number in
 * flight, a new one as soon as one ends) or open loop (starts on a fixed
 * schedule; when the server falls behind, the late starts wait in line and
 * their latency counts from the scheduled time, so the queue shows). */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>

#include "ab/tls_client.h"
#include "runtime/timer.h"

/* A handshake that has not ended after this long fails ("timed out"). */
#define CONN_TIMEOUT 10.0

enum { SLOT_FREE, SLOT_CONNECTING, SLOT_HANDSHAKE };

struct conn {
    int state, fd;
    short events;
    SSL *ssl;
    double sched, started; /* seconds from the run's start */
};

struct tally {
    long started, ok, failed, unfinished;
    int first_done;
};

/* Frees a slot's connection (socket closed, SSL freed). */
static void release(struct conn *c)
{
    SSL_free(c->ssl);
    if (c->fd >= 0)
        close(c->fd);
    c->ssl = NULL;
    c->fd = -1;
    c->state = SLOT_FREE;
}

/* Records a failed handshake with its reason and frees the slot. */
static void fail(struct conn *c, struct tally *t, const char *why)
{
    printf("fail %.1f %s\n", c->sched * 1e6, why);
    t->failed++;
    ERR_clear_error();
    release(c);
}

/* Opens a non-blocking connection in slot c scheduled at sched; the
 * handshake goes on in step(). */
static void start(struct conn *c, const struct addrinfo *addr, double sched, double now,
                  struct tally *t)
{
    int one = 1;
    c->sched = sched;
    c->started = now;
    c->ssl = NULL;
    t->started++;
    c->fd = socket(addr->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (c->fd < 0) {
        fail(c, t, strerror(errno));
        return;
    }
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->state = SLOT_CONNECTING;
    c->events = POLLOUT;
    if (connect(c->fd, addr->ai_addr, addr->ai_addrlen) < 0 && errno != EINPROGRESS)
        fail(c, t, strerror(errno));
}

/* Advances slot c after poll said it is ready (or to start its handshake). */
static void step(struct conn *c, SSL_CTX *ctx, const char *sni, double now, struct tally *t)
{
    if (c->state == SLOT_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
            err = errno;
        if (err) {
            fail(c, t, strerror(err));
            return;
        }
        c->ssl = SSL_new(ctx);
        if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1 ||
            (*sni && SSL_set_tlsext_host_name(c->ssl, sni) != 1)) {
            fail(c, t, "SSL_new failed");
            return;
        }
        c->state = SLOT_HANDSHAKE;
    }
    ERR_clear_error();
    int r = SSL_connect(c->ssl);
    if (r == 1) {
        printf("ok %.1f %.1f\n", c->sched * 1e6, (now - c->sched) * 1e6);
        if (!t->first_done++)
            tls_describe(c->ssl);
        t->ok++;
        SSL_shutdown(c->ssl); /* close_notify, not waiting for the server's */
        release(c);
        return;
    }
    int e = SSL_get_error(c->ssl, r);
    if (e == SSL_ERROR_WANT_READ) {
        c->events = POLLIN;
    } else if (e == SSL_ERROR_WANT_WRITE) {
        c->events = POLLOUT;
    } else {
        unsigned long q = ERR_peek_error();
        const char *why = q ? ERR_reason_error_string(q) : NULL;
        fail(c, t, why ? why : e == SSL_ERROR_SYSCALL && errno ? strerror(errno)
                                                            : "the server closed the connection");
    }
}

/* Whether the plan wants another handshake started at time now: closed
 * loop, a free place among `concurrency`; open loop, the next scheduled
 * start is due and a slot is free. *sched gets its scheduled time. */
static int want_start(const struct tls_load_plan *p, const struct tally *t, int inflight,
                      double now, double *sched)
{
    if (t->started >= p->max_handshakes)
        return 0;
    if (p->concurrency > 0) {
        *sched = now;
        return now < p->seconds && inflight < p->concurrency;
    }
    *sched = (double)t->started / p->rate;
    return *sched <= now && *sched < p->seconds && inflight < p->max_inflight;
}

int tls_load(SSL_CTX *ctx, const struct addrinfo *addr, const char *sni_name,
             const struct tls_load_plan *plan)
{
    int cap = plan->concurrency > 0 ? plan->concurrency : plan->max_inflight;
    struct conn *conns = calloc((size_t)cap, sizeof *conns);
    struct pollfd *pfd = calloc((size_t)cap, sizeof *pfd);
    int *idx = calloc((size_t)cap, sizeof *idx);
    struct tally t = {0};
    if (!conns || !pfd || !idx) {
        fprintf(stderr, "out of memory for %d connections\n", cap);
        return 2;
    }
    for (int i = 0; i < cap; i++)
        conns[i].fd = -1;
    double t0 = cs_timer_wall(), now = 0, sched;
    int inflight = 0;
    for (;;) {
        now = cs_timer_wall() - t0;
        for (int i = 0; i < cap && want_start(plan, &t, inflight, now, &sched); i++) {
            if (conns[i].state != SLOT_FREE)
                continue;
            start(&conns[i], addr, sched, now, &t);
            inflight += conns[i].state != SLOT_FREE;
        }
        int n = 0;
        for (int i = 0; i < cap; i++) {
            struct conn *c = &conns[i];
            if (c->state == SLOT_FREE)
                continue;
            if (now - c->started > CONN_TIMEOUT) {
                fail(c, &t, "timed out");
            } else if (now > plan->seconds + plan->drain) {
                printf("fail %.1f unfinished\n", c->sched * 1e6);
                t.unfinished++;
                release(c);
            } else {
                pfd[n] = (struct pollfd){.fd = c->fd, .events = c->events};
                idx[n++] = i;
            }
        }
        inflight = n;
        if (now >= plan->seconds && n == 0)
            break; /* the open loop's late starts are in flight or done */
        if (now > plan->seconds + plan->drain)
            break;
        /* Sleep in poll until a socket is ready, or the open loop's next
         * start is due (never spinning while every slot is taken). */
        int wait_ms = 10;
        if (plan->concurrency == 0 && t.started < plan->max_handshakes && inflight < cap) {
            double next = (double)t.started / plan->rate - now;
            if (next < 0.010)
                wait_ms = next > 0 ? (int)(next * 1000) : 0;
        }
        poll(pfd, (nfds_t)n, wait_ms);
        now = cs_timer_wall() - t0;
        for (int k = 0; k < n; k++) {
            if (pfd[k].revents) {
                step(&conns[idx[k]], ctx, sni_name, now, &t);
                inflight -= conns[idx[k]].state == SLOT_FREE;
            }
        }
    }
    /* Scheduled starts never made (open loop, the drain ran out first). */
    if (plan->concurrency == 0) {
        long due = (long)(plan->seconds * plan->rate + 0.999999);
        if (due > plan->max_handshakes)
            due = plan->max_handshakes;
        for (long k = t.started; k < due; k++) {
            printf("fail %.1f unfinished\n", (double)k / plan->rate * 1e6);
            t.unfinished++;
        }
    }
    fflush(stdout);
    fprintf(stderr, "load: started %ld, ok %ld, failed %ld, unfinished %ld, %.3f s\n", t.started,
            t.ok, t.failed, t.unfinished, now);
    free(conns);
    free(pfd);
    free(idx);
    return t.started ? 0 : 2;
}
