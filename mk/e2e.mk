# End-to-end area: the A/B harness's TLS client, the Wycheproof RSA signing
# driver for tests/bats, installation of the harness, and `make demo`.

AB_CLIENT := $(BUILD)/ab-tls-client
E2E_TEST_BINS := $(BUILD)/tests/e2e/rsa_sign_driver
DEMO_OUT ?= $(BUILD)/demo

ifeq ($(CROSS),)
all: $(AB_CLIENT)
tests-build: $(E2E_TEST_BINS)
endif

$(AB_CLIENT): tools/bench/ab/ab_tls_client.c tools/bench/timer.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -pie -o $@ $< $(LDHARDEN) -lssl -lcrypto

$(BUILD)/tests/e2e/%: tests/bats/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lcrypto

.PHONY: install-e2e
install: install-e2e
install-e2e: all
	install -d $(DESTDIR)$(PREFIX)/lib/cryptoshim $(DESTDIR)$(PREFIX)/share/cryptoshim/scripts/ab
	install -m 0755 $(AB_CLIENT) $(DESTDIR)$(PREFIX)/lib/cryptoshim/ab-tls-client
	install -m 0644 tools/bench/ab/*.py $(DESTDIR)$(PREFIX)/share/cryptoshim/scripts/ab/

# A short A/B run of each kind on built-in defaults (under 10 minutes).
# `make deps` (mk/deps.mk) first: packages and OpenSSL 3.5 for the ML-DSA run.
demo: deps
	@$(MAKE) --no-print-directory $(sub_jobs) all
	@BUILD=$(BUILD) tools/bench/ab/demo.sh $(DEMO_OUT)
