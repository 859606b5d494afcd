#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a patch series one patch at a time, as bisection would: after each
# patch, mm/zsmalloc/ of the series' kernel is compiled with W=1, and any
# compiler error or warning fails.  (The kernel after the last patch is
# built whole, and booted, by make check KSERIES=...; until the patch that
# links the new allocator in, the new files are compiled beside the old
# one but not linked, so that the kernel is the stock one plus them.)
#
#   scripts/check-series-build.sh ENV PATCHDIR
#
# ENV is the series' ours.env (scripts/build-kseries-kernel.sh): its build
# tree, configured and built, is copied once for the run, and the pristine
# source beside it (KSRC's ../linux-source-SERIES) is hard-linked, then
# patched one patch at a time.
set -eu

# shellcheck source=/dev/null # written by build-kseries-kernel.sh
. "$1"
patches=$(cd "$2" && pwd)
dir=$(dirname "$KSRC")
series=$(basename "$dir")
pristine=$dir/linux-source-$series
work=$dir/series-build
# One run at a time; the ours kernel's tree is not rebuilt meanwhile.
exec 9>"$work.lock"
flock 9
exec 8>"$KSRC/.lock"
flock -s 8

rm -rf "$work"
mkdir -p "$work/src"
cp -al "$pristine/." "$work/src/"
cp -a "$KDIR" "$work/build"
n=0
for p in "$patches"/0*.patch; do
	case $p in */0000-*) continue ;; esac
	n=$((n + 1))
	patch -d "$work/src" -p1 -s <"$p"
	log=$work/build-$n.log
	if ! make -C "$work/src" O="$work/build" W=1 mm/zsmalloc/ >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "series-build: $(basename "$p"): does not build" >&2
		exit 1
	fi
	if grep -E "warning:|error:" "$log" >&2; then
		echo "series-build: $(basename "$p"): W=1 findings" >&2
		exit 1
	fi
	echo "series-build: $(basename "$p"): mm/zsmalloc/ builds, W=1 clean" \
		"($(ls "$work/src/mm/zsmalloc/"*.c 2>/dev/null | wc -l) files)"
done
rm -rf "$work"
echo "series-build: $series: $n patches, each builds"
