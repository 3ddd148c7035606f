# Sanitizers in `make test` (docs/developing.md, issue 14):
#  - asan suites: the differential tests and the kernel tests built with
#    AddressSanitizer and UBSan (fatal) against the fuzz build's instrumented
#    core (build/fuzz, mk/fuzz.mk: one instrumented build serves both), run
#    on a small case count with vectors from the tree (scripts/run-tests.sh
#    asan_suites). `make asan` is the long gcc run of the same tests.
#  - tsan suite: tests/tsan/first_call.c built with ThreadSanitizer, with the
#    shim library built with ThreadSanitizer preloaded (build/tsan): 8
#    threads race the process's first calls into the shim, one forks.
ifeq ($(CROSS),)
# Chosen to fit about two minutes of CPU: diff_modexp's fixed edge and
# bnmod.txt passes over every kernel take several minutes under ASan alone;
# it runs in `make asan`, and its entry is fuzzed under ASan in make test.
SAN_TESTS := $(patsubst tests/unit/%.c,$(FUZZ_BUILD)/tests/%, \
    $(wildcard tests/unit/diff_exp2.c tests/unit/diff_modexp_x2.c tests/unit/diff_policy.c \
               tests/unit/kernel_bn.c \
               tests/unit/kernel_bn_x86.c))
SAN_SUPPORT := $(patsubst $(BUILD)/%,$(FUZZ_BUILD)/%,$(TEST_SUPPORT))

TSAN_BUILD := build/tsan
TSAN_OBJS := $(patsubst $(BUILD)/%,$(TSAN_BUILD)/%,$(LIB_OBJS))
TSAN_LIB := $(TSAN_BUILD)/libcryptoshim-tsan.so
TSAN_DRIVER := $(TSAN_BUILD)/tests/tsan_first_call

.PHONY: sanitize-build tsan-clean san-support tsan-objs
sanitize-build: $(SAN_TESTS) $(TSAN_LIB) $(TSAN_DRIVER)
tests-build: sanitize-build

ifneq ($(BUILD),$(FUZZ_BUILD))
# The test support objects, built by the fuzz build's recursive make (one
# call for all).
san-support: $(FUZZ_CORE)
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(SAN_SUPPORT)
$(SAN_SUPPORT): san-support ;
endif

# Coverage hooks in the core objects resolve to the sanitizer runtime's
# defaults here (no libFuzzer linked).
$(FUZZ_BUILD)/tests/%: tests/unit/%.c $(SAN_SUPPORT) $(FUZZ_CORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -O1 -g $(WARN) -std=gnu11 -pthread -I. $(FUZZ_SAN) -o $@ $< $(SAN_SUPPORT) \
	    $(FUZZ_CORE) -lcrypto -ldl -pthread -lm

ifneq ($(BUILD),$(TSAN_BUILD))
# The library's objects, by one recursive make with its own dependency
# tracking.
tsan-objs:
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=thread" $(TSAN_OBJS)
$(TSAN_OBJS): tsan-objs ;
endif

# As the product library, minus -z defs: the TSan runtime's symbols come
# from the driver executable.
$(TSAN_LIB): $(TSAN_OBJS) $(VERSION_SCRIPT)
	$(FUZZ_CC) -fsanitize=thread -shared -o $@ $(TSAN_OBJS) \
	    -Wl,--version-script=$(VERSION_SCRIPT) -ldl -pthread

$(TSAN_DRIVER): tests/tsan/first_call.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -O1 -g $(WARN) -std=gnu11 -pthread -fsanitize=thread -o $@ $< -lcrypto -pthread

clean: tsan-clean
tsan-clean:
	rm -rf $(TSAN_BUILD)
endif
