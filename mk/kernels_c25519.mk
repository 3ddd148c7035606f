# Curve25519 (kernels/c25519): the ISA flags of its folders in one place,
# then the tests beyond the Makefile's kernel_* and diff_* patterns. The
# sources are picked up by the Makefile's KERNEL_SRCS wildcard.

# ---- ISA flags ---------------------------------------------------------
# kernels/c25519/x86_64: MULX/ADX code (inline assembly, and whatever the
# compiler makes of the C around it); it runs only where the dispatcher saw
# both (cs_c25519_x86_64_adx.cpu_features = CS_CPU_BMI2 | CS_CPU_ADX).
ifeq ($(ARCH),x86_64)
C25519_X86_FLAGS := -mbmi2 -madx
$(BUILD)/obj/kernels/c25519/x86_64/%.o: OBJ_CFLAGS += $(C25519_X86_FLAGS)
endif

# ---- Tests -------------------------------------------------------------
ifeq ($(CROSS),)
# The constant-time check of the ladder (scripts/run-tests.sh ct_suites
# runs every build/tests/ct_* under valgrind memcheck). Native only.
$(BUILD)/tests/ct_c25519_x25519: tests/unit/ct_c25519_x25519.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_c25519_x25519
endif
