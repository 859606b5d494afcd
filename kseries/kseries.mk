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
