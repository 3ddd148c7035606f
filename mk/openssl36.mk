# `make openssl36`: Debian sid's OpenSSL 3.6 unpacked under $(BUILD)/openssl36
# (nothing installed); prints the versions it got. Sid moves: when it no longer
# carries a package, $(BUILD)/openssl36/.missing says so and the tests that
# need 3.6 skip with that message. See scripts/fetch-openssl36.sh.
ifeq ($(CROSS),)
OPENSSL36 := $(BUILD)/openssl36/bin/openssl

openssl36: $(OPENSSL36)
	@cat $(BUILD)/openssl36/VERSION 2>/dev/null || cat $(BUILD)/openssl36/.missing

# Re-run when the scripts change; the script itself skips work already done.
$(OPENSSL36): scripts/fetch-openssl36.sh scripts/fetch-debian-openssl.sh
	@rm -f $(BUILD)/openssl36/.done
	@scripts/fetch-openssl36.sh $(BUILD)/openssl36 >/dev/null

tests-build: openssl36
.PHONY: openssl36
endif
