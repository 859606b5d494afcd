# SPDX-License-Identifier: GPL-2.0
# Makefile fragment for the top Makefile: the allocator as a patch series
# for kernels that build zsmalloc into vmlinux (6.12 and later).
#
#   make patches [KSERIES=6.12|7.2]   the series (both without KSERIES) in
#                  $(OUT)/patches/SERIES/, from Debian's linux-source-SERIES
#                  (fetched and unpacked under KSERIES_CACHE), checked to
#                  apply to it and linted (checkpatch.pl --strict)

KSERIES_CACHE ?= /var/cache/zsmalloc-kseries
KSERIES_ALL   := 6.12 7.2

.PHONY: patches

patches: deps
	@set -e; for s in $(or $(KSERIES),$(KSERIES_ALL)); do \
		tree=$$(scripts/kseries-source.sh $$s $(KSERIES_CACHE)); \
		scripts/make-patches.sh $$tree $(OUT)/patches/$$s; \
		scripts/lint-series.sh $$tree $(OUT)/patches/$$s; \
	done

# make check KSERIES=6.12|7.2 [ZSMALLOC=stock]: the guest suites on the
# series' test kernel, zsmalloc built in: with the series (ours) or without
# (stock, that kernel's own).  Ours also lints the series (make patches) and
# its in-tree build (scripts/lint-kseries-build.sh).  The kernel comes from
# scripts/build-kseries-kernel.sh (cached in KSERIES_CACHE, rebuilt where src/
# changed); test_zsmalloc.ko is built for it in $(KS_OUT)/modtree.
KS_OUT = $(OUT)/kseries/$(KSERIES)-$(ZSMALLOC)
# 7.x's ext4 computes crc32c without the crypto API.
KS_CRC32C_6.12 := crc32c_generic
KS_MODULES = zram virtio_pci virtio_blk $(KS_CRC32C_$(KSERIES)) ext4

.PHONY: check-kseries test-module

check-kseries: deps $(BLOB) $(TREE)
	scripts/build-kseries-kernel.sh $(KSERIES) $(ZSMALLOC) $(KSERIES_CACHE)
	@rm -rf $(KS_OUT)/counts $(KS_OUT)/vm/counts
	-@[ $(ZSMALLOC) != ours ] || tests/host/count.sh $(KS_OUT)/counts/patches \
		$(MAKE) --no-print-directory patches
	-@[ $(ZSMALLOC) != ours ] || tests/host/count.sh $(KS_OUT)/counts/lint \
		scripts/lint-kseries-build.sh $(KSERIES_CACHE)/$(KSERIES)/ours.env
	-@. $(KSERIES_CACHE)/$(KSERIES)/$(ZSMALLOC).env && $(MAKE) --no-print-directory \
		test-module boot KVER=$$KVER KERNEL=$$KERNEL KDIR=$$KDIR \
		MODULES_DIR=$$MODULES_DIR LINUX_SRC=$$KSRC OUT=$(KS_OUT) \
		MODTREE=$(KS_OUT)/modtree BLOB=$(BLOB) TREE=$(TREE) \
		STOCK_MODULES='$(KS_MODULES)' GUEST_MODULES='$(filter-out zram,$(KS_MODULES))'
	@tests/host/summary.sh $(if $(filter ours,$(ZSMALLOC)),$(addprefix \
		$(KS_OUT)/counts/,patches lint)) $(KS_OUT)/vm/counts

# The in-kernel API test alone: the allocator is the kernel's.
test-module:
	scripts/mirror-sources.sh $(MODTREE)
	$(MAKE) -C $(KDIR) M=$(MODTREE)/tests modules
