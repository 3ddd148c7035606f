# cryptoshim build. `make` builds the library and CLI, `make check` runs the
# fast tier (unit, differential and policy suites) and `make test` every
# test, both ending with "N passed, N failed, N skipped". Area-specific rules
# live in mk/*.mk, every test rule in mk/tests.mk.

BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
VECTORS ?= $(abspath tests/vectors)

# Cross builds: make CROSS=s390x|sparc32 builds the shim library and the
# kernel tests for that target; test-unit runs the tests under qemu. The
# baseline flags are the oldest CPU the shim supports (SPARC v7: no integer
# multiply; s390x: the distribution's default); kernels needing more (v8
# umul, z13 vectors) get their flags per folder/file in mk/oldhw.mk and are
# selected at run time.
CROSS ?=
ifeq ($(CROSS),s390x)
  CC := s390x-linux-gnu-gcc
  QEMU := qemu-s390x
  BUILD := build/cross-s390x
  CROSS_CFLAGS := -static
else ifeq ($(CROSS),sparc32)
  CC := sparc64-linux-gnu-gcc
  QEMU := qemu-sparc32plus
  BUILD := build/cross-sparc32
  CROSS_CFLAGS := -m32 -mcpu=v7 -static
else ifneq ($(CROSS),)
  $(error CROSS must be s390x or sparc32)
else
  CC ?= gcc
  QEMU :=
endif

MACHINE := $(shell $(CC) -dumpmachine)
ARCH := $(firstword $(subst -, ,$(MACHINE)))
ifeq ($(CROSS),sparc32)
  ARCH := sparc
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
HARDEN := -fstack-protector-strong -D_FORTIFY_SOURCE=2
ifeq ($(ARCH),x86_64)
  HARDEN += -fcf-protection
endif
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(CFLAGS) $(WARN) $(HARDEN) -std=gnu11 -fPIC -pthread $(CROSS_CFLAGS) $(EXTRA_CFLAGS) -I.
LDHARDEN := -Wl,-z,relro,-z,now -Wl,-z,noexecstack

# Sources. Per-ISA folders are built only for their architecture; their
# instruction-set flags are set per folder in mk/*.mk.
KERNEL_SRCS := $(wildcard kernels/*.c kernels/bn/*.c kernels/mldsa/*.c kernels/keccak/*.c) \
               $(wildcard kernels/bn/$(ARCH)/*.c kernels/mldsa/$(ARCH)/*.c kernels/keccak/$(ARCH)/*.c) \
               $(wildcard kernels/bn/$(ARCH)/*.S kernels/mldsa/$(ARCH)/*.S kernels/keccak/$(ARCH)/*.S) \
               $(wildcard kernels/mlkem/*.c kernels/mlkem/$(ARCH)/*.c kernels/mlkem/$(ARCH)/*.S) \
               $(wildcard kernels/c25519/*.c kernels/c25519/$(ARCH)/*.c kernels/c25519/$(ARCH)/*.S)
# Kernel sources the build writes into $(BUILD)/gen (each by a rule of its
# family's mk/ fragment), compiled as if they stood in the tree.
KERNEL_GEN_SRCS := kernels/c25519/ed25519_table.c
# interpose/*.c define libcrypto's symbols (and the routes into the shim): only
# in the preloaded library. runtime/ (CPU, controls, dispatch, policy, stats,
# libcrypto resolution) and bn/ (BIGNUM <-> limbs) are the core, shared with
# the CLI and the tests; cli/ is the CLI (docs/developing.md).
SHIM_INTERPOSE := $(wildcard interpose/*.c)
SHIM_CORE := $(wildcard runtime/*.c bn/*.c)
SHIM_ALL := $(SHIM_CORE) $(SHIM_INTERPOSE)
PROVIDER_SRCS := $(wildcard provider/*.c)
CLI_SRCS := $(wildcard cli/*.c)
# The version script: which names the library exports, at which node.
VERSION_SCRIPT := interpose/interpose.map

obj = $(patsubst %,$(BUILD)/obj/%.o,$(basename $(1)))
# Generated sources' objects sit under obj/gen/, apart from the tree's: a
# build directory from before a source became generated keeps a dependency
# file naming the old tree path for the old object name.
gen_obj = $(call obj,$(addprefix gen/,$(1)))
KERNEL_OBJS := $(call obj,$(KERNEL_SRCS)) $(call gen_obj,$(KERNEL_GEN_SRCS))
CORE_OBJS := $(KERNEL_OBJS) $(call obj,$(SHIM_CORE))
LIB_OBJS := $(CORE_OBJS) $(call obj,$(SHIM_INTERPOSE) $(PROVIDER_SRCS))

LIB := $(BUILD)/libcryptoshim.so
CORE_A := $(BUILD)/libcryptoshim_core.a
CLI := $(BUILD)/cryptoshim

# Unit tests: tests/unit/kernel_*.c use no OpenSSL (also built for CROSS);
# tests/unit/diff_*.c compare against the system libcrypto (native only).
KERNEL_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/kernel_*.c))
DIFF_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/diff_*.c))
# Test support, with the shim's CPU probe (no OpenSSL) so tests pick the
# implementations this CPU runs exactly as the shim does.
TEST_SUPPORT := $(call obj,$(wildcard tests/unit/support/*.c) runtime/cpu.c)

.PHONY: all install clean openssl35 demo
.DEFAULT_GOAL := all
# Keep intermediate objects: nothing may print after the test summary line.
.SECONDARY:

ifeq ($(CROSS),)
all: $(LIB) $(CLI) $(BUILD)/cryptoshim.so
else
all: $(KERNEL_TESTS)
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS) $(VERSION_SCRIPT)
	$(CC) $(ALL_CFLAGS) -shared -o $@ $(LIB_OBJS) $(LDHARDEN) \
	    -Wl,--version-script=$(VERSION_SCRIPT) -Wl,-z,defs -ldl -pthread

# The provider-module name: `openssl ... -provider-path build -provider cryptoshim`.
$(BUILD)/cryptoshim.so: $(LIB)
	ln -sf libcryptoshim.so $@

$(CORE_A): $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(CLI): $(call obj,$(CLI_SRCS)) $(CORE_A)
	$(CC) $(ALL_CFLAGS) -pie -o $@ $^ $(LDHARDEN) -lcrypto -ldl -pthread -lm

# Area fragments add rules and per-folder flags; every test rule and entry
# (make check, make test, ...) is in mk/tests.mk.
-include $(sort $(wildcard mk/*.mk))
-include $(patsubst %.o,%.d,$(LIB_OBJS) $(call obj,$(CLI_SRCS)) $(TEST_SUPPORT))

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin
	install -m 0644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libcryptoshim.so
	install -m 0755 $(CLI) $(DESTDIR)$(PREFIX)/bin/cryptoshim

clean:
	rm -rf $(BUILD)/obj $(BUILD)/gen $(BUILD)/tests $(BUILD)/cross-* $(LIB) $(CLI) $(CORE_A)
