# Every test rule in one place (docs/developing.md, "Tests"): the entry
# points (make check, make test and the partial runs), the unit,
# differential, policy and constant-time programs of tests/unit, and the
# drivers the bats suites run. KERNEL_TESTS, DIFF_TESTS and TEST_SUPPORT are
# the Makefile's (fragments included before this one read them). The
# emulated AVX-512 objects and their tests are mk/ctemu.mk's, the fuzz,
# ASan and TSan builds mk/sanitize.mk's, the cross-built v8 tests
# mk/oldhw.mk's.

# ---- Entry points --------------------------------------------------------
.PHONY: check test test-unit unit-build tests-build ct asan valgrind test-cross

# The fast tier for the edit-compile-test loop: the library, the CLI and
# the unit, differential and policy suites (scripts/run-tests.sh check:
# tests/unit/{kernel,diff,policy,stats}_*, the differential tests on
# CHECK_COUNT random cases, and tests/bats/{layout,policy,policy_args}.bats);
# no valgrind, sanitizer, fuzz, cross or end-to-end suites (make test runs
# those). Ends with the same summary line as make test.
CHECK_COUNT ?= 2000
check:
	@$(MAKE) --no-print-directory $(sub_jobs) all unit-build
	@BUILD=$(BUILD) VECTORS=$(VECTORS) CS_DIFF_COUNT=$(CHECK_COUNT) scripts/run-tests.sh check

# Kernel unit tests only (natively, or under qemu with CROSS=...).
test-unit: $(KERNEL_TESTS)
	@BUILD=$(BUILD) QEMU="$(QEMU)" VECTORS=$(VECTORS) scripts/run-tests.sh unit

# `make deps` (mk/deps.mk) first: on a fresh machine nothing builds without it.
test: deps
	@$(MAKE) --no-print-directory $(sub_jobs) tests-build
	@BUILD=$(BUILD) VECTORS=$(VECTORS) scripts/run-tests.sh all

# Cross kernel tests and the emulated end-to-end suites, including the SPARC
# v7 OpenSSL build (about an hour the first time, cached under build/).
test-cross:
	@BUILD=$(BUILD) VECTORS=$(VECTORS) CS_CROSS_FULL=1 scripts/run-tests.sh cross

# Constant-time check: ct_* programs under valgrind memcheck, secrets marked
# undefined; any report fails.
ct: tests-build
	@BUILD=$(BUILD) VECTORS=$(VECTORS) scripts/run-tests.sh ct

# Unit and differential tests built with AddressSanitizer and UBSan.
asan:
	$(MAKE) BUILD=build/asan EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -DCS_ROLL_LOOPS" \
	    CFLAGS="-O1 -g" unit-build
	@BUILD=build/asan VECTORS=$(VECTORS) CS_DIFF_COUNT=20000 scripts/run-tests.sh unit-diff

# The differential test (500 random cases) and the kernel vector tests under
# valgrind memcheck.
valgrind: tests-build
	@BUILD=$(BUILD) VECTORS=$(VECTORS) CS_DIFF_COUNT=500 scripts/run-tests.sh valgrind

unit-build: $(KERNEL_TESTS) $(DIFF_TESTS)
tests-build: all unit-build

# ---- Unit and differential tests (tests/unit) ------------------------------
# Links a test program with the core archive and the system's libcrypto.
define link_core_test
@mkdir -p $(dir $@)
$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm
endef

# kernel_*: no OpenSSL, the kernel objects only (also cross-built).
$(BUILD)/tests/kernel_%: tests/unit/kernel_%.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

# diff_*: against the system's libcrypto, through the core archive.
$(BUILD)/tests/diff_%: tests/unit/diff_%.c $(TEST_SUPPORT) $(CORE_A)
	$(link_core_test)

ifeq ($(CROSS),)
# policy_*, stats_*: the policy parser and loader, the stats tables (no
# OpenSSL needed, but the core archive is built with it); run with the
# differential tests.
POLICY_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,\
    $(wildcard tests/unit/policy_*.c tests/unit/stats_*.c))
unit-build: $(POLICY_TESTS)

$(BUILD)/tests/policy_%: tests/unit/policy_%.c $(TEST_SUPPORT) $(CORE_A)
	$(link_core_test)

$(BUILD)/tests/stats_%: tests/unit/stats_%.c $(TEST_SUPPORT) $(CORE_A)
	$(link_core_test)

# The provider's prepared ML-KEM keys (diff_mlkem_prepared.c) call its tables
# directly: the test links those provider objects beside the core archive.
MLKEM_PROV_OBJS := $(call obj,provider/mlkem_keymgmt.c provider/mlkem_kem.c provider/key.c provider/err.c \
                              provider/params.c provider/rand.c)
$(BUILD)/tests/diff_mlkem_prepared: tests/unit/diff_mlkem_prepared.c $(TEST_SUPPORT) \
                                    $(MLKEM_PROV_OBJS) $(CORE_A)
	$(link_core_test)

# ct_*: the constant-time checks, the ordinary kernel objects run under
# valgrind memcheck (scripts/run-tests.sh ct_suites; <valgrind/memcheck.h>
# from Debian's valgrind). The x86-64 kernels' checks only on x86-64.
CT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/ct_*.c))
ifneq ($(ARCH),x86_64)
CT_TESTS := $(filter-out $(BUILD)/tests/ct_bn_x86 $(BUILD)/tests/ct_bn_fma_x2,$(CT_TESTS))
endif
tests-build: $(CT_TESTS)

$(BUILD)/tests/ct_%: tests/unit/ct_%.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

# The portable big-number code with 32-bit limbs (-DCS_BN_LIMB32, what 32-bit
# SPARC runs), so make test covers both limb sizes: kernels.c lists ISA
# kernels built for 64-bit limbs, so only the portable objects.
BN_LIMB32_OBJS := $(patsubst %,$(BUILD)/obj/limb32/kernels/%.o,ct bn/engine bn/mont bn/portable \
                    bn/scratch)
tests-build: $(BUILD)/tests/kernel_bn_limb32 $(BUILD)/tests/ct_bn_exp_limb32

$(BUILD)/obj/limb32/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -MMD -MP -c $< -o $@

$(BUILD)/tests/%_limb32: tests/unit/%.c $(BN_LIMB32_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -o $@ $^ -lm
-include $(BN_LIMB32_OBJS:.o=.d)

# Route drivers: C programs linked with the shim core (tests/bats/routes_*.bats).
ROUTE_TESTS := $(BUILD)/tests/routes/route_resolve_race
tests-build: $(ROUTE_TESTS)

$(BUILD)/tests/routes/%: tests/unit/%.c $(CORE_A)
	$(link_core_test)
endif

# ---- Drivers of the bats suites (tests/bats/helpers, tests/versions) ------
# The vector reader (tests/unit/support/vectors.h), linked into every driver.
VEC_SUPPORT := $(call obj,tests/unit/support/vectors.c tests/unit/support/json.c)

# A bats driver (tests/bats/helpers/NAME.c as $(BUILD)/tests/e2e/NAME),
# linked with the vector reader and the system's libcrypto.
$(BUILD)/tests/e2e/%: tests/bats/helpers/%.c $(VEC_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread

# The same driver for OpenSSL 4.0 (NAME40: libcrypto.so.4, symbols at
# OPENSSL_4.0.0), linked against the unpacked tree's library when `make
# openssl40` got it (its C library is newer than ours, hence
# --allow-shlib-undefined: the driver runs on that tree's loader and libc);
# nothing when it did not (the suites then skip 4.0).
OSSL40_LIB := $(BUILD)/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
$(BUILD)/tests/e2e/%40: tests/bats/helpers/%.c $(VEC_SUPPORT) | openssl40
	@mkdir -p $(dir $@)
	@if [ -e $(OSSL40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $^ $(OSSL40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $^ $(OSSL40_LIB) -ldl -Wl,--allow-shlib-undefined; \
	else rm -f $@; fi

ifeq ($(CROSS),)
# wycheproof_rsa_sig.bats, dsa_verify.bats; mldsa_prepared.bats,
# mldsa_stock.bats (3.5, 3.6, 4.0), mldsa_secure.bats; mlkem_*.bats;
# c25519_*.bats; mlkem_keys.bats and mldsa_keys.bats: each stock driver built
# on the system's 3.0 headers (run on 3.5's and 3.6's libcrypto through their
# trees' bin/run) and for 4.0.
tests-build: $(addprefix $(BUILD)/tests/e2e/,rsa_sign_driver dsa_verify_driver \
    mldsa_prepared_driver mldsa_stock_driver mldsa_stock_driver40 mldsa_secure_driver \
    mlkem_stock_driver mlkem_stock_driver40 c25519_driver c25519_driver40 \
    mlkem_mldsa_keys_driver mlkem_mldsa_keys_driver40)

# The provider under valgrind in OpenSSL 3.5 (mldsa_valgrind.bats,
# mlkem_valgrind.bats): $(BUILD)/openssl35-vg holds 3.5's loader made
# readable to valgrind (tests/bats/helpers/openssl35_vg.sh: libc6-dbg of the
# tree's libc6).
$(BUILD)/openssl35-vg/.done: tests/bats/helpers/openssl35_vg.sh | openssl35
	@tests/bats/helpers/openssl35_vg.sh $(BUILD)/openssl35 $(BUILD)/openssl35-vg
tests-build: $(BUILD)/openssl35-vg/.done

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

# The fuzz targets (mk/sanitize.mk) also include headers of tests/unit/support
# (force_kernel.h, c25519_stock.h, mldsa_ref.h, mlkem_prov_calls.h).
$(FUZZ_TARGETS) $(FUZZ_CAMP_TARGETS): $(wildcard tests/unit/support/*.h)
