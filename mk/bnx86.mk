# x86-64 big-number kernels: per-file ISA flags (each kernel runs only when
# the CPU has them), and the constant-time tests run under valgrind.
ifeq ($(ARCH),x86_64)
$(BUILD)/obj/kernels/bn/x86_64/ifma.o: OBJ_CFLAGS += -mavx2 -mbmi2 -mavx512f -mavx512vl -mavx512ifma
$(BUILD)/obj/kernels/bn/x86_64/avx2.o: OBJ_CFLAGS += -mavx2 -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/fma.o: OBJ_CFLAGS += -mavx2 -mfma
$(BUILD)/obj/kernels/bn/x86_64/xv_select_avx2.o: OBJ_CFLAGS += -mavx2
$(BUILD)/obj/kernels/bn/x86_64/scalar.o: OBJ_CFLAGS += -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/adx.o: OBJ_CFLAGS += -mbmi2 -madx
endif

# Constant-time check of the x86-64 kernels (run by scripts/run-tests.sh
# under valgrind like every tests/unit/ct_* program).
ifeq ($(CROSS),)
CT_BN_X86 := $(BUILD)/tests/ct_bn_x86

$(CT_BN_X86): tests/unit/ct_bn_x86.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(CT_BN_X86)
endif
