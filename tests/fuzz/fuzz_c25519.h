/* Which curve tables the c25519 fuzz targets (fuzz_x25519, fuzz_ed25519)
 * compare. Header-only.
 *
 * Beside the tables this CPU runs, a build defining FUZZ_C25519_IFMA_EMU
 * (mk/sanitize.mk: the x86-64 fuzz builds) links an emulated copy of the
 * x86_64-ifma table: ifma.c, ladder_ifma.c and double_mul_ifma.c compiled
 * a second time over the test-only AVX-512 emulation
 * (tests/unit/ctemu/avx512_emul.h, as mk/ctemu.mk does), their global
 * symbols suffixed _emu. Its AVX-512 code is then plain C over AVX2, so it
 * runs wherever the table's other parts (x86_64-adx's field and fixed
 * base, native) do. */
#ifndef CRYPTOSHIM_FUZZ_C25519_H
#define CRYPTOSHIM_FUZZ_C25519_H

#include <stdint.h>

#include "kernels/c25519/c25519.h"
#include "runtime/cpu.h"

#ifdef FUZZ_C25519_IFMA_EMU
extern const cs_c25519_impl cs_c25519_x86_64_ifma_emu;
#define FUZZ_C25519_IFMA_EMU_NAME "x86_64-ifma(emulated)"
static cs_c25519_impl fuzz_c25519_emu; /* its copy under that name, set by fuzz_c25519_tables */
#endif

/* Whether im is the emulated x86_64-ifma table. */
static int __attribute__((unused)) fuzz_c25519_emulated(const cs_c25519_impl *im)
{
#ifdef FUZZ_C25519_IFMA_EMU
    return im == &fuzz_c25519_emu;
#else
    (void)im;
    return 0;
#endif
}

/* Fills out (room for max) with every table of cs_c25519_impls this CPU
 * runs and, where the build has it and the CPU has its native parts'
 * features, the emulated x86_64-ifma table last (named
 * FUZZ_C25519_IFMA_EMU_NAME, requiring only those features); with ed set,
 * only tables with the Ed25519 entries. Returns how many. */
static unsigned __attribute__((unused)) fuzz_c25519_tables(const cs_c25519_impl **out, unsigned max,
                                                           int ed)
{
    uint32_t have = cs_cpu_probe();
    unsigned n = 0;
    for (unsigned k = 0; cs_c25519_impls[k] && n < max; k++) {
        const cs_c25519_impl *im = cs_c25519_impls[k];
        if ((im->cpu_features & have) == im->cpu_features && (!ed || im->ed25519_pubkey))
            out[n++] = im;
    }
#ifdef FUZZ_C25519_IFMA_EMU
    fuzz_c25519_emu = cs_c25519_x86_64_ifma_emu;
    fuzz_c25519_emu.name = FUZZ_C25519_IFMA_EMU_NAME;
    fuzz_c25519_emu.cpu_features &= ~(uint32_t)CS_CPU_AVX512_ALL;
    if (n < max && (fuzz_c25519_emu.cpu_features & have) == fuzz_c25519_emu.cpu_features)
        out[n++] = &fuzz_c25519_emu;
#endif
    return n;
}

#endif
