# ML-KEM and ML-DSA keys against stock OpenSSL (tests/bats/mlkem_keys.bats,
# tests/bats/mldsa_keys.bats): one driver, built against the system's 3.0
# headers (run on 3.5's and 3.6's libcrypto through their loaders) and
# linked against 4.0's libcrypto.so.4 when `make openssl40` got it.
ifeq ($(CROSS),)
KEYS40_LIB := $(BUILD)/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
$(BUILD)/tests/e2e/mlkem_mldsa_keys_driver40: tests/bats/helpers/mlkem_mldsa_keys_driver.c | openssl40
	@mkdir -p $(dir $@)
	@if [ -e $(KEYS40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $< $(KEYS40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(KEYS40_LIB) -Wl,--allow-shlib-undefined; \
	else rm -f $@; fi

tests-build: $(BUILD)/tests/e2e/mlkem_mldsa_keys_driver $(BUILD)/tests/e2e/mlkem_mldsa_keys_driver40
endif
