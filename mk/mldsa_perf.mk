# ML-DSA prepared keys through OpenSSL 3.5 (tests/bats/mldsa_prepared.bats):
# a driver built against the system's 3.0 headers, run on 3.5's libcrypto.
ifeq ($(CROSS),)
$(BUILD)/tests/e2e/mldsa_prepared_driver: tests/bats/helpers/mldsa_prepared_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto -pthread

tests-build: $(BUILD)/tests/e2e/mldsa_prepared_driver
endif
