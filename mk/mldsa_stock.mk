# ML-DSA against stock OpenSSL 3.5 (tests/bats/mldsa_stock.bats): a driver
# walking key checks, parameter edge cases and failure points, built against
# the system's 3.0 headers and run on 3.5's (or 3.6's, 4.0's) libcrypto.
ifeq ($(CROSS),)
$(BUILD)/tests/e2e/mldsa_stock_driver: tests/bats/helpers/mldsa_stock_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto -ldl

tests-build: $(BUILD)/tests/e2e/mldsa_stock_driver

# The same driver for OpenSSL 4.0 (libcrypto.so.4, symbols at OPENSSL_4.0.0):
# linked against the unpacked tree's library when `make openssl40` got it
# (its C library is newer than ours, hence --allow-shlib-undefined: the
# driver runs on that tree's loader and libc); nothing when it did not.
ML40_LIB := $(BUILD)/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
$(BUILD)/tests/e2e/mldsa_stock_driver40: tests/bats/helpers/mldsa_stock_driver.c | openssl40
	@mkdir -p $(dir $@)
	@if [ -e $(ML40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $< $(ML40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(ML40_LIB) -ldl -Wl,--allow-shlib-undefined; \
	else rm -f $@; fi

tests-build: $(BUILD)/tests/e2e/mldsa_stock_driver40
endif

# Secure heap use (tests/bats/mldsa_secure.bats).
ifeq ($(CROSS),)
$(BUILD)/tests/e2e/mldsa_secure_driver: tests/bats/helpers/mldsa_secure_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto

tests-build: $(BUILD)/tests/e2e/mldsa_secure_driver
endif
