# Benchmarks (tools/bench) and the A/B harness (ab/, docs/ab.md): the harness's TLS
# client, its installation, and `make demo`.

AB_CLIENT := $(BUILD)/ab-tls-client
DEMO_OUT ?= $(BUILD)/demo

ifeq ($(CROSS),)
all: $(AB_CLIENT)
endif

$(AB_CLIENT): ab/ab_tls_client.c ab/tls_load.c ab/tls_client.h runtime/timer.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -pie -o $@ $(filter %.c,$^) $(LDHARDEN) -lssl -lcrypto

.PHONY: install-e2e
install: install-e2e
install-e2e: all
	install -d $(DESTDIR)$(PREFIX)/lib/cryptoshim $(DESTDIR)$(PREFIX)/share/cryptoshim/scripts/ab
	install -m 0755 $(AB_CLIENT) $(DESTDIR)$(PREFIX)/lib/cryptoshim/ab-tls-client
	install -m 0644 ab/*.py $(DESTDIR)$(PREFIX)/share/cryptoshim/scripts/ab/

# A short A/B run of each kind on built-in defaults (under 10 minutes).
# `make deps` (mk/deps.mk) first: packages and OpenSSL 3.5 for the ML-DSA run.
demo: deps
	@$(MAKE) --no-print-directory $(sub_jobs) all
	@BUILD=$(BUILD) ab/demo.sh $(DEMO_OUT)

# The benchmark matrix (tools/bench/bench-matrix.sh): shim/stock `openssl
# speed` for OpenSSL 3.0, 3.5, 3.6 and 4.0 in native, noifma, haswell and avx512f
# modes, one interleaved run (about 25 minutes on a quiet 2-core machine).
# BENCH_MATRIX_ARGS passes options (-r ROUNDS -s SECONDS -v ... -m ... -a ALGS -o FILE).
.PHONY: bench-matrix
bench-matrix: openssl-versions
	@$(MAKE) --no-print-directory $(sub_jobs) all
	@BUILD=$(BUILD) tools/bench/bench-matrix.sh $(BENCH_MATRIX_ARGS)
