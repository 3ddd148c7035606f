# `make deps`: everything `make test` and `make demo` need that is not in the
# tree, set up by those two targets themselves before anything is built.
#   - the Debian packages of mk/debian-packages.txt (scripts/deps.sh: as root
#     it installs the missing ones; otherwise it prints the one apt-get line
#     and fails before any build or test);
#   - the other OpenSSL builds the tests run, unpacked under $(BUILD)/ (no
#     system change): mk/openssl_builds.mk adds every one of its builds with
#     `DEPS_OPENSSL += TARGET` (as may other fragments); the list is read when
#     the recipe runs, so a fragment included after this one still counts.
DEPS_OPENSSL ?=
# Parallel jobs for the builds these targets start themselves (a -j given on
# the command line wins).
DEPS_JOBS := $(shell nproc 2>/dev/null || echo 2)
# The sub-make's -j: none when the caller already gave one (jobserver).
sub_jobs = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(DEPS_JOBS))

.PHONY: deps deps-packages
deps: deps-packages
	@$(if $(strip $(DEPS_OPENSSL)),$(MAKE) --no-print-directory $(sub_jobs) $(DEPS_OPENSSL),:)

deps-packages:
	@scripts/deps.sh mk/debian-packages.txt
