# Constant-time check of the AVX-512 kernels under valgrind, which (3.19)
# cannot execute EVEX instructions. The same kernel sources are compiled a
# second time, for tests only, with tests/unit/ctemu/avx512_emul.h forced in
# (-include) and -DCS_CT_EMULATE_AVX512: every AVX-512 intrinsic becomes plain
# C over AVX2 types, so memcheck can follow the kernels' branches and
# addresses with secrets undefined. Those objects never enter
# libcryptoshim.so. Built here:
#   ct_bn_x86_avx512emu, ct_mldsa_avx512emu, ct_mlkem_avx512emu,
#   ct_c25519_x25519_avx512emu, ct_c25519_ed25519_avx512emu  ct tests
#       (tests/unit/ct_*.c with CT_AVX512_EMULATED) linked with the emulated
#       objects in place of the native ones; run under valgrind by `make ct`.
#   kernel_c25519_avx512emu, kernel_c25519_ed25519_avx512emu,
#   kernel_c25519_fe4_avx512emu  unit suites on the emulated curve table
#       (below; `make check` runs them).
#   kernel_avx512emu  (tests/unit/ctemu/) no valgrind: each emulated intrinsic
#       against the real instruction, and the emulated kernels (symbols
#       renamed ctemu_*) against the native ones on the same inputs; skips
#       without AVX-512 IFMA.
# Which files: every AVX-512 source, by name (kernels/bn/x86_64/ifma*.c,
# kernels/bn/x86_64/fma512*.c,
# kernels/mldsa/x86_64/*avx512*.c, kernels/keccak/x86_64/*avx512*.c,
# kernels/mlkem/x86_64/*avx512*.c, kernels/c25519/x86_64/*_ifma.c); a new
# one is picked up automatically if it follows the naming and uses only
# intrinsics the header provides.
ifeq ($(ARCH)$(CROSS),x86_64)
OBJCOPY ?= objcopy
NM ?= nm

CTEMU_SRCS := $(wildcard kernels/bn/x86_64/ifma*.c kernels/bn/x86_64/fma512*.c \
                          kernels/mldsa/x86_64/*avx512*.c \
                          kernels/keccak/x86_64/*avx512*.c kernels/mlkem/x86_64/*avx512*.c \
                          kernels/c25519/x86_64/*_ifma.c)
CTEMU_NATIVE := $(call obj,$(CTEMU_SRCS))
CTEMU_OBJS := $(patsubst $(BUILD)/obj/%,$(BUILD)/obj/ctemu/%,$(CTEMU_NATIVE))
# The kernel objects with the AVX-512 ones swapped for their emulations.
CTEMU_KERNEL_OBJS := $(filter-out $(CTEMU_NATIVE),$(KERNEL_OBJS)) $(CTEMU_OBJS)
# For the differential test: the emulations plus an emulated copy of the
# ML-DSA and Keccak tables (so the emulated ML-DSA tables reach the emulated
# Keccaks), all global symbols prefixed ctemu_.
CTEMU_IMPL := $(BUILD)/obj/ctemu/kernels/mldsa/x86_64/impl_avx2.o \
              $(BUILD)/obj/ctemu/kernels/keccak/x86_64/impl.o
CTEMU_REN := $(patsubst $(BUILD)/obj/ctemu/%,$(BUILD)/obj/ctemu-ren/%,$(CTEMU_OBJS) $(CTEMU_IMPL))
CTEMU_MAP := $(BUILD)/obj/ctemu/rename.map
CTEMU_INTRIN := $(BUILD)/obj/ctemu-test/tests/unit/ctemu/emul_intrin.o

CTEMU_FLAGS := -DCS_CT_EMULATE_AVX512 -include tests/unit/ctemu/avx512_emul.h

# The native folders' ISA flags (mk/kernels_bn.mk, mk/kernels_mldsa.mk,
# mk/kernels_keccak.mk) minus AVX-512.
$(BUILD)/obj/ctemu/kernels/bn/x86_64/%.o: OBJ_CFLAGS += -mavx2 -mbmi2
# The 512-bit FMA kernel's emulated FMAs are the scalar instruction.
$(BUILD)/obj/ctemu/kernels/bn/x86_64/fma512.o: OBJ_CFLAGS += -mfma
$(BUILD)/obj/ctemu/kernels/bn/x86_64/fma512_x2.o: OBJ_CFLAGS += -mfma
$(BUILD)/obj/ctemu/kernels/mldsa/x86_64/%.o: OBJ_CFLAGS += $(MLDSA_X86_FLAGS)
$(BUILD)/obj/ctemu/kernels/keccak/x86_64/%.o: OBJ_CFLAGS += $(KECCAK_X86_FLAGS)
$(BUILD)/obj/ctemu/kernels/mlkem/x86_64/%.o: OBJ_CFLAGS += $(MLKEM_X86_FLAGS)
$(BUILD)/obj/ctemu/kernels/c25519/x86_64/%.o: OBJ_CFLAGS += $(C25519_X86_FLAGS) -mavx2

$(BUILD)/obj/ctemu/%.o: %.c tests/unit/ctemu/avx512_emul.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_CFLAGS) $(CTEMU_FLAGS) -MMD -MP -c $< -o $@

$(CTEMU_MAP): $(CTEMU_OBJS) $(CTEMU_IMPL)
	$(NM) -g --defined-only --format=posix $^ | awk 'NF >= 3 && $$1 !~ /:$$/ { print $$1, "ctemu_" $$1 }' | sort -u >$@

$(BUILD)/obj/ctemu-ren/%.o: $(BUILD)/obj/ctemu/%.o $(CTEMU_MAP)
	@mkdir -p $(dir $@)
	$(OBJCOPY) --redefine-syms=$(CTEMU_MAP) $< $@

# The intrinsic check runs the real instructions too.
$(CTEMU_INTRIN): tests/unit/ctemu/emul_intrin.c tests/unit/ctemu/avx512_emul.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -mavx2 -mbmi2 -mavx512f -mavx512vl -mavx512ifma \
	    -mavx512bw -mavx512dq -mfma -MMD -MP -c $< -o $@

$(BUILD)/tests/ct_bn_x86_avx512emu: tests/unit/ct_bn_x86.c $(CTEMU_KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

$(BUILD)/tests/ct_mldsa_avx512emu: tests/unit/ct_mldsa.c $(CTEMU_KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

$(BUILD)/tests/kernel_avx512emu: tests/unit/ctemu/emul_diff.c $(CTEMU_INTRIN) $(CTEMU_REN) \
                                 $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_bn_x86_avx512emu $(BUILD)/tests/ct_mldsa_avx512emu \
             $(BUILD)/tests/kernel_avx512emu

# ML-KEM: the avx512 table's arithmetic (kernels/mlkem/x86_64/*avx512*.c) and
# its 8-way and 8+1-way Keccak (kernels/keccak/x86_64/*avx512*.c) are the
# emulated objects above.
$(BUILD)/tests/ct_mlkem_avx512emu: tests/unit/ct_mlkem.c $(CTEMU_KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_mlkem_avx512emu

# X25519: the x86_64-ifma table's ladder (kernels/c25519/x86_64/ladder_ifma.c)
# emulated, under the ct test and the whole kernel suite (RFC 7748,
# Wycheproof, against portable), both checking only the AVX-512 tables.
# The kernel suite is a unit test: make check runs it too.
$(BUILD)/tests/ct_c25519_x25519_avx512emu: tests/unit/ct_c25519_x25519.c $(CTEMU_KERNEL_OBJS) \
                                           $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

$(BUILD)/tests/kernel_c25519_avx512emu: tests/unit/kernel_c25519.c $(CTEMU_KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

# Ed25519: the table's double-scalar multiplication (double_mul_ifma.c)
# emulated under the whole Ed25519 kernel suite (RFC 8032, Wycheproof,
# against portable), and the table's own instance of the signing template
# (ifma.o, over x86_64-adx's field and comb) under the ct test of the
# secret entries (pubkey, sign, x25519_base); verification there runs
# emulated too, with public inputs only.
$(BUILD)/tests/kernel_c25519_ed25519_avx512emu: tests/unit/kernel_c25519_ed25519.c \
                                                $(CTEMU_KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

$(BUILD)/tests/ct_c25519_ed25519_avx512emu: tests/unit/ct_c25519_ed25519.c $(CTEMU_KERNEL_OBJS) \
                                            $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_AVX512_EMULATED -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_c25519_x25519_avx512emu $(BUILD)/tests/ct_c25519_ed25519_avx512emu
unit-build: $(BUILD)/tests/kernel_c25519_avx512emu $(BUILD)/tests/kernel_c25519_ed25519_avx512emu

# The four-lane IFMA field itself (kernels/c25519/x86_64/fe4_ifma.h) at the
# edges of its bounds, emulated (tests/unit/ctemu/fe4_bounds.c).
$(BUILD)/tests/kernel_c25519_fe4_avx512emu: tests/unit/ctemu/fe4_bounds.c $(TEST_SUPPORT) \
                                            kernels/c25519/x86_64/fe4_ifma.h tests/unit/ctemu/avx512_emul.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -mavx2 $(CTEMU_FLAGS) -o $@ $(filter %.c %.o,$^) -lm
unit-build: $(BUILD)/tests/kernel_c25519_fe4_avx512emu
-include $(CTEMU_OBJS:.o=.d) $(CTEMU_IMPL:.o=.d) $(CTEMU_INTRIN:.o=.d)
endif
