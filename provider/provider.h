/* What the rest of the library sees of the provider: its init function, for
 * registering it as a built-in provider from the preloaded shim. */
#ifndef CRYPTOSHIM_PROVIDER_H
#define CRYPTOSHIM_PROVIDER_H

#include <openssl/core.h>

#define CS_PROVIDER_NAME "cryptoshim"
#define CS_PROVIDER_VERSION "0.1"

/* OSSL_provider_init_fn for the cryptoshim provider: refuses (returns 0) on
 * OpenSSL 3.1-3.4 and
 * a core older than OpenSSL 3.5. */
int cs_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                     const OSSL_DISPATCH **out, void **provctx);

#endif
