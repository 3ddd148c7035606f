/* Which kernel serves an operation: the built-in measured policy, or a
 * policy file written by `cryptoshim calibrate`, filtered by CPU features
 * and CRYPTOSHIM_KERNELS. Decided once: when the policy is loaded (or the
 * controls re-read) every (operation, modulus bits) and every ML-DSA
 * parameter set gets its answer in a table (runtime/policy_table.c), so a
 * call on the hot path is one bounds check and one table read. */
#ifndef CRYPTOSHIM_DISPATCH_H
#define CRYPTOSHIM_DISPATCH_H

#include "policy.h"
#include "kernels/keccak/keccak.h"

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

/* Kernel for a modular exponentiation with a `bits`-bit modulus, called
 * from a libcrypto of that family (runtime/family.h), or NULL to pass it to
 * libcrypto (consttime: by the CS_OP_MOD_EXP_CT rules). */
const cs_bn_kernel *cs_dispatch_bn(int family, int consttime, unsigned bits);

/* Who serves a paired secret-exponent call on two `bits`-bit moduli from a
 * libcrypto of that family: returns
 * 1 with *k set (NULL: libcrypto's paired function) when a
 * CS_OP_MOD_EXP_CT_X2 rule, or under CRYPTOSHIM_KERNELS a forced kernel with
 * a paired entry, decides; 0 (and *k = NULL) when none does, and each half
 * then goes by the mod_exp_consttime rules. */
int cs_dispatch_bn_x2(int family, unsigned bits, const cs_bn_kernel **k);

/* Kernel for a simultaneous exponentiation a1^p1 * a2^p2 mod m (public
 * exponents) with a `bits`-bit modulus: by the CS_OP_MOD_EXP2 rules, or under
 * CRYPTOSHIM_KERNELS the forced kernel if it has an exp2 entry; NULL passes
 * the call to libcrypto. */
const cs_bn_kernel *cs_dispatch_bn2(int family, unsigned bits);

/* The implementation of registry family `family` (not CS_IMPL_BN) the
 * policy or CRYPTOSHIM_KERNELS chose for parameter set `set`
 * (cs_impl_sets), or NULL: libcrypto's own (for a provider family, the
 * provider does not offer it). Every family's accessor below reads it. */
const void *cs_dispatch_impl(int family, int set);

/* ML-DSA implementation for parameter set ps (44/65/87): the chosen one,
 * portable when the choice is libcrypto (never NULL: the provider has no
 * other way out once it offers ML-DSA). */
const cs_mldsa_impl *cs_dispatch_mldsa(int ps);
/* Whether an implementation was chosen for ML-DSA-ps (0: the policy leaves
 * it to libcrypto, or CRYPTOSHIM_DISABLE). */
int cs_dispatch_mldsa_serves(int ps);

/* The Keccak table for the hashes the shim runs outside an ML-DSA or
 * ML-KEM implementation (the provider's streamed mu, H(pk), H(ek) checks):
 * the chosen one, portable when none. */
const cs_keccak_impl *cs_dispatch_keccak(void);

/* Whether the policy came from a file (CRYPTOSHIM_POLICY or the system
 * file) rather than the built-in table. */
int cs_dispatch_policy_from_file(void);

#endif
