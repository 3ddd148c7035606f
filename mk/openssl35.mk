# `make openssl35`: Debian 13's OpenSSL 3.5 unpacked under $(BUILD)/openssl35
# (nothing installed on the system); tests needing 3.5 run
# $(BUILD)/openssl35/bin/openssl. See scripts/fetch-openssl35.sh.
ifeq ($(CROSS),)
OPENSSL35 := $(BUILD)/openssl35/bin/openssl

openssl35: $(OPENSSL35)
	@cat $(BUILD)/openssl35/VERSION 2>/dev/null || true

# Re-run when the script changes; the script itself skips work already done.
$(OPENSSL35): scripts/fetch-openssl35.sh scripts/fetch-debian-openssl.sh
	@rm -f $(BUILD)/openssl35/.done
	@scripts/fetch-openssl35.sh $(BUILD)/openssl35 >/dev/null

tests-build: openssl35
.PHONY: openssl35
endif
