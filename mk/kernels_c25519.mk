# Curve25519 (kernels/c25519): the ISA flags of its folders in one place
# (the sources are picked up by the Makefile's KERNEL_SRCS wildcard); its
# tests' rules are in mk/tests.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/c25519/x86_64: MULX code (inline assembly, and whatever the
# compiler makes of the C around it), with ADX in the x86_64-adx table's
# objects only; each runs only where the dispatcher saw its features
# (cs_c25519_x86_64_adx: CS_CPU_BMI2 | CS_CPU_ADX | CS_CPU_AVX2, its comb_adx.S
# scanning with AVX2 (assembly: no flag needed); cs_c25519_x86_64_mulx:
# CS_CPU_BMI2; cs_c25519_x86_64_ifma: x86_64-adx's with the AVX-512 IFMA
# ladder and verification).
ifeq ($(ARCH),x86_64)
C25519_X86_FLAGS := -mbmi2
$(BUILD)/obj/kernels/c25519/x86_64/%.o: OBJ_CFLAGS += $(C25519_X86_FLAGS)
$(BUILD)/obj/kernels/c25519/x86_64/adx.o $(BUILD)/obj/kernels/c25519/x86_64/ladder_adx.o \
    $(BUILD)/obj/kernels/c25519/x86_64/comb_adx.o $(BUILD)/obj/kernels/c25519/x86_64/ifma.o: \
    OBJ_CFLAGS += -madx
# The x86_64-ifma table's ladder and double-scalar multiplication
# (CS_CPU_AVX512F | CS_CPU_AVX512VL | CS_CPU_AVX512IFMA on top of
# x86_64-adx's features): ymm IFMA intrinsics.
C25519_IFMA_FLAGS := -mavx2 -mavx512f -mavx512vl -mavx512ifma
$(BUILD)/obj/kernels/c25519/x86_64/ladder_ifma.o \
    $(BUILD)/obj/kernels/c25519/x86_64/double_mul_ifma.o: OBJ_CFLAGS += $(C25519_IFMA_FLAGS)
endif

# ---- Generated table ---------------------------------------------------
# ed25519_table.c (the base point's multiples, ed25519_table.h) is a build
# product: scripts/gen-ed25519-table.c, a host program over the kernels'
# portable field and Edwards group, prints it. Built with the build
# machine's compiler (cross builds too: the table is the same bytes for
# every target) and without the target's or sanitizers' flags.
HOSTCC ?= cc
C25519_TABLE_GEN := $(BUILD)/gen/gen-ed25519-table
$(C25519_TABLE_GEN): scripts/gen-ed25519-table.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -O2 $(WARN) -std=gnu11 -I. -MMD -MP -o $@ $<
$(BUILD)/gen/kernels/c25519/ed25519_table.c: $(C25519_TABLE_GEN)
	@mkdir -p $(dir $@)
	$(C25519_TABLE_GEN) >$@.tmp && mv $@.tmp $@
-include $(C25519_TABLE_GEN).d
