# Fetched OpenSSL builds: other Debian releases' OpenSSL unpacked under
# $(BUILD)/NAME by scripts/fetch-debian-openssl.sh (nothing installed on the
# system), for the tests that the shim serves those versions; 3.0 is the
# system's. `make NAME` fetches one and prints the versions it got,
# `make openssl-versions` fetches them all, and `make deps` (mk/deps.mk) too.
# Each tree has bin/openssl and bin/run (any program through the tree's loader
# and libraries) and VERSION. Sid and experimental move: when a suite no
# longer carries a package, $(BUILD)/NAME/.missing says so and the tests that
# need NAME skip with that message.
#
# A new version is one row: NAME_SUITES (the suites apt may read,
# comma-separated) and NAME_PKGS (PACKAGE or PACKAGE/SUITE), and the name in
# OPENSSL_BUILDS. The suites can be overridden (`make openssl36
# OPENSSL36_SUITE=...`, or from the environment).
ifeq ($(CROSS),)
OPENSSL11_SUITE ?= bullseye
OPENSSL35_SUITE ?= trixie
OPENSSL36_SUITE ?= sid
OPENSSL40_SUITE ?= experimental
OPENSSL40_BASE_SUITE ?= sid

OPENSSL_BUILDS := openssl11 openssl35 openssl36 openssl40 openssh10
# 1.1.1 (Debian 11) runs on this system's C library.
openssl11_SUITES = $(OPENSSL11_SUITE)
openssl11_PKGS = openssl libssl1.1
# 3.5 (Debian 13).
openssl35_SUITES = $(OPENSSL35_SUITE)
openssl35_PKGS = openssl libssl3t64 libc6 zlib1g libzstd1
# 3.6 (sid): its libcrypto.so.3 is linked with DT_SYMBOLIC, so libcrypto's
# own calls never reach a preloaded definition (the method route serves it).
openssl36_SUITES = $(OPENSSL36_SUITE)
openssl36_PKGS = openssl libssl3t64 libc6 zlib1g libzstd1
# 4.0 (experimental; libssl4: libcrypto.so.4, every symbol at version
# OPENSSL_4.0.0, DT_SYMBOLIC). Experimental carries only openssl and libssl4;
# the C library (2.38 or later) and compression libraries come from sid.
openssl40_SUITES = $(OPENSSL40_SUITE),$(OPENSSL40_BASE_SUITE)
openssl40_PKGS = openssl/$(OPENSSL40_SUITE) libssl4/$(OPENSSL40_SUITE) libc6 zlib1g libzstd1
# OpenSSH 10.3+ (sid's binaries on sid's OpenSSL 3.6 and C library): it signs
# and verifies Ed25519 through libcrypto, so `cryptoshim ab ssh` can measure an
# Ed25519 host key. Sid's source packages are not reachable here, so this is
# Debian's build, not one against the system's 3.0. sshd execs sshd-session
# and sshd-auth by absolute path: the harness points SshdSessionPath and
# SshdAuthPath at wrappers through bin/run. The runtime libraries are the
# binaries' NEEDED closure (no ssh-keygen: the system's writes the same keys).
OPENSSH10_SUITE ?= sid
openssh10_SUITES = $(OPENSSH10_SUITE)
openssh10_PKGS = openssl libssl3t64 libc6 zlib1g libzstd1 openssh-server openssh-client \
    openssh-sftp-server libaudit1 libcap-ng0 libcrypt1 libedit2 libbsd0 libmd0 libtinfo6 libpam0g \
    libselinux1 libpcre2-8-0 libwrap0 libwtmpdb0 libsqlite3-0 libnsl2 libtirpc3t64 \
    libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1

OPENSSL_BUILD_BINS := $(patsubst %,$(BUILD)/%/bin/openssl,$(OPENSSL_BUILDS))
OPENSSL_BUILD_ROWS := $(patsubst %,$(BUILD)/%/.row,$(OPENSSL_BUILDS))
DEPS_OPENSSL += $(OPENSSL_BUILDS)

.PHONY: $(OPENSSL_BUILDS) openssl-versions openssl-build-rows
openssl-versions: $(OPENSSL_BUILDS)
tests-build: $(OPENSSL_BUILDS)

$(OPENSSL_BUILDS): %: $(BUILD)/%/bin/openssl
	@cat $(BUILD)/$@/VERSION 2>/dev/null || cat $(BUILD)/$@/.missing

# Re-fetch when the script or the build's row changes; the script itself
# skips work already done (DEST/.done).
$(OPENSSL_BUILD_BINS): $(BUILD)/%/bin/openssl: scripts/fetch-debian-openssl.sh $(BUILD)/%/.row
	@rm -f $(BUILD)/$*/.done
	@scripts/fetch-debian-openssl.sh $(BUILD)/$* '$($*_SUITES)' $($*_PKGS) >/dev/null

# Each build's row as a file, rewritten only when the row changes, so that a
# changed row re-fetches that build alone.
$(OPENSSL_BUILD_ROWS): $(BUILD)/%/.row: openssl-build-rows
	@mkdir -p $(dir $@)
	@echo '$($*_SUITES) $($*_PKGS)' | cmp -s - $@ || echo '$($*_SUITES) $($*_PKGS)' >$@
openssl-build-rows:
endif
