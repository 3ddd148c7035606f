# X25519/Ed25519 through the provider against stock OpenSSL
# (tests/bats/c25519_*.bats): the driver built against the system's 3.0
# headers (also run on 3.5's and 3.6's libcrypto through their trees'
# loaders), and the same source linked against 4.0's libcrypto.so.4 when
# `make openssl40` got it (as mk/mlkem_tests.mk does).
ifeq ($(CROSS),)
C25519_40_LIB := $(BUILD)/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
$(BUILD)/tests/e2e/c25519_driver40: tests/bats/helpers/c25519_driver.c | openssl40
	@mkdir -p $(dir $@)
	@if [ -e $(C25519_40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $< $(C25519_40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(C25519_40_LIB) -Wl,--allow-shlib-undefined -ldl; \
	else rm -f $@; fi

tests-build: $(BUILD)/tests/e2e/c25519_driver $(BUILD)/tests/e2e/c25519_driver40
endif
