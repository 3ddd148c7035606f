# ML-DSA against stock OpenSSL 3.5 (tests/bats/mldsa_stock.bats): a driver
# walking key checks, parameter edge cases and failure points, built against
# the system's 3.0 headers and run on 3.5's (or 3.6's, 4.0's) libcrypto.
ifeq ($(CROSS),)
$(BUILD)/tests/e2e/mldsa_stock_driver: tests/bats/helpers/mldsa_stock_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto -ldl

tests-build: $(BUILD)/tests/e2e/mldsa_stock_driver
endif
