# `make deb`: the Debian package build/cryptoshim_VERSION_ARCH.deb, built by
# Debian's own tools (dpkg-buildpackage, debhelper) from debian/, in a copy of
# the tree under $(BUILD)/deb/ (dpkg-buildpackage writes beside the source
# directory, which must not be outside build/). `make deb-lint` runs lintian
# on it. The CLI finds the installed library in the multiarch directory.
ifeq ($(CROSS),)
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
ifneq ($(MULTIARCH),)
$(BUILD)/obj/cli/paths.o: OBJ_CFLAGS += -DCS_MULTIARCH='"$(MULTIARCH)"'
endif

DEB_VERSION = $(shell dpkg-parsechangelog -l debian/changelog -S Version)
DEB_ARCH = $(shell dpkg --print-architecture)
DEB_FILE = $(BUILD)/cryptoshim_$(DEB_VERSION)_$(DEB_ARCH).deb

.PHONY: deb deb-lint
deb:
	@BUILD=$(BUILD) scripts/build-deb.sh

deb-lint: deb
	lintian --info --display-info $(DEB_FILE)
endif
