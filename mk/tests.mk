# Test programs beyond the Makefile's kernel_* and diff_* patterns that no
# area fragment owns: the drivers the bats suites run (tests/bats/helpers/*.c
# as $(BUILD)/tests/e2e/NAME; area fragments add theirs to tests-build), the
# route drivers (tests/unit/route_*.c, linked with the shim core) and the
# modexp API driver of tests/versions, built once per libcrypto ABI.

# A bats driver, linked with the system's libcrypto.
$(BUILD)/tests/e2e/%: tests/bats/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto

# The vector reader (tests/unit/support/vectors.h) for drivers built outside
# the unit tests' rules.
VEC_SUPPORT := $(call obj,tests/unit/support/vectors.c tests/unit/support/json.c)

# The Wycheproof drivers read their JSON files themselves.
$(BUILD)/tests/e2e/rsa_sign_driver $(BUILD)/tests/e2e/dsa_verify_driver: \
    $(BUILD)/tests/e2e/%: tests/bats/helpers/%.c $(VEC_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto

ifeq ($(CROSS),)
# The Wycheproof RSA signing driver (tests/bats/wycheproof_rsa_sig.bats).
E2E_TEST_BINS := $(BUILD)/tests/e2e/rsa_sign_driver
tests-build: $(E2E_TEST_BINS)

# Route drivers: C programs linked with the shim core (tests/bats/routes_*.bats).
ROUTE_TESTS := $(BUILD)/tests/routes/route_resolve_race

$(BUILD)/tests/routes/%: tests/unit/%.c $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm

tests-build: $(ROUTE_TESTS)

# The modexp differential driver (tests/versions/modexp_api.c), one source
# built three ways: against the system's 3.0 (also run on 3.5 and 3.6 through
# their trees' loaders), against 1.1.1's libcrypto.so.1.1 and against 4.0's
# libcrypto.so.4 (its newer C library's symbols left to run time); the trees
# come from mk/openssl_builds.mk. A tree that is absent (a moving suite
# without the package) leaves its driver unbuilt: the tests skip with the
# tree's .missing message.
VERSIONS_DRIVERS := $(BUILD)/tests/versions/modexp_api $(BUILD)/tests/versions/modexp_api11 \
                    $(BUILD)/tests/versions/modexp_api40
VERSIONS_LIBDIR := root/usr/lib/x86_64-linux-gnu
tests-build: $(VERSIONS_DRIVERS)

$(BUILD)/tests/versions/modexp_api: tests/versions/modexp_api.c $(VEC_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DMODEXP_API_DUP -o $@ $^ -lcrypto

$(BUILD)/tests/versions/modexp_api11: tests/versions/modexp_api.c $(VEC_SUPPORT) | openssl11
	@mkdir -p $(dir $@)
	@if [ -f $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1 ]; then \
	    echo "$(CC) ... -o $@ $^ $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $^ $(BUILD)/openssl11/$(VERSIONS_LIBDIR)/libcrypto.so.1.1; fi

$(BUILD)/tests/versions/modexp_api40: tests/versions/modexp_api.c $(VEC_SUPPORT) | openssl40
	@mkdir -p $(dir $@)
	@if [ -f $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4 ]; then \
	    echo "$(CC) ... -o $@ $^ $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4"; \
	    $(CC) $(ALL_CFLAGS) -DMODEXP_API_DUP -o $@ $^ $(BUILD)/openssl40/$(VERSIONS_LIBDIR)/libcrypto.so.4 \
	        -Wl,--allow-shlib-undefined; fi
endif
