# Ed25519 tests beyond the Makefile's kernel_* and diff_* patterns: the
# constant-time check (scripts/run-tests.sh ct_suites runs every
# build/tests/ct_* under valgrind memcheck). Native only.
ifeq ($(CROSS),)
$(BUILD)/tests/ct_c25519_ed25519: tests/unit/ct_c25519_ed25519.c $(KERNEL_OBJS) $(TEST_SUPPORT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

tests-build: $(BUILD)/tests/ct_c25519_ed25519
endif
