# Differential fuzzing (tests/fuzz/, docs/fuzzing.md): libFuzzer targets
# built with Debian's clang (-fsanitize=fuzzer,address,undefined) against a
# copy of the core library built the same way under build/fuzz.
#   make fuzz            each target for FUZZ_SECONDS (default 60), its
#                        corpus growing under build/fuzz/corpus/NAME (seeded
#                        from tests/fuzz/corpus/NAME)
#   make test            each target for a few seconds on the tree's corpus
#                        (scripts/run-tests.sh fuzz_suites, tests/fuzz/smoke.sh)
#   make fuzz-campaign   the same as make fuzz with the campaign build
#                        (build/fuzz-campaign: -O2, UBSan and libFuzzer, no
#                        ASan), several times the executions per second for
#                        long runs; make test keeps ASan in its short runs
# A finding leaves crash-* under build/fuzz/findings/NAME and fails the run.
ifeq ($(CROSS),)
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CORE := $(FUZZ_BUILD)/libcryptoshim_core.a
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
# The campaign build: ASan's shadow checks, quarantine and page faults took
# most of each execution; memory errors stay covered by make test's runs.
FUZZ_CAMP_BUILD := build/fuzz-campaign
FUZZ_CAMP_SAN := -fsanitize=undefined -fno-sanitize-recover=undefined
FUZZ_CAMP_CORE := $(FUZZ_CAMP_BUILD)/libcryptoshim_core.a
FUZZ_CAMP_TARGETS := $(patsubst $(FUZZ_BUILD)/%,$(FUZZ_CAMP_BUILD)/%,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-campaign fuzz-campaign-build fuzz-clean FORCE
fuzz-build: $(FUZZ_TARGETS)
fuzz-campaign-build: $(FUZZ_CAMP_TARGETS)
tests-build: fuzz-build

# The core objects, instrumented for coverage and sanitizers; the recursive
# make keeps its own dependency tracking in build/fuzz.
ifneq ($(BUILD),$(FUZZ_BUILD))
$(FUZZ_CORE): FORCE
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_CORE)
endif
ifneq ($(BUILD),$(FUZZ_CAMP_BUILD))
$(FUZZ_CAMP_CORE): FORCE
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_CAMP_BUILD) CC=$(FUZZ_CC) CFLAGS="-O2 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_CAMP_SAN)" $(FUZZ_CAMP_CORE)
endif
FORCE:

# The kernels' carry and mask compares tell the fuzzer nothing about inputs
# and, traced, took half of each run: their coverage is kept, their compare
# tracing dropped.
$(FUZZ_BUILD)/obj/kernels/%.o $(FUZZ_CAMP_BUILD)/obj/kernels/%.o: \
    OBJ_CFLAGS += -fno-sanitize-coverage=trace-cmp

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_bn.h $(FUZZ_CORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	    -o $@ $< $(FUZZ_CORE) -lcrypto -ldl -pthread -lm

$(FUZZ_CAMP_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_bn.h $(FUZZ_CAMP_CORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O2 -g -fsanitize=fuzzer $(FUZZ_CAMP_SAN) \
	    -o $@ $< $(FUZZ_CAMP_CORE) -lcrypto -ldl -pthread -lm

clean: fuzz-clean
fuzz-clean:
	rm -rf $(FUZZ_BUILD) $(FUZZ_CAMP_BUILD)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_BUILD) $(notdir $(FUZZ_TARGETS))

# Its corpus and findings stay under build/fuzz (the runs share the corpus).
fuzz-campaign: fuzz-campaign-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BIN=$(FUZZ_CAMP_BUILD) tests/fuzz/run.sh $(FUZZ_BUILD) \
	    $(notdir $(FUZZ_CAMP_TARGETS))
endif
