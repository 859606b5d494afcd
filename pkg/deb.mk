# SPDX-License-Identifier: GPL-2.0
# Makefile fragment for the top Makefile: `include pkg/deb.mk`.
#
#   make deb        $(OUT)/deb/zsmalloc-dkms_<VERSION>_all.deb, built with
#                   debian/ (dh, dh-dkms) in a copy of the sources, then
#                   lintian (pkg/build-deb.sh)
#   make install    zsmalloc.ko into
#                   $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/updates/, depmod
#   make uninstall  remove it again, depmod
# INSTALL_MOD_PATH (default empty: the running system) is a root to install
# under, e.g. a temporary directory. Install for the kernel KVER names (the
# headers' ABI by default; KVER=$$(uname -r) for the running one).

DEB_VERSION := $(shell cat $(dir $(lastword $(MAKEFILE_LIST)))../VERSION)
DEB := $(OUT)/deb/zsmalloc-dkms_$(DEB_VERSION)_all.deb
INSTALL_MOD_PATH ?=
# depmod on the root we installed into.
DEPMOD_ROOT = $(if $(INSTALL_MOD_PATH),-b $(abspath $(INSTALL_MOD_PATH)))

.PHONY: deb install uninstall

deb:
	pkg/build-deb.sh $(OUT)/deb

# ZS_NO_TESTS: modules_install takes only zsmalloc.ko, not the test module
# the top-level Kbuild also names.
install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) ZS_NO_TESTS=1 modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) ZS_NO_TESTS=1 INSTALL_MOD_DIR=updates \
		$(if $(INSTALL_MOD_PATH),INSTALL_MOD_PATH=$(abspath $(INSTALL_MOD_PATH))) modules_install
	depmod $(DEPMOD_ROOT) $(KVER)

uninstall:
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/updates/zsmalloc.ko*
	depmod $(DEPMOD_ROOT) $(KVER)
