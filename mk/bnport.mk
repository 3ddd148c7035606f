# Portable big-number kernels (kernels/bn): the valgrind constant-time test.
ifeq ($(CROSS),)
CT_BN := $(BUILD)/tests/ct_bn_exp

$(CT_BN): tests/unit/ct_bn_exp.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(CT_BN)
endif
