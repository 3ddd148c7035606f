/* CPU probing, used by controls.c (which applies CRYPTOSHIM_CPU masks). */
#ifndef CRYPTOSHIM_CPU_H
#define CRYPTOSHIM_CPU_H

#include <stddef.h>
#include <stdint.h>

/* Features this CPU and OS support (cs_cpu_feature bits). */
uint32_t cs_cpu_probe(void);
/* Bit for a feature name of len bytes ("adx"), or 0 if unknown. */
uint32_t cs_cpu_feature_by_name(const char *name, size_t len);
/* This CPU's signature as `cryptoshim calibrate` stores it in a policy file:
 * vendor, family and model (x86-64; the architecture elsewhere) and the
 * features detected, so a policy measured elsewhere is recognised. */
void cs_cpu_signature(char *out, size_t cap);
/* hidden plus every feature that needs one of them (FMA and AVX-512
 * kernels also use AVX2; IFMA, VL and BW come only with AVX-512F): what
 * hiding `hidden` must hide. */
uint32_t cs_cpu_hide_closure(uint32_t hidden);
#if defined(__s390x__)
/* CPACF SHAKE function codes available (CS_CPU_S390_SHAKE) or 0. */
uint32_t cs_cpu_probe_s390_shake(void);
#endif

#endif
