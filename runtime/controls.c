/* CRYPTOSHIM_* controls, read once with secure_getenv. Values are copied:
 * programs such as sshd overwrite their environment area (setproctitle). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controls.h"
#include "cpu.h"

#define KERNELS_MAX 32    /* distinct names kept from CRYPTOSHIM_KERNELS */
#define KERNEL_NAME_MAX 32

static struct {
    int disabled;
    int route_method;
    int kernels_forced;
    unsigned nkernels;
    char kernels[KERNELS_MAX][KERNEL_NAME_MAX]; /* in the order listed */
    uint32_t detected;
    uint32_t hidden;
    char policy[4096];
    int has_policy;
    char note[256]; /* what was not understood, for `cryptoshim info` */
} ctl;

/* Adds a line to the controls note (truncated when full). */
static void add_note(const char *fmt, const char *what, size_t len)
{
    size_t used = strlen(ctl.note);
    if (used + 2 >= sizeof ctl.note)
        return;
    snprintf(ctl.note + used, sizeof ctl.note - used, fmt, (int)(len > 40 ? 40 : len), what);
}

/* Applies "-adx,-bmi2" style masks: each "-name" hides a feature and the
 * features that need it. */
static uint32_t parse_cpu_mask(const char *s)
{
    uint32_t hide = 0;
    while (s && *s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        uint32_t bit = len > 1 && s[0] == '-' ? cs_cpu_feature_by_name(s + 1, len - 1) : 0;
        if (bit)
            hide |= bit;
        else if (len)
            add_note("CRYPTOSHIM_CPU: '%.*s' not understood (want -feature); ", s, len);
        s = end ? end + 1 : NULL;
    }
    return cs_cpu_hide_closure(hide);
}

/* Keeps the distinct names of "a,b,c" in order; any length of value. */
static void parse_kernels(const char *s)
{
    unsigned dropped = 0;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        int known = 0;
        for (unsigned i = 0; i < ctl.nkernels && !known; i++)
            known = strlen(ctl.kernels[i]) == len && !memcmp(ctl.kernels[i], s, len);
        if (len && !known) {
            if (len >= KERNEL_NAME_MAX)
                add_note("CRYPTOSHIM_KERNELS: '%.*s...' is no kernel name; ", s, len);
            else if (ctl.nkernels == KERNELS_MAX)
                dropped++;
            else {
                memcpy(ctl.kernels[ctl.nkernels], s, len);
                ctl.kernels[ctl.nkernels++][len] = 0;
            }
        }
        if (!end)
            break;
        s = end + 1;
    }
    if (dropped) {
        char n[16];
        snprintf(n, sizeof n, "%u", dropped);
        add_note("CRYPTOSHIM_KERNELS: %.*s names beyond the first 32 ignored; ", n, strlen(n));
    }
}

void cs_controls_load(void)
{
    const char *v;
    memset(&ctl, 0, sizeof ctl);
    v = secure_getenv("CRYPTOSHIM_DISABLE");
    ctl.disabled = v && *v && strcmp(v, "0") != 0;
    v = secure_getenv("CRYPTOSHIM_ROUTE");
    ctl.route_method = v && !strcmp(v, "method");
    v = secure_getenv("CRYPTOSHIM_KERNELS");
    if (v && *v) {
        ctl.kernels_forced = 1; /* even if no name is known: then none serves */
        parse_kernels(v);
    }
    ctl.detected = cs_cpu_probe();
    ctl.hidden = parse_cpu_mask(secure_getenv("CRYPTOSHIM_CPU"));
    v = secure_getenv("CRYPTOSHIM_POLICY");
    if (v && *v) {
        if (strlen(v) < sizeof ctl.policy) {
            strcpy(ctl.policy, v);
            ctl.has_policy = 1;
        } else {
            /* Too long to be a path: use no file, and say so. */
            strcpy(ctl.policy, "builtin");
            ctl.has_policy = 1;
            add_note("CRYPTOSHIM_POLICY: %.*s... too long, built-in table used; ", v, 20);
        }
    }
}

int cs_disabled(void) { return ctl.disabled; }
int cs_kernels_forced(void) { return ctl.kernels_forced; }

int cs_controls_route_method(void) { return ctl.route_method; }
const char *cs_kernel_listed(unsigned i) { return i < ctl.nkernels ? ctl.kernels[i] : NULL; }
const char *cs_controls_note(void) { return ctl.note; }

uint32_t cs_cpu_detected(void) { return ctl.detected; }
uint32_t cs_cpu_features(void) { return ctl.detected & ~ctl.hidden; }
const char *cs_policy_path(void) { return ctl.has_policy ? ctl.policy : NULL; }
