# Policy, controls and stats area: C tests named tests/unit/policy_*.c and
# tests/unit/stats_*.c, linked against the core (no OpenSSL needed, but the
# core archive is built with it). Run by scripts/run-tests.sh unit.

POLICY_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,\
    $(wildcard tests/unit/policy_*.c tests/unit/stats_*.c))

ifeq ($(CROSS),)
unit-build: $(POLICY_TESTS)
endif

$(BUILD)/tests/policy_%: tests/unit/policy_%.c $(TEST_SUPPORT) $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm

$(BUILD)/tests/stats_%: tests/unit/stats_%.c $(TEST_SUPPORT) $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcrypto -ldl -pthread -lm
