# The benchmark programs of tools/bench (docs/benchmarks.md says which figure
# each gives): `make bench-tools` builds them under $(BUILD)/bench/, and
# `make test`'s build (tests-build) does too, so CI compiles every one. They
# link the core archive (kernels, runtime, bn) and the system's libcrypto;
# build/openssl35/bin/run $(BUILD)/bench/NAME measures another libcrypto.
#   kernel_rate  ML-DSA kernel calls per CPU-second (tools/bench/bench-mldsa.sh)
#   mldsa_loop   ML-DSA operations in a loop, for callgrind (tools/bench/keccak-calls.sh)
#   bn_rate      cycles per Montgomery multiplication and squaring (x86-64)
#   pair_rate    RSA CRT pairs, kernels against libcrypto's paired code (x86-64)
#   rsa_sign_loop  RSA signing end to end, thread CPU time per call
#                (tools/bench/bench-rsa-sign.sh); rsa_sign_loop40 the same
#                linked against build/openssl40's libcrypto.so.4, when there
#   mlkem_peer   ML-KEM against a peer library from outside the tree: only
#                compiled here ($(BUILD)/bench/mlkem_peer.o); link it with
#                the peer's objects and the core archive by hand (its header)
#   c25519_peer  X25519/Ed25519 against stock and s2n-bignum (x86-64): only
#                compiled here ($(BUILD)/bench/c25519_peer.o); linked and run
#                by tools/bench/c25519-peer.sh with the peer's objects
ifeq ($(CROSS),)
BENCH_TOOLS := $(addprefix $(BUILD)/bench/,kernel_rate mldsa_loop mlkem_peer.o rsa_sign_loop \
    rsa_sign_loop40)
ifeq ($(ARCH),x86_64)
BENCH_TOOLS += $(BUILD)/bench/bn_rate $(BUILD)/bench/pair_rate $(BUILD)/bench/c25519_peer.o
endif

.PHONY: bench-tools
bench-tools: $(BENCH_TOOLS)
tests-build: bench-tools

$(BUILD)/bench/%: tools/bench/%.c $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(CORE_A) -lcrypto -ldl -pthread -lm

# The 4.0 build (libcrypto.so.4, symbols at OPENSSL_4.0.0), as the 4.0 test
# drivers are (mk/tests.mk): nothing when build/openssl40 is not unpacked.
$(BUILD)/bench/%40: tools/bench/%.c
	@mkdir -p $(dir $@)
	@if [ -e $(OSSL40_LIB) ]; then \
	    echo "$(CC) ... -o $@ $< $(OSSL40_LIB)"; \
	    $(CC) $(ALL_CFLAGS) -o $@ $< $(OSSL40_LIB) -ldl -Wl,--allow-shlib-undefined; \
	else rm -f $@; fi

$(BUILD)/bench/%.o: tools/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

-include $(addsuffix .d,$(basename $(BENCH_TOOLS)))
endif
