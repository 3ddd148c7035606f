# Route tests (issue 12): C drivers linked with the shim core.
ifeq ($(CROSS),)
ROUTE_TESTS := $(BUILD)/tests/routes/route_resolve_race

$(BUILD)/tests/routes/%: tests/unit/%.c $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm

tests-build: $(ROUTE_TESTS)
endif
