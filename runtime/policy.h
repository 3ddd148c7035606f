/* Policy files: the strict parser (every line checked, the first error
 * reported with its line number, nothing applied from a bad file), the
 * loader (which files are trusted, read without blocking, size-capped) and
 * the decision table the accepted rules become (runtime/policy_table.c),
 * which the dispatcher (runtime/dispatch.c) reads on every call. */
#ifndef CRYPTOSHIM_POLICY_H
#define CRYPTOSHIM_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "family.h"
#include "registry.h"
#include "kernels/bn/bn_kernel.h"
#include "kernels/mldsa/mldsa.h"

/* Operation names, also used in stats and policy files. */
#define CS_OP_MOD_EXP "mod_exp"
#define CS_OP_MOD_EXP_CT "mod_exp_consttime"
#define CS_OP_MOD_EXP_CT_X2 "mod_exp_consttime_x2" /* paired: RSA CRT halves */
#define CS_OP_MOD_EXP2 "mod_exp2" /* a1^p1 * a2^p2, public: DSA verification */
#define CS_OP_MLDSA_KEYGEN "mldsa_keygen"
#define CS_OP_MLDSA_SIGN "mldsa_sign"
#define CS_OP_MLDSA_VERIFY "mldsa_verify"

/* The operations of the other families' rules are the family names of
 * runtime/registry.h ("mldsa", "mlkem", "keccak", "c25519"), and their
 * bits the parameter set (cs_impl_sets). */

/* A policy rule: for op on moduli of min_bits..max_bits (for the other
 * families: parameter sets), use kernel (an implementation of op's family,
 * or "libcrypto": leave it to the library, which for a provider family
 * means the provider does not offer that algorithm; not for Keccak), on CPUs lacking every feature named in `without` and having
 * every feature named in `with` (comma lists, may be empty), for calls into libcryptos of the families in
 * `families` (CS_FAMILY_BIT set; 0: every family): a kernel may beat
 * libcrypto only where libcrypto's own best path is missing, and what
 * libcrypto's own path is depends on its family. The first rule that
 * matches and whose kernel can run wins. In a policy file:
 * `op min_bits max_bits kernel [!feat,+feat] [@family,family]`. */
typedef struct cs_policy_rule {
    char op[24];
    unsigned min_bits, max_bits;
    char kernel[24];
    char without[48];
    char with[48];
    unsigned families;
} cs_policy_rule;

/* The built-in policy for this architecture, as policy-file text (the form
 * `cryptoshim calibrate` writes), parsed at start by the file parser
 * (runtime/policy_builtin.c; the measurements behind each rule are in
 * docs/benchmarks.md). */
extern const char cs_policy_builtin_text[];
/* Where the built-in policy's figures come from on this architecture, one
 * line for `cryptoshim info` (runtime/policy_builtin.c). */
extern const char cs_policy_builtin_origin[];

/* Parses policy text (lines "op min_bits max_bits kernel", # comments) into
 * rules; returns the number parsed or -1 on any error (cs_policy_parse_text
 * says which). */
int cs_policy_parse(const char *text, cs_policy_rule *rules, unsigned max_rules);

/* Whether a kernel can run here (CPU features, CRYPTOSHIM_KERNELS):
 * cs_impl_usable(CS_IMPL_BN, k). */
int cs_bn_kernel_usable(const cs_bn_kernel *k);

/* The registry family whose rules use operation op: CS_IMPL_BN for the
 * modular exponentiations, the family named op, or -1. */
int cs_policy_op_family(const char *op);

/* The parameter sets a family's decisions are kept for, in its rules'
 * bits: ML-DSA 44, 65, 87; ML-KEM 512, 768, 1024; Keccak 1600 (its width:
 * one choice); X25519/Ed25519 25519 (one choice); 0 ends the list. */
#define CS_IMPL_SETS 3
extern const unsigned cs_impl_sets[CS_IMPL_FAMILIES][CS_IMPL_SETS];
/* Index of parameter set `set` in the family's list; sets not listed
 * share index 0's decision. */
unsigned cs_impl_set_index(int family, int set);
/* The kernel of this build with that name, or NULL. */
const cs_bn_kernel *cs_bn_kernel_by_name(const char *name);

/* The system-wide policy written by `cryptoshim calibrate --install`, read at
 * start when CRYPTOSHIM_POLICY is unset. */
#define CS_POLICY_SYSTEM_DIR "/etc/cryptoshim"
#define CS_POLICY_SYSTEM_FILE "policy"
/* Files above this size are refused unread (calibrate writes about 5 KiB). */
#define CS_POLICY_MAX_BYTES 65536
#define CS_POLICY_MAX_LINE 255
/* Bit counts in rules: 0..this; larger (or negative, or not decimal) is an
 * error rather than a wrapped value. */
#define CS_POLICY_MAX_BITS 1000000u

/* What a file says about itself: `cpu SIGNATURE` (the CPU it was measured on,
 * cs_cpu_signature) and `measured WHEN` lines; `end` closes a calibrated
 * file, so a truncated one is detected. */
typedef struct cs_policy_meta {
    char cpu[128];
    char measured[32];
    int ended;
} cs_policy_meta;

/* Parses len bytes of policy text into at most max rules. Returns the number
 * of rules, or -1 with one line "line N: what is wrong" in err: any byte
 * outside printable ASCII, tab and newline, a line over CS_POLICY_MAX_LINE, an
 * unknown operation, kernel (not in this build, nor "libcrypto") or
 * feature, a number that is not plain decimal within 0..CS_POLICY_MAX_BITS,
 * an empty range, extra words, too many rules, anything after `end`, and a
 * file that has a `cpu` line but no `end` (truncated). meta may be NULL. */
int cs_policy_parse_text(const char *text, size_t len, cs_policy_rule *rules, unsigned max,
                         cs_policy_meta *meta, char *err, size_t errlen);

/* Where the rules in force came from, for `cryptoshim info`. */
typedef struct cs_policy_status {
    char source[160];   /* "built-in" or the file's path */
    char measured[32];  /* from the file's `measured` line, or "" */
    char note[320];     /* why a file was not used, or "" */
} cs_policy_status;

/* Loads the policy for this process into rules: CRYPTOSHIM_POLICY's file
 * (env_path; "builtin" means the built-in table), else system_path if it
 * exists. A file is used only if it is a regular file (no symlink, FIFO or
 * device: opened O_NONBLOCK|O_NOFOLLOW), owned by root or (env_path only) the
 * effective user, not writable by group or others, within the size cap, parses
 * whole, and was measured on this CPU when it says where. The system file
 * must also sit in a root-owned directory not writable by others and carry a
 * CPU signature. Returns the number of rules, or -1 (use the built-in table;
 * status->note says why when a file was refused). Constructor and CLI. */
int cs_policy_load(const char *env_path, const char *system_path, cs_policy_rule *rules,
                   unsigned max, cs_policy_status *status);

/* The decision table. Every modulus size a kernel may serve has its own
 * entry per operation (CS_BN_MIN_BITS..CS_BN_MAX_BITS, one byte each: 31 KiB
 * on 64-bit), so any rule or kernel bound (831, 1025, ...) stays exact; the
 * byte is a code, the code's kernel sits in `kernel`. */
#define CS_DISPATCH_SPAN (CS_BN_MAX_BITS - CS_BN_MIN_BITS + 1)
#define CS_DISPATCH_MAX_KERNELS 62 /* big-number kernels a build may have */
enum cs_dispatch_op { CS_DOP_MOD_EXP, CS_DOP_MOD_EXP_CT, CS_DOP_MOD_EXP_CT_X2, CS_DOP_MOD_EXP2,
                      CS_DOP_COUNT };
enum {
    CS_DCODE_NONE = 0,      /* no rule decides (NULL; for x2: each half by its own rules) */
    CS_DCODE_LIBCRYPTO = 1, /* a rule names libcrypto (NULL; for x2: libcrypto's pair) */
    CS_DCODE_KERNEL0 = 2    /* + index in cs_bn_kernels */
};
typedef struct cs_dispatch_table {
    /* [family][op][bits - CS_BN_MIN_BITS] */
    uint8_t code[CS_FAMILY_COUNT][CS_DOP_COUNT][CS_DISPATCH_SPAN];
    const cs_bn_kernel *kernel[CS_DCODE_KERNEL0 + CS_DISPATCH_MAX_KERNELS]; /* by code */
    /* The other families: [family][registry family][set index] -> the
     * implementation, NULL for libcrypto (the provider does not offer it;
     * Keccak: portable). */
    const void *impl[CS_FAMILY_COUNT][CS_IMPL_FAMILIES][CS_IMPL_SETS];
} cs_dispatch_table;

/* Operation index of a policy operation name, or -1. */
int cs_dispatch_op_index(const char *op);

/* Fills t with the decisions n rules give under the controls and CPU
 * features in force now, per libcrypto family and for every registry
 * family alike: the first usable rule for that libcrypto family wins per
 * size (parameter set) as the rule lists read; in a family CRYPTOSHIM_KERNELS
 * forces, its implementations instead (runtime/registry.h); nothing (all
 * libcrypto) under CRYPTOSHIM_DISABLE. Rules naming a kernel this build
 * lacks, whose `without` features the CPU has or whose `with` features it
 * lacks, are skipped; a size no rule decides goes to libcrypto. */
void cs_dispatch_table_build(cs_dispatch_table *t, const cs_policy_rule *rules, unsigned n);

#endif
