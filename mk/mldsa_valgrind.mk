# The provider under valgrind in OpenSSL 3.5 (tests/bats/mldsa_valgrind.bats):
# $(BUILD)/openssl35-vg holds 3.5's loader made readable to valgrind
# (tests/bats/helpers/openssl35_vg.sh: libc6-dbg of the tree's libc6).
ifeq ($(CROSS),)
$(BUILD)/openssl35-vg/.done: tests/bats/helpers/openssl35_vg.sh | openssl35
	@tests/bats/helpers/openssl35_vg.sh $(BUILD)/openssl35 $(BUILD)/openssl35-vg

tests-build: $(BUILD)/openssl35-vg/.done
endif
