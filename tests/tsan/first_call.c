/* ThreadSanitizer driver (mk/sanitize.mk): 8 threads released together make
 * the process's first calls into the preloaded shim (built with
 * -fsanitize=thread) through libcrypto's names: BN_mod_exp_mont,
 * BN_mod_exp_mont_consttime, BN_mod_exp_mont_consttime_x2 and
 * BN_mod_exp2_mont, so the lazy resolver, the route and stats set-up and the
 * dispatch all race; one thread forks in the middle and the child computes
 * too. Each result is checked against BN_mod_exp_simple (not interposed).
 * The kernel is forced or the policy file used by the environment the runner
 * sets (CRYPTOSHIM_KERNELS, CRYPTOSHIM_POLICY), stats on (CRYPTOSHIM_STATS).
 * TAP output; any TSan report fails the run (exit code 66). */
#include <openssl/bn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 8
#define ROUNDS 3

static BIGNUM *m1, *m2, *a1, *a2, *p1, *p2, *want1, *want2, *want_exp2;
static pthread_barrier_t start;
static int bad[THREADS];
static int fork_bad = -1; /* -1: no fork yet; then 0 or 1 */

/* One round of every interposed entry; returns the number of wrong results. */
static int one_round(BN_CTX *ctx)
{
    BIGNUM *r = BN_new(), *r2 = BN_new(), *pct = BN_dup(p1);
    int wrong = 0;
    BN_set_flags(pct, BN_FLG_CONSTTIME);
    wrong += !BN_mod_exp_mont(r, a1, p1, m1, ctx, NULL) || BN_cmp(r, want1);
    wrong += !BN_mod_exp_mont_consttime(r, a1, pct, m1, ctx, NULL) || BN_cmp(r, want1);
    wrong += !BN_mod_exp_mont_consttime_x2(r, a1, pct, m1, NULL, r2, a2, p2, m2, NULL, ctx) ||
             BN_cmp(r, want1) || BN_cmp(r2, want2);
    wrong += !BN_mod_exp2_mont(r, a1, p1, a2, p2, m1, ctx, NULL) || BN_cmp(r, want_exp2);
    BN_free(r), BN_free(r2), BN_free(pct);
    return wrong;
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    BN_CTX *ctx = BN_CTX_new();
    pthread_barrier_wait(&start);
    for (int round = 0; round < ROUNDS; round++) {
        bad[id] += one_round(ctx);
        if (id == THREADS / 2 && round == 0) { /* fork while the others compute */
            pid_t pid = fork();
            if (pid == 0) {
                BN_CTX *cctx = BN_CTX_new();
                _exit(one_round(cctx) ? 1 : 0);
            }
            int status = 0;
            fork_bad = pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
                       WEXITSTATUS(status);
        }
    }
    BN_CTX_free(ctx);
    return NULL;
}

/* x = a random number of `bits` bits (odd if asked), below `below` if given. */
static BIGNUM *rnd(int bits, int odd, const BIGNUM *below)
{
    BIGNUM *x = BN_new();
    if (below)
        BN_rand_range(x, below);
    else
        BN_rand(x, bits, BN_RAND_TOP_ONE, odd ? BN_RAND_BOTTOM_ODD : BN_RAND_BOTTOM_ANY);
    return x;
}

int main(void)
{
    BN_CTX *ctx = BN_CTX_new();
    m1 = rnd(1024, 1, NULL), m2 = rnd(1024, 1, NULL);
    a1 = rnd(0, 0, m1), a2 = rnd(0, 0, m2);
    p1 = rnd(1024, 0, NULL), p2 = rnd(160, 0, NULL);
    want1 = BN_new(), want2 = BN_new(), want_exp2 = BN_new();
    BIGNUM *t = BN_new();
    /* References from libcrypto's square-and-multiply, which the shim leaves alone. */
    BN_mod_exp_simple(want1, a1, p1, m1, ctx);
    BN_mod_exp_simple(want2, a2, p2, m2, ctx);
    BN_mod_exp_simple(t, a2, p2, m1, ctx);
    BN_mod_mul(want_exp2, want1, t, m1, ctx);

    printf("1..2\n");
    pthread_t th[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    int wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        wrong += bad[i];
    }
    printf("%s 1 - %d threads x %d rounds of the four interposed entries from the first call: "
           "%d wrong\n", wrong ? "not ok" : "ok", THREADS, ROUNDS, wrong);
    printf("%s 2 - a child forked by a computing thread computes through the shim\n",
           fork_bad ? "not ok" : "ok");
    BN_free(t);
    BN_CTX_free(ctx);
    return wrong || fork_bad ? 1 : 0;
}
