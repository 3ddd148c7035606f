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

# The provider's prepared keys (tests/unit/diff_mlkem_prepared.c) call its
# ML-KEM tables directly: the test links those provider objects beside the
# core archive (the Makefile's diff_% rule links the core alone).
ifeq ($(CROSS),)
MLKEM_PROV_OBJS := $(call obj,provider/mlkem_keymgmt.c provider/mlkem_kem.c provider/key.c provider/err.c \
                              provider/params.c provider/rand.c)
$(BUILD)/tests/diff_mlkem_prepared: tests/unit/diff_mlkem_prepared.c $(TEST_SUPPORT) \
                                    $(MLKEM_PROV_OBJS) $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm
endif
