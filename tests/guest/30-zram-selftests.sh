#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 30-zram-selftests: the kernel's own zram selftests (zram01.sh: ext4 on
# zram, filled; zram02.sh: zram as swap), taken from the linux-source tree at
# build time and run unmodified under busybox sh, on the allocator picked by
# ZS_ALLOCATOR.  They write only zeros, which zram keeps without the
# allocator: a smoke test of the client's life cycle, not a data test.
set -u
. "$(dirname "$0")/lib.sh"

DIR=$(dirname "$0")/zram-selftests

# run_selftest NAME: run NAME.sh in its directory; pass on "[PASS]" and exit 0.
run_selftest() {
	out=$(cd "$DIR" && sh "./$1.sh" 2>&1)
	st=$?
	echo "$out"
	[ "$st" -eq 0 ] && echo "$out" | grep -q "^$1 : \[PASS\]"
}

zram_gone() {
	if zs_module_loaded zram; then
		echo "zram still loaded" >&2
		return 1
	fi
}

ktap_plan 4
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_test "zram01 (ext4 on zram)" run_selftest zram01
ktap_test "zram02 (swap on zram)" run_selftest zram02
ktap_test "zram unloaded by the selftests" zram_gone
ktap_finish
