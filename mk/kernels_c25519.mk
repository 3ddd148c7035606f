# Curve25519 (kernels/c25519): the ISA flags of its folders in one place
# (the sources are picked up by the Makefile's KERNEL_SRCS wildcard); its
# tests' rules are in mk/tests.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/c25519/x86_64: MULX/ADX code (inline assembly, and whatever the
# compiler makes of the C around it); it runs only where the dispatcher saw
# both (cs_c25519_x86_64_adx.cpu_features = CS_CPU_BMI2 | CS_CPU_ADX).
ifeq ($(ARCH),x86_64)
C25519_X86_FLAGS := -mbmi2 -madx
$(BUILD)/obj/kernels/c25519/x86_64/%.o: OBJ_CFLAGS += $(C25519_X86_FLAGS)
endif
