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

# The modexp differential driver (tests/versions/modexp_api.c), one source
# built three ways: against the system's 3.0 (also run on 3.5 and 3.6 through
# their trees' loaders), against 1.1.1's libcrypto.so.1.1 and against 4.0's
# libcrypto.so.4 (its newer C library's symbols left to run time). A tree that
# is absent (a moving suite without the package) leaves its driver unbuilt:
# the tests skip with the tree's .missing message.
ifeq ($(CROSS),)
VERSIONS_DRIVERS := $(BUILD)/tests/versions/modexp_api $(BUILD)/tests/versions/modexp_api11 \
                    $(BUILD)/tests/versions/modexp_api40
VERSIONS_LIBDIR := root/usr/lib/x86_64-linux-gnu
tests-build: $(VERSIONS_DRIVERS)

$(BUILD)/tests/versions/modexp_api: tests/versions/modexp_api.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DMODEXP_API_DUP -o $@ $< -lcrypto

$(BUILD)/tests/versions/modexp_api11: tests/versions/modexp_api.c | openssl11
	@mkdir -p $(dir $@)
	@if [ -f $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1 ]; then \
	    echo "$(CC) ... -o $@ $< $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1; fi

$(BUILD)/tests/versions/modexp_api40: tests/versions/modexp_api.c | openssl40
	@mkdir -p $(dir $@)
	@if [ -f $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4 ]; then \
	    echo "$(CC) ... -o $@ $< $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4"; \
	    $(CC) $(ALL_CFLAGS) -DMODEXP_API_DUP -o $@ $< $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4 \
	        -Wl,--allow-shlib-undefined; fi
endif
