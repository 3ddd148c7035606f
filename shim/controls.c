/* CRYPTOSHIM_* controls, read once with secure_getenv. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "controls.h"
#include "cpu.h"

#define KERNELS_MAX 256

static struct {
    int disabled;
    int kernels_forced;
    char kernels[KERNELS_MAX]; /* ",a,b," for substring matching */
    uint32_t detected;
    uint32_t hidden;
    const char *policy;
} ctl;

/* Applies "-adx,-bmi2" style masks: each "-name" hides a feature. */
static uint32_t parse_cpu_mask(const char *s)
{
    uint32_t hide = 0;
    while (s && *s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len > 1 && s[0] == '-')
            hide |= cs_cpu_feature_by_name(s + 1, len - 1);
        s = end ? end + 1 : NULL;
    }
    return hide;
}

void cs_controls_load(void)
{
    const char *v;
    memset(&ctl, 0, sizeof ctl);
    v = secure_getenv("CRYPTOSHIM_DISABLE");
    ctl.disabled = v && *v && strcmp(v, "0") != 0;
    v = secure_getenv("CRYPTOSHIM_KERNELS");
    if (v && *v && strlen(v) + 3 <= sizeof ctl.kernels) {
        ctl.kernels_forced = 1;
        ctl.kernels[0] = ',';
        strcpy(ctl.kernels + 1, v);
        strcat(ctl.kernels, ",");
    }
    ctl.detected = cs_cpu_probe();
    ctl.hidden = parse_cpu_mask(secure_getenv("CRYPTOSHIM_CPU"));
    ctl.policy = secure_getenv("CRYPTOSHIM_POLICY");
    if (ctl.policy && !*ctl.policy)
        ctl.policy = NULL;
}

int cs_disabled(void) { return ctl.disabled; }
int cs_kernels_forced(void) { return ctl.kernels_forced; }

int cs_kernel_allowed(const char *name)
{
    char pat[64];
    size_t len = strlen(name);
    if (!ctl.kernels_forced)
        return 1;
    if (len + 3 > sizeof pat)
        return 0;
    pat[0] = ',';
    memcpy(pat + 1, name, len);
    pat[len + 1] = ',';
    pat[len + 2] = 0;
    return strstr(ctl.kernels, pat) != NULL;
}

/* Position of name in CRYPTOSHIM_KERNELS (earlier = preferred), or -1. */
int cs_kernel_rank(const char *name)
{
    char pat[64];
    size_t len = strlen(name);
    if (!ctl.kernels_forced || len + 3 > sizeof pat)
        return -1;
    pat[0] = ',';
    memcpy(pat + 1, name, len);
    pat[len + 1] = ',';
    pat[len + 2] = 0;
    const char *hit = strstr(ctl.kernels, pat);
    return hit ? (int)(hit - ctl.kernels) : -1;
}

uint32_t cs_cpu_detected(void) { return ctl.detected; }
uint32_t cs_cpu_features(void) { return ctl.detected & ~ctl.hidden; }
const char *cs_policy_path(void) { return ctl.policy; }
