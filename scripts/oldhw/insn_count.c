/* QEMU TCG plugin for the old-hardware measurements: counts the guest
 * instructions a program executes and, for SPARC, how many of them are
 * hardware integer multiply or divide instructions (umul, smul, udiv,
 * sdiv and their cc forms, mulx, sdivx, udivx), which a SPARC v7 CPU lacks.
 * Counts are inline additions (no callbacks), so the overhead is small.
 * Usage: qemu-* -plugin insn_count.so,out=FILE[,arch=sparc][,profile=PFILE]
 * PROGRAM... FILE gets one line: "insns N muldiv M". With profile=, PFILE
 * gets where the instructions went: "OBJECT<TAB>OFFSET<TAB>INSNS" per
 * translated block that ran, OBJECT the file mapped there and OFFSET the
 * block's offset in that file (scripts/oldhw/profile.py names the
 * functions). qemu-user maps a guest's file mappings onto host file
 * mappings at guest address + guest base, so the host's /proc/self/maps,
 * read at exit, names them; a block's host address comes from
 * qemu_plugin_insn_haddr. Built against QEMU's own qemu-plugin.h
 * (extracted from Debian's qemu source by scripts/oldhw/build-plugin.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t insns, muldiv;
static char out_path[512], profile_path[512];
static int sparc;

/* One translated block for the profile: its host address, length and an
 * inline execution counter. Allocated in chunks that never move, since QEMU
 * adds to &count directly. Blocks retranslated at the same address get new
 * entries; the profile sums them. Single-threaded guests only: the inline
 * additions are not atomic. */
struct block {
    uintptr_t haddr;
    uint64_t n, count;
};
#define CHUNK 65536
static struct block *chunks[4096];
static size_t nblocks;

static struct block *new_block(void)
{
    size_t c = nblocks / CHUNK;
    if (c >= sizeof chunks / sizeof chunks[0])
        return NULL;
    if (!chunks[c] && !(chunks[c] = calloc(CHUNK, sizeof(struct block))))
        return NULL;
    return &chunks[c][nblocks++ % CHUNK];
}

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
    struct block *b = profile_path[0] && n ? new_block() : NULL;
    if (b) {
        b->haddr = (uintptr_t)qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, 0));
        b->n = n;
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, 1);
    }
    if (!sparc)
        return;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_size(insn) == 4 && sparc_is_muldiv(qemu_plugin_insn_data(insn)))
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                       &muldiv, 1);
    }
}

/* One host mapping from /proc/self/maps. */
struct map {
    uintptr_t lo, hi, off;
    char path[256];
};

/* Writes the profile: each executed block's object and file offset and its
 * instructions executed, by the host mappings at exit. Blocks in anonymous
 * memory (or unmapped by then) are written as "?" with their host address. */
static void write_profile(void)
{
    static struct map maps[4096];
    size_t nm = 0;
    char line[512];
    FILE *m = fopen("/proc/self/maps", "r");
    while (m && nm < sizeof maps / sizeof maps[0] && fgets(line, sizeof line, m)) {
        unsigned long lo, hi, off;
        char perms[8], dev[16], path[256] = "";
        unsigned long ino;
        if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %255s", &lo, &hi, perms, &off, dev, &ino,
                   path) >= 6 && path[0] == '/') {
            maps[nm].lo = lo;
            maps[nm].hi = hi;
            maps[nm].off = off;
            snprintf(maps[nm].path, sizeof maps[nm].path, "%s", path);
            nm++;
        }
    }
    if (m)
        fclose(m);
    FILE *f = fopen(profile_path, "w");
    if (!f)
        return;
    for (size_t i = 0; i < nblocks; i++) {
        const struct block *b = &chunks[i / CHUNK][i % CHUNK];
        if (!b->count)
            continue;
        size_t j = 0;
        while (j < nm && !(b->haddr >= maps[j].lo && b->haddr < maps[j].hi))
            j++;
        if (j < nm)
            fprintf(f, "%s\t%lx\t%llu\n", maps[j].path,
                    (unsigned long)(b->haddr - maps[j].lo + maps[j].off),
                    (unsigned long long)(b->count * b->n));
        else
            fprintf(f, "?\t%lx\t%llu\n", (unsigned long)b->haddr,
                    (unsigned long long)(b->count * b->n));
    }
    fclose(f);
}

/* At exit: the totals, to out= or QEMU's log, and the profile. */
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
    if (profile_path[0])
        write_profile();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "out=", 4))
            snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        else if (!strncmp(argv[i], "profile=", 8))
            snprintf(profile_path, sizeof profile_path, "%s", argv[i] + 8);
        else if (!strcmp(argv[i], "arch=sparc"))
            sparc = 1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
