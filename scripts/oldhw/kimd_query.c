/* Prints what the CPU (or emulator) reports in the KIMD and KLMD query
 * (function code 0: a 128-bit mask of installed function codes, bit 0
 * leftmost) and names the SHA function codes among them, to find out
 * whether an emulator offers the SHA-3/SHAKE codes the shim's CPACF
 * Keccak (kernels/keccak/s390x/cpacf.c) needs: SHAKE-128 36, SHAKE-256 37.
 * Usage (static s390x build): qemu-s390x [-cpu MODEL] kimd_query */
#include <stdio.h>
#include <string.h>

/* The query of the message-digest instruction with opcode op (0xb93e KIMD,
 * 0xb93f KLMD) into mask. */
#define QUERY(op, mask)                                                       \
    do {                                                                      \
        register unsigned long r0 __asm__("0") = 0;                           \
        register unsigned long r1 __asm__("1") = (unsigned long)(mask);       \
        register unsigned long r2 __asm__("2") = 0, r3 __asm__("3") = 0;      \
        __asm__ volatile("0:\t.insn\trre," op ",0,2\n\tbrc\t1,0b"            \
                         : "+d"(r2), "+d"(r3)                                 \
                         : "d"(r0), "a"(r1)                                   \
                         : "cc", "memory");                                   \
    } while (0)

static void show(const char *name, const unsigned char m[16])
{
    static const struct { int fc; const char *name; } codes[] = {
        {1, "SHA-1"},      {2, "SHA-256"},   {3, "SHA-512"},   {32, "SHA3-224"},
        {33, "SHA3-256"},  {34, "SHA3-384"}, {35, "SHA3-512"}, {36, "SHAKE-128"},
        {37, "SHAKE-256"}, {65, "GHASH"},
    };
    printf("%s query:", name);
    for (int i = 0; i < 16; i++)
        printf("%s%02x", i % 4 ? "" : " ", m[i]);
    printf("\n%s functions:", name);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if ((m[codes[i].fc / 8] >> (7 - codes[i].fc % 8)) & 1)
            printf(" %s(%d)", codes[i].name, codes[i].fc);
    printf("\n");
}

int main(void)
{
    unsigned char kimd[16] __attribute__((aligned(8))), klmd[16] __attribute__((aligned(8)));
    memset(kimd, 0, sizeof kimd);
    memset(klmd, 0, sizeof klmd);
    QUERY("0xb93e0000", kimd);
    QUERY("0xb93f0000", klmd);
    show("KIMD", kimd);
    show("KLMD", klmd);
    int shake = ((kimd[4] >> 3) & 1) && ((kimd[4] >> 2) & 1);
    printf("SHAKE-128/256 in KIMD: %s\n", shake ? "yes" : "no");
    return 0;
}
