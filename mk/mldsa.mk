# ML-DSA (kernels/mldsa): the constant-time check runs the ordinary kernel
# objects under valgrind memcheck (scripts/run-tests.sh ct_suites); it needs
# valgrind's <valgrind/memcheck.h> (Debian package valgrind). Native only.
ifeq ($(CROSS),)
$(BUILD)/tests/ct_mldsa: tests/unit/ct_mldsa.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_mldsa
endif
