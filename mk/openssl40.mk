# `make openssl40`: Debian experimental's OpenSSL 4.0 (libssl4) with sid's C
# library unpacked under $(BUILD)/openssl40 (nothing installed); prints the
# versions it got. Experimental moves: when it no longer carries a package,
# $(BUILD)/openssl40/.missing says so and the tests that need 4.0 skip with
# that message. See scripts/fetch-openssl40.sh.
ifeq ($(CROSS),)
OPENSSL40 := $(BUILD)/openssl40/bin/openssl

openssl40: $(OPENSSL40)
	@cat $(BUILD)/openssl40/VERSION 2>/dev/null || cat $(BUILD)/openssl40/.missing

$(OPENSSL40): scripts/fetch-openssl40.sh scripts/fetch-debian-openssl.sh
	@rm -f $(BUILD)/openssl40/.done
	@scripts/fetch-openssl40.sh $(BUILD)/openssl40 >/dev/null

tests-build: openssl40
.PHONY: openssl40
endif
