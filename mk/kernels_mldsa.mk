# ML-DSA (kernels/mldsa): the ISA flags of its folders in one place, then
# the tests beyond the Makefile's kernel_* pattern. Keccak's flags are in
# mk/kernels_keccak.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/mldsa/x86_64: AVX2 code generation for the whole folder; it runs
# only where the dispatcher saw AVX2 (cs_mldsa_avx2.cpu_features =
# CS_CPU_AVX2; BMI1, BMI2, POPCNT come with every AVX2 CPU). The AVX-512
# samplers, NTTs and elementwise hooks are used only by the "avx512" table, whose CS_CPU_AVX512IFMA bit
# implies F, BW, VL.
ifeq ($(ARCH),x86_64)
MLDSA_X86_FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt
$(BUILD)/obj/kernels/mldsa/x86_64/%.o: OBJ_CFLAGS += $(MLDSA_X86_FLAGS)
$(BUILD)/obj/kernels/mldsa/x86_64/expand_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
$(BUILD)/obj/kernels/mldsa/x86_64/rej_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/ntt_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/poly_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/pack_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
endif
# kernels/mldsa/s390x: the z13 vector facility for the vx_* files only (the
# cross baseline is older; cs_mldsa_s390x_vx runs only where VX is seen).
$(BUILD)/obj/kernels/mldsa/s390x/vx_%.o: OBJ_CFLAGS += -march=z13 -mzvector

# ---- Tests -------------------------------------------------------------
ifeq ($(CROSS),)
# The constant-time check runs the ordinary kernel objects under valgrind
# memcheck (scripts/run-tests.sh ct_suites); it needs valgrind's
# <valgrind/memcheck.h> (Debian package valgrind). Native only.
$(BUILD)/tests/ct_mldsa: tests/unit/ct_mldsa.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

# Prepared keys through OpenSSL 3.5 (tests/bats/mldsa_prepared.bats): a
# driver built against the system's 3.0 headers, run on 3.5's libcrypto.
$(BUILD)/tests/e2e/mldsa_prepared_driver: tests/bats/helpers/mldsa_prepared_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto -pthread

# Against stock OpenSSL 3.5 (tests/bats/mldsa_stock.bats): a driver walking
# key checks, parameter edge cases and failure points, built against the
# system's 3.0 headers and run on 3.5's (or 3.6's, 4.0's) libcrypto.
$(BUILD)/tests/e2e/mldsa_stock_driver: tests/bats/helpers/mldsa_stock_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto -ldl

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

# Secure heap use (tests/bats/mldsa_secure.bats).
$(BUILD)/tests/e2e/mldsa_secure_driver: tests/bats/helpers/mldsa_secure_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto

# The provider under valgrind in OpenSSL 3.5 (tests/bats/mldsa_valgrind.bats):
# $(BUILD)/openssl35-vg holds 3.5's loader made readable to valgrind
# (tests/bats/helpers/openssl35_vg.sh: libc6-dbg of the tree's libc6).
$(BUILD)/openssl35-vg/.done: tests/bats/helpers/openssl35_vg.sh | openssl35
	@tests/bats/helpers/openssl35_vg.sh $(BUILD)/openssl35 $(BUILD)/openssl35-vg

tests-build: $(BUILD)/tests/ct_mldsa $(BUILD)/tests/e2e/mldsa_prepared_driver \
             $(BUILD)/tests/e2e/mldsa_stock_driver $(BUILD)/tests/e2e/mldsa_stock_driver40 \
             $(BUILD)/tests/e2e/mldsa_secure_driver $(BUILD)/openssl35-vg/.done
endif
