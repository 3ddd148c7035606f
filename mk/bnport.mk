# Portable big-number kernels (kernels/bn): the valgrind constant-time test,
# and native builds of the kernel tests with 32-bit limbs (-DCS_BN_LIMB32, the
# code 32-bit SPARC runs) so `make test` covers both limb sizes.
ifeq ($(CROSS),)
# Only the portable code: kernels.c lists ISA kernels built for 64-bit limbs.
BN_LIMB32_OBJS := $(BUILD)/obj/limb32/kernels/bn/mont.o $(BUILD)/obj/limb32/kernels/bn/portable.o \
                  $(BUILD)/obj/limb32/kernels/bn/scratch.o $(BUILD)/obj/limb32/kernels/ct.o
BN_TESTS_EXTRA := $(BUILD)/tests/ct_bn_exp $(BUILD)/tests/kernel_bn_limb32 \
                  $(BUILD)/tests/ct_bn_exp_limb32

$(BUILD)/obj/limb32/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -MMD -MP -c $< -o $@

$(BUILD)/tests/ct_bn_exp: tests/unit/ct_bn_exp.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

$(BUILD)/tests/%_limb32: tests/unit/%.c $(BN_LIMB32_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCS_BN_LIMB32 -o $@ $^ -lm

tests-build: $(BN_TESTS_EXTRA)
-include $(BN_LIMB32_OBJS:.o=.d)
endif
