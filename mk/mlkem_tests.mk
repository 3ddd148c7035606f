# ML-KEM through the provider against stock OpenSSL (tests/bats/mlkem_*.bats):
# the driver built against the system's 3.0 headers (run on 3.5's and 3.6's
# libcrypto through their trees' loaders), and the same source linked
# against 4.0's libcrypto.so.4 when `make openssl40` got it (its newer C
# library's symbols left to run time, as mk/kernels_mldsa.mk does).
ifeq ($(CROSS),)
MLKEM40_LIB := $(BUILD)/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
$(BUILD)/tests/e2e/mlkem_stock_driver40: tests/bats/helpers/mlkem_stock_driver.c | openssl40
	@mkdir -p $(dir $@)
	@if [ -e $(MLKEM40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $< $(MLKEM40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(MLKEM40_LIB) -Wl,--allow-shlib-undefined; \
	else rm -f $@; fi

tests-build: $(BUILD)/tests/e2e/mlkem_stock_driver $(BUILD)/tests/e2e/mlkem_stock_driver40
endif
