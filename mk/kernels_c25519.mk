# Curve25519 (kernels/c25519): the ISA flags of its folders in one place
# (the sources are picked up by the Makefile's KERNEL_SRCS wildcard); its
# tests' rules are in mk/tests.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/c25519/x86_64: MULX code (inline assembly, and whatever the
# compiler makes of the C around it), with ADX in the x86_64-adx table's
# objects only; each runs only where the dispatcher saw its features
# (cs_c25519_x86_64_adx: CS_CPU_BMI2 | CS_CPU_ADX; cs_c25519_x86_64_mulx:
# CS_CPU_BMI2).
ifeq ($(ARCH),x86_64)
C25519_X86_FLAGS := -mbmi2
$(BUILD)/obj/kernels/c25519/x86_64/%.o: OBJ_CFLAGS += $(C25519_X86_FLAGS)
$(BUILD)/obj/kernels/c25519/x86_64/adx.o $(BUILD)/obj/kernels/c25519/x86_64/ladder_adx.o: \
    OBJ_CFLAGS += -madx
endif
