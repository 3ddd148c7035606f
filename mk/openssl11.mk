# `make openssl11`: Debian 11's OpenSSL 1.1.1 unpacked under $(BUILD)/openssl11
# (nothing installed), for the tests that the shim serves 1.1.1 processes.
ifeq ($(CROSS),)
OPENSSL11 := $(BUILD)/openssl11/bin/openssl

openssl11: $(OPENSSL11)
	@cat $(BUILD)/openssl11/VERSION 2>/dev/null || true

$(OPENSSL11): scripts/fetch-openssl11.sh scripts/fetch-debian-openssl.sh
	@rm -f $(BUILD)/openssl11/.done
	@scripts/fetch-openssl11.sh $(BUILD)/openssl11 >/dev/null

tests-build: openssl11
.PHONY: openssl11
endif
