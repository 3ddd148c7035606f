# Every OpenSSL the tests run against (issue 12): `make openssl-versions`
# fetches Debian's 1.1.1 (bullseye), 3.5 (trixie), 3.6 (sid) and 4.0
# (experimental) under $(BUILD)/openssl{11,35,36,40}; 3.0 is the system's.
# `make deps` (mk/deps.mk) fetches them all through DEPS_OPENSSL.
ifeq ($(CROSS),)
OPENSSL_VERSION_TREES := openssl11 openssl35 openssl36 openssl40
DEPS_OPENSSL += openssl36 openssl40

openssl-versions: $(OPENSSL_VERSION_TREES)
.PHONY: openssl-versions
endif
