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

.PHONY: patches fetch-kseries

# The series' kernel sources, downloaded and unpacked, as make patches and
# the series' checks take them: .ci/run fetches them before its lanes.
fetch-kseries: deps
	@set -e; for s in $(KSERIES_ALL); do \
		scripts/kseries-source.sh $$s $(KSERIES_CACHE); done

patches: deps
	@set -e; for s in $(or $(KSERIES),$(KSERIES_ALL)); do \
		tree=$$(scripts/kseries-source.sh $$s $(KSERIES_CACHE)); \
		scripts/make-patches.sh $$tree $(OUT)/patches/$$s; \
		scripts/lint-series.sh $$tree $(OUT)/patches/$$s; \
	done

# make check KSERIES=6.12|7.2 [ZSMALLOC=stock]: the guest suites on the
# series' test kernel, zsmalloc built in: with the series (ours) or without
# (stock, that kernel's own), in a guest of two nodes (NUMA_NODES=2: the
# second has memory and no CPU, as test_zsmalloc's node_kept wants).  Ours also lints the series (make patches) and
# its in-tree build (scripts/lint-kseries-build.sh), and builds the series
# one patch at a time (scripts/check-series-build.sh).  The kernel comes from
# scripts/build-kseries-kernel.sh (cached in KSERIES_CACHE, rebuilt where src/
# changed); test_zsmalloc.ko is built for it in $(KS_OUT)/modtree.
#
# make check-debug KSERIES=...: the same suites on the series' debug kernel
# (KASAN, lockdep, kmemleak: configs/debug-checks.config), as check-debug
# does on 6.1; the lint is left to make check.  pci=noacpi as the 6.1 debug
# kernel has built in (configs/debug.config): under TCG with KASAN, QEMU's
# ACPI _PRT times out for every PCI device and virtio gets no interrupt.
KS_DEBUG ?=
KS_VARIANT = $(ZSMALLOC)$(if $(KS_DEBUG),-debug)
KS_OUT = $(OUT)/kseries/$(KSERIES)-$(KS_VARIANT)
KS_LINT = $(if $(filter ours,$(ZSMALLOC)),$(if $(KS_DEBUG),,yes))
# 7.x's ext4 computes crc32c without the crypto API.
KS_CRC32C_6.12 := crc32c_generic
KS_MODULES = zram virtio_pci virtio_blk $(KS_CRC32C_$(KSERIES)) ext4

# make check-build KSERIES=...: those checks of the series alone, on a
# kernel tree only configured and prepared (no kernel built or booted):
# CI's check of a series whose kernel it does not boot.
KS_ENV = $(KSERIES_CACHE)/$(KSERIES)/ours.env

.PHONY: check-kseries check-kseries-debug check-build check-kseries-build \
	kseries-build-checks test-module

check-build: check-kseries-build

check-kseries-build: deps
	@[ -n "$(KSERIES)" ] || { echo "check-build: KSERIES=6.12 or 7.2, please" >&2; exit 2; }
	PREPARE_ONLY=1 scripts/build-kseries-kernel.sh $(KSERIES) ours $(KSERIES_CACHE)
	@rm -rf $(KS_OUT)/counts
	@$(MAKE) --no-print-directory kseries-build-checks \
		KS_ENV=$(KSERIES_CACHE)/$(KSERIES)/ours-prepared.env
	@tests/host/summary.sh $(addprefix $(KS_OUT)/counts/,patches lint series-build)

# The series written and linted, its in-tree build linted, and built one
# patch at a time, against the tree KS_ENV names.
kseries-build-checks:
	-@tests/host/count.sh $(KS_OUT)/counts/patches \
		$(MAKE) --no-print-directory patches
	-@tests/host/count.sh $(KS_OUT)/counts/lint \
		scripts/lint-kseries-build.sh $(KS_ENV)
	-@tests/host/count.sh $(KS_OUT)/counts/series-build \
		scripts/check-series-build.sh $(KS_ENV) $(OUT)/patches/$(KSERIES)

check-kseries-debug:
	@$(MAKE) --no-print-directory check-kseries KS_DEBUG=debug TIMEOUT=3600 \
		SUITE_TIMEOUT=1800 GUEST_ENV='$(GUEST_ENV) $(DEBUG_GUEST_ENV)' \
		SUITES='$(or $(SUITES),$(DEBUG_SUITES))' \
		APPEND='$(APPEND) pci=noacpi'

check-kseries: deps $(BLOB) $(TREE)
	scripts/build-kseries-kernel.sh $(KSERIES) $(ZSMALLOC) $(KS_DEBUG) $(KSERIES_CACHE)
	@rm -rf $(KS_OUT)/counts $(KS_OUT)/vm/counts
	@[ -z "$(KS_LINT)" ] || $(MAKE) --no-print-directory kseries-build-checks
	-@. $(KSERIES_CACHE)/$(KSERIES)/$(KS_VARIANT).env && $(MAKE) --no-print-directory \
		test-module boot KVER=$$KVER KERNEL=$$KERNEL KDIR=$$KDIR \
		MODULES_DIR=$$MODULES_DIR LINUX_SRC=$$KSRC OUT=$(KS_OUT) \
		MODTREE=$(KS_OUT)/modtree BLOB=$(BLOB) TREE=$(TREE) NUMA_NODES=2 \
		STOCK_MODULES='$(KS_MODULES)' GUEST_MODULES='$(filter-out zram,$(KS_MODULES))'
	@tests/host/summary.sh $(if $(KS_LINT),$(addprefix \
		$(KS_OUT)/counts/,patches lint series-build)) $(KS_OUT)/vm/counts

# The in-kernel API test alone: the allocator is the kernel's.
test-module:
	scripts/mirror-sources.sh $(MODTREE)
	$(MAKE) -C $(KDIR) M=$(MODTREE)/tests modules
