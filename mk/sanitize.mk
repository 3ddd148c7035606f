# Sanitizer builds (clang; docs/fuzzing.md, docs/developing.md): the
# libFuzzer targets and the instrumented core they link (build/fuzz), which
# the ASan suites of `make test` reuse, and the ThreadSanitizer build
# (build/tsan). One fragment: the suites below depend on the fuzz build's
# variables and core.
#
# Differential fuzzing (tests/fuzz/, docs/fuzzing.md): libFuzzer targets
# built with Debian's clang (-fsanitize=fuzzer,address,undefined) against a
# copy of the core library built the same way under build/fuzz.
#   make fuzz            each target for FUZZ_SECONDS (default 60), its
#                        corpus growing under build/fuzz/corpus/NAME (seeded
#                        from tests/fuzz/corpus/NAME)
#   make test            each target for a few seconds on the tree's corpus
#                        (scripts/run-tests.sh fuzz_suites, tests/fuzz/smoke.sh)
#   make fuzz-campaign   TARGET=NAME SECONDS=N: a resumable campaign with
#                        the campaign build (tests/fuzz/campaign.sh)
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
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) -DCS_ROLL_LOOPS" $(FUZZ_CORE)
endif
ifneq ($(BUILD),$(FUZZ_CAMP_BUILD))
$(FUZZ_CAMP_CORE): FORCE
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_CAMP_BUILD) CC=$(FUZZ_CC) CFLAGS="-O2 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_CAMP_SAN) -DCS_ROLL_LOOPS" $(FUZZ_CAMP_CORE)
endif
FORCE:

# The kernels' carry and mask compares tell the fuzzer nothing about inputs
# and, traced, took half of each run: their coverage is kept, their compare
# tracing dropped (the emulated ones' below too).
$(FUZZ_BUILD)/obj/kernels/%.o $(FUZZ_CAMP_BUILD)/obj/kernels/%.o \
    $(FUZZ_BUILD)/obj/ctemu/kernels/%.o $(FUZZ_CAMP_BUILD)/obj/ctemu/kernels/%.o: \
    OBJ_CFLAGS += -fno-sanitize-coverage=trace-cmp

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_CORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	    -o $@ $< $(FUZZ_EXTRA) $(FUZZ_CORE) -lcrypto -ldl -pthread -lm

$(FUZZ_CAMP_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_CAMP_CORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O2 -g -fsanitize=fuzzer $(FUZZ_CAMP_SAN) \
	    -o $@ $< $(FUZZ_EXTRA) $(FUZZ_CAMP_CORE) -lcrypto -ldl -pthread -lm

# fuzz_mlkem_prov calls the provider's ML-KEM tables: it links those provider
# objects, built by the fuzz (or campaign) build's recursive make beside its
# core.
FUZZ_PROV_SRCS := provider/mlkem_keymgmt.c provider/mlkem_kem.c provider/key.c provider/err.c provider/params.c \
                  provider/rand.c
FUZZ_PROV_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(FUZZ_PROV_SRCS))
FUZZ_CAMP_PROV_OBJS := $(patsubst %.c,$(FUZZ_CAMP_BUILD)/obj/%.o,$(FUZZ_PROV_SRCS))

# $(call fuzz_sub_objs,NAME,OBJS,CAMP_OBJS): OBJS made by the fuzz build's
# recursive make and CAMP_OBJS by the campaign build's, each after its core,
# under the phony targets fuzz-NAME and fuzz-camp-NAME (for $(eval)).
define fuzz_sub_objs
.PHONY: fuzz-$(1) fuzz-camp-$(1)
ifneq ($$(BUILD),$$(FUZZ_BUILD))
fuzz-$(1): $$(FUZZ_CORE)
	@$$(MAKE) --no-print-directory BUILD=$$(FUZZ_BUILD) CC=$$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $$(FUZZ_SAN) -DCS_ROLL_LOOPS" $(2)
$(2): fuzz-$(1) ;
endif
ifneq ($$(BUILD),$$(FUZZ_CAMP_BUILD))
fuzz-camp-$(1): $$(FUZZ_CAMP_CORE)
	@$$(MAKE) --no-print-directory BUILD=$$(FUZZ_CAMP_BUILD) CC=$$(FUZZ_CC) CFLAGS="-O2 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $$(FUZZ_CAMP_SAN) -DCS_ROLL_LOOPS" $(3)
$(3): fuzz-camp-$(1) ;
endif
endef
$(eval $(call fuzz_sub_objs,prov-objs,$(FUZZ_PROV_OBJS),$(FUZZ_CAMP_PROV_OBJS)))
$(FUZZ_BUILD)/fuzz_mlkem_prov: tests/fuzz/fuzz_mlkem_prov.c $(FUZZ_CORE) $(FUZZ_PROV_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	    -o $@ $< $(FUZZ_PROV_OBJS) $(FUZZ_CORE) -lcrypto -ldl -pthread -lm
$(FUZZ_CAMP_BUILD)/fuzz_mlkem_prov: tests/fuzz/fuzz_mlkem_prov.c $(FUZZ_CAMP_CORE) $(FUZZ_CAMP_PROV_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(WARN) -std=gnu11 -pthread -I. -O2 -g -fsanitize=fuzzer $(FUZZ_CAMP_SAN) \
	    -o $@ $< $(FUZZ_CAMP_PROV_OBJS) $(FUZZ_CAMP_CORE) -lcrypto -ldl -pthread -lm

# fuzz_x25519 and fuzz_ed25519 on x86-64 also compare an emulated copy of the
# curves' x86_64-ifma table (tests/fuzz/fuzz_c25519.h), so its AVX-512 IFMA
# ladder and verification are fuzzed on CPUs without AVX-512: ifma.c,
# ladder_ifma.c and double_mul_ifma.c built by mk/ctemu.mk's emulation rule
# in the fuzz build's own make (its compiler and instrumentation), then
# every global symbol they define suffixed _emu (objcopy, so they sit beside
# the native table); the targets get -DFUZZ_C25519_IFMA_EMU and the objects
# through FUZZ_EXTRA.
ifeq ($(ARCH),x86_64)
FUZZ_EMU_SRCS := $(addprefix kernels/c25519/x86_64/,ifma.c ladder_ifma.c double_mul_ifma.c)
fuzz_emu_objs = $(patsubst %.c,$(1)/obj/emu/%.o,$(FUZZ_EMU_SRCS))
FUZZ_EMU_MAP := $(BUILD)/obj/emu/rename.map
$(BUILD)/obj/ctemu/kernels/c25519/x86_64/ifma.o: OBJ_CFLAGS += -madx
$(FUZZ_EMU_MAP): $(patsubst %.c,$(BUILD)/obj/ctemu/%.o,$(FUZZ_EMU_SRCS))
	@mkdir -p $(dir $@)
	$(NM) -g --defined-only --format=posix $^ | awk 'NF >= 3 && $$1 !~ /:$$/ { print $$1, $$1 "_emu" }' | sort -u >$@
$(BUILD)/obj/emu/%.o: $(BUILD)/obj/ctemu/%.o $(FUZZ_EMU_MAP)
	@mkdir -p $(dir $@)
	$(OBJCOPY) --redefine-syms=$(FUZZ_EMU_MAP) $< $@
-include $(patsubst %.c,$(BUILD)/obj/ctemu/%.d,$(FUZZ_EMU_SRCS))

FUZZ_EMU_OBJS := $(call fuzz_emu_objs,$(FUZZ_BUILD))
FUZZ_CAMP_EMU_OBJS := $(call fuzz_emu_objs,$(FUZZ_CAMP_BUILD))
$(eval $(call fuzz_sub_objs,emu-objs,$(FUZZ_EMU_OBJS),$(FUZZ_CAMP_EMU_OBJS)))
$(addprefix $(FUZZ_BUILD)/,fuzz_x25519 fuzz_ed25519): $(FUZZ_EMU_OBJS)
$(addprefix $(FUZZ_BUILD)/,fuzz_x25519 fuzz_ed25519): FUZZ_EXTRA = -DFUZZ_C25519_IFMA_EMU $(FUZZ_EMU_OBJS)
$(addprefix $(FUZZ_CAMP_BUILD)/,fuzz_x25519 fuzz_ed25519): $(FUZZ_CAMP_EMU_OBJS)
$(addprefix $(FUZZ_CAMP_BUILD)/,fuzz_x25519 fuzz_ed25519): \
    FUZZ_EXTRA = -DFUZZ_C25519_IFMA_EMU $(FUZZ_CAMP_EMU_OBJS)
endif

clean: fuzz-clean
fuzz-clean:
	rm -rf $(FUZZ_BUILD) $(FUZZ_CAMP_BUILD)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_BUILD) $(notdir $(FUZZ_TARGETS))

# A resumable campaign (tests/fuzz/campaign.sh): TARGET (default: every
# target in turn) for SECONDS of fuzzing each at nice 19 from the tree's
# corpus, paused while a benchmark holds /tmp/cryptoshim-bench.lock; the new
# coverage is merged back into tests/fuzz/corpus/TARGET minimised and the
# executions appended to the ledger in docs/fuzzing.md (commit both); RUNS
# (if not 0) ends it once that many inputs have run.
FUZZ_PY_DRIVERS := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.py)))
TARGET ?= $(notdir $(FUZZ_CAMP_TARGETS)) $(FUZZ_PY_DRIVERS)
SECONDS ?= 600
RUNS ?= 0
fuzz-campaign: $(addprefix $(FUZZ_CAMP_BUILD)/,$(filter-out $(FUZZ_PY_DRIVERS),$(TARGET)))
	@status=0; for t in $(TARGET); do \
	    tests/fuzz/campaign.sh $(FUZZ_CAMP_BUILD) $$t $(SECONDS) $(RUNS) || status=$$?; \
	    [ $$status -ne 130 ] || break; \
	done; exit $$status
endif

# Sanitizers in `make test` (docs/developing.md, issue 14):
#  - asan suites: the differential tests and the kernel tests built with
#    AddressSanitizer and UBSan (fatal) against the fuzz build's instrumented
#    core (build/fuzz, above: one instrumented build serves both), run
#    on a small case count with vectors from the tree (scripts/run-tests.sh
#    asan_suites). `make asan` is the long gcc run of the same tests.
#  - tsan suite: tests/tsan/first_call.c built with ThreadSanitizer, with the
#    shim library built with ThreadSanitizer preloaded (build/tsan): 8
#    threads race the process's first calls into the shim, one forks.
ifeq ($(CROSS),)
# Chosen to fit about two minutes of CPU: diff_modexp's fixed edge and
# bnmod.txt passes over every kernel take several minutes under ASan alone;
# it runs in `make asan`, and its entry is fuzzed under ASan in make test.
# The ML-KEM kernel tests (every implementation, prepared entries, the
# AVX-512 pieces) take under 2 s together.
SAN_TESTS := $(patsubst tests/unit/%.c,$(FUZZ_BUILD)/tests/%, \
    $(wildcard tests/unit/diff_exp2.c tests/unit/diff_modexp_x2.c tests/unit/diff_policy.c \
               tests/unit/kernel_bn.c \
               tests/unit/kernel_bn_x86.c \
               tests/unit/kernel_mlkem.c tests/unit/kernel_mlkem_impls.c \
               tests/unit/kernel_mlkem_prepared.c tests/unit/kernel_mlkem_avx512.c))
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
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) -DCS_ROLL_LOOPS" $(SAN_SUPPORT)
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
	    EXTRA_CFLAGS="-fsanitize=thread -DCS_ROLL_LOOPS" $(TSAN_OBJS)
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
