/* Which kernel serves an operation: the built-in measured policy, or a
 * policy file written by `cryptoshim calibrate`, filtered by CPU features
 * and CRYPTOSHIM_KERNELS. Decided once: when the policy is loaded (or the
 * controls re-read) every (operation, modulus bits) and every ML-DSA
 * parameter set gets its answer in a table (runtime/policy_table.c), so a
 * call on the hot path is one bounds check and one table read. */
#ifndef CRYPTOSHIM_DISPATCH_H
#define CRYPTOSHIM_DISPATCH_H

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

/* A policy rule: for op on moduli of min_bits..max_bits, use kernel (or
 * "libcrypto"), on CPUs lacking every feature named in `without` (comma
 * list, may be empty): a kernel may beat libcrypto only where libcrypto's
 * own best path is missing. The first rule that matches and whose kernel can
 * run wins. In a policy file: `op min_bits max_bits kernel [!feat,!feat]`. */
typedef struct cs_policy_rule {
    char op[24];
    unsigned min_bits, max_bits;
    char kernel[24];
    char without[48];
} cs_policy_rule;

/* The built-in policy for this architecture, as policy-file text (the form
 * `cryptoshim calibrate` writes), parsed at start by the file parser
 * (runtime/policy_builtin.c; the measurements behind each rule are in
 * docs/benchmarks.md). */
extern const char cs_policy_builtin_text[];

/* Loads the policy: CRYPTOSHIM_POLICY's file, else /etc/cryptoshim/policy
 * when it is there (written by `calibrate --install`), if trusted and valid
 * (runtime/policy.h), else the built-in table. Constructor and CLI. */
void cs_dispatch_init(void);
/* The same with another system policy path (tests; not an environment
 * variable, so a setuid program cannot be pointed elsewhere). */
void cs_dispatch_init_with(const char *system_path);
/* Where the rules came from and why a file was ignored (runtime/policy.h). */
struct cs_policy_status;
const struct cs_policy_status *cs_dispatch_policy_status(void);
/* Rebuilds the decision table from the rules already loaded and the
 * controls as they are now (cs_controls_load calls it); nothing before the
 * first cs_dispatch_init. Like init, not to race a concurrent reload: calls
 * on other threads see the old table or the new one, whole. */
void cs_dispatch_refresh(void);
/* The rules in force (as parsed, before CPU and kernel filtering) and their
 * count (tests compare the table with a scan of them). */
const cs_policy_rule *cs_dispatch_rules(unsigned *count);

/* Kernel for a modular exponentiation with a `bits`-bit modulus, or NULL to
 * pass it to libcrypto (consttime: by the CS_OP_MOD_EXP_CT rules). */
const cs_bn_kernel *cs_dispatch_bn(int consttime, unsigned bits);

/* Who serves a paired secret-exponent call on two `bits`-bit moduli: returns
 * 1 with *k set (NULL: libcrypto's paired function) when a
 * CS_OP_MOD_EXP_CT_X2 rule, or under CRYPTOSHIM_KERNELS a forced kernel with
 * a paired entry, decides; 0 (and *k = NULL) when none does, and each half
 * then goes by the mod_exp_consttime rules. */
int cs_dispatch_bn_x2(unsigned bits, const cs_bn_kernel **k);

/* Kernel for a simultaneous exponentiation a1^p1 * a2^p2 mod m (public
 * exponents) with a `bits`-bit modulus: by the CS_OP_MOD_EXP2 rules, or under
 * CRYPTOSHIM_KERNELS the forced kernel if it has an exp2 entry; NULL passes
 * the call to libcrypto. */
const cs_bn_kernel *cs_dispatch_bn2(unsigned bits);

/* Whether a kernel can run here (CPU features, CRYPTOSHIM_KERNELS). */
int cs_bn_kernel_usable(const cs_bn_kernel *k);
const cs_bn_kernel *cs_bn_kernel_by_name(const char *name);

/* ML-DSA implementation for parameter set ps (44/65/87): the fastest usable
 * one (never NULL: portable always runs). */
const cs_mldsa_impl *cs_dispatch_mldsa(int ps);

/* Whether the policy came from a file (CRYPTOSHIM_POLICY or the system
 * file) rather than the built-in table. */
int cs_dispatch_policy_from_file(void);

/* Parses policy text (lines "op min_bits max_bits kernel", # comments) into
 * rules; returns the number parsed or -1 on any error (cs_policy_parse_text
 * in runtime/policy.h says which). */
int cs_policy_parse(const char *text, cs_policy_rule *rules, unsigned max_rules);

#endif
