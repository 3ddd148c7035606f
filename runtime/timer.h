/* The one timer of every benchmark: the CLI's `bench` and `calibrate`
 * commands, the A/B harness's client and the programs under tools/bench.
 * Here, not in tools/, because the CLI needs it and cli/ includes nothing
 * from tools/. Header only, so a tool built from a single source
 * (kernel_rate, ab-tls-client) needs no extra object.
 *
 * Contract: every clock here is monotonic (never steps back, not moved by
 * setting the date), and only the difference of two readings of the same
 * clock means anything. Seconds come as a double; ticks as a uint64_t in
 * CS_TIMER_TICK_UNIT: the time stamp counter on x86-64 (reference cycles at
 * a constant rate, not core cycles, so turbo does not change it), monotonic
 * nanoseconds elsewhere. Not for the library: nothing else in runtime/ uses it. */
#ifndef CRYPTOSHIM_RUNTIME_TIMER_H
#define CRYPTOSHIM_RUNTIME_TIMER_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Reading of clock `id` in seconds. */
static inline double cs_timer_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Elapsed (wall) seconds, CLOCK_MONOTONIC: what a person waits. */
static inline double cs_timer_wall(void)
{
    return cs_timer_seconds(CLOCK_MONOTONIC);
}

/* CPU seconds of the calling thread: what `openssl speed` counts, and unlike
 * wall time not stretched when other processes share the cores. */
static inline double cs_timer_thread_cpu(void)
{
    return cs_timer_seconds(CLOCK_THREAD_CPUTIME_ID);
}

/* CPU seconds of the whole process (every thread). */
static inline double cs_timer_process_cpu(void)
{
    return cs_timer_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

#if defined(__x86_64__)
#define CS_TIMER_TICK_UNIT "cycles"
/* Time stamp counter: constant rate on the CPUs this project times. */
static inline uint64_t cs_timer_ticks(void)
{
    return __rdtsc();
}
#else
#define CS_TIMER_TICK_UNIT "ns"
/* Monotonic nanoseconds where there is no time stamp counter to read. */
static inline uint64_t cs_timer_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#endif
