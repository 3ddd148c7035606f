# Big-number kernels (kernels/bn): per-file ISA flags of kernels/bn/x86_64
# (each kernel runs only when the CPU has them), and their tests beyond the
# Makefile's kernel_* and diff_* patterns: the constant-time checks run under
# valgrind, and native builds with 32-bit limbs (-DCS_BN_LIMB32, the code
# 32-bit SPARC runs) so `make test` covers both limb sizes. SPARC and s390x
# flags are in mk/oldhw.mk.
ifeq ($(ARCH),x86_64)
BN_IFMA_FLAGS := -mavx2 -mbmi2 -mavx512f -mavx512vl -mavx512ifma
$(BUILD)/obj/kernels/bn/x86_64/ifma.o: OBJ_CFLAGS += $(BN_IFMA_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/ifma_x2.o: OBJ_CFLAGS += $(BN_IFMA_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/avx2.o: OBJ_CFLAGS += -mavx2 -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/fma.o: OBJ_CFLAGS += -mavx2 -mfma
$(BUILD)/obj/kernels/bn/x86_64/fma_x2.o: OBJ_CFLAGS += -mavx2 -mfma
BN_FMA512_FLAGS := -mavx2 -mbmi2 -mfma -mavx512f
$(BUILD)/obj/kernels/bn/x86_64/fma512.o: OBJ_CFLAGS += $(BN_FMA512_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/fma512_x2.o: OBJ_CFLAGS += $(BN_FMA512_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/xv_select_avx2.o: OBJ_CFLAGS += -mavx2
$(BUILD)/obj/kernels/bn/x86_64/scalar.o: OBJ_CFLAGS += -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/adx.o: OBJ_CFLAGS += -mbmi2 -madx
endif

ifeq ($(CROSS),)
# Only the portable code: kernels.c lists ISA kernels built for 64-bit limbs.
BN_LIMB32_OBJS := $(patsubst %,$(BUILD)/obj/limb32/kernels/%.o,ct bn/engine bn/mont bn/portable \
                    bn/scratch)
BN_TESTS_EXTRA := $(BUILD)/tests/ct_bn_exp $(BUILD)/tests/ct_bn_crt $(BUILD)/tests/kernel_bn_limb32 \
                  $(BUILD)/tests/ct_bn_exp_limb32
ifeq ($(ARCH),x86_64)
BN_TESTS_EXTRA += $(BUILD)/tests/ct_bn_x86 $(BUILD)/tests/ct_bn_fma_x2
endif

$(BUILD)/obj/limb32/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -MMD -MP -c $< -o $@

$(BUILD)/tests/ct_bn_%: tests/unit/ct_bn_%.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

$(BUILD)/tests/%_limb32: tests/unit/%.c $(BN_LIMB32_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -o $@ $^ -lm

# BN_mod_exp2_mont (DSA verification): the Wycheproof DSA verify driver for
# tests/bats/dsa_verify.bats (built by the e2e pattern rule in mk/e2e.mk).
tests-build: $(BN_TESTS_EXTRA) $(BUILD)/tests/e2e/dsa_verify_driver
-include $(BN_LIMB32_OBJS:.o=.d)
endif
