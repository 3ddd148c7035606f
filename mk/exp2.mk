# BN_mod_exp2_mont (DSA verification): the Wycheproof DSA verify driver for
# tests/bats/dsa_verify.bats (built by the e2e pattern rule in mk/e2e.mk).
ifeq ($(CROSS),)
tests-build: $(BUILD)/tests/e2e/dsa_verify_driver
endif
