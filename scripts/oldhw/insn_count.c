/* QEMU TCG plugin for the old-hardware measurements: counts the guest
 * instructions a program executes and, for SPARC, how many of them are
 * hardware integer multiply or divide instructions (umul, smul, udiv,
 * sdiv and their cc forms, mulx, sdivx, udivx), which a SPARC v7 CPU lacks.
 * Counts are inline additions (no callbacks), so the overhead is small.
 * Usage: qemu-* -plugin insn_count.so,out=FILE[,arch=sparc] PROGRAM...
 * FILE gets one line: "insns N muldiv M". Built against QEMU's own
 * qemu-plugin.h (extracted from Debian's qemu source by
 * scripts/oldhw/build-plugin.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t insns, muldiv;
static char out_path[512];
static int sparc;

/* Whether a big-endian SPARC instruction word is a hardware multiply or
 * divide (format 3, op = 2, op3 in the set above). */
static int sparc_is_muldiv(const uint8_t *b)
{
    uint32_t w = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    if ((w >> 30) != 2)
        return 0;
    switch ((w >> 19) & 0x3f) {
    case 0x0a: case 0x0b: case 0x1a: case 0x1b: /* umul smul umulcc smulcc */
    case 0x0e: case 0x0f: case 0x1e: case 0x1f: /* udiv sdiv udivcc sdivcc */
    case 0x09: case 0x0d: case 0x2d:            /* mulx udivx sdivx */
        return 1;
    }
    return 0;
}

/* At translation: one inline add of the block's length per execution, and
 * one per execution of each multiply/divide instruction in it. */
static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
    if (!sparc)
        return;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_size(insn) == 4 && sparc_is_muldiv(qemu_plugin_insn_data(insn)))
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                       &muldiv, 1);
    }
}

/* At exit: the totals, to out= or QEMU's log. */
static void on_exit_cb(qemu_plugin_id_t id, void *p)
{
    char line[128];
    snprintf(line, sizeof line, "insns %llu muldiv %llu\n", (unsigned long long)insns,
             (unsigned long long)muldiv);
    FILE *f = out_path[0] ? fopen(out_path, "w") : NULL;
    if (f) {
        fputs(line, f);
        fclose(f);
    } else {
        qemu_plugin_outs(line);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "out=", 4))
            snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        else if (!strcmp(argv[i], "arch=sparc"))
            sparc = 1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
