#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build each part of the project (each directory the top-level Kbuild names)
# on its own, skipping, with a note, the parts that are missing or do not
# build yet. For working on one part while another is broken: `make` (all
# parts at once, via the top-level Kbuild) is what counts.
# Usage: build-available.sh KDIR [LOGDIR]
set -eu

kdir=$1
logdir=${2:-out}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mkdir -p "$logdir"
symvers=
for d in $(sed -n 's/^obj-m[[:space:]]*[+:]*=//p' Kbuild); do
	d=${d%/}
	if [ ! -f "$d/Kbuild" ] && [ ! -f "$d/Makefile" ]; then
		echo "build-available: $d/: SKIPPED, no Kbuild"
		continue
	fi
	log=$logdir/build-$(echo "$d" | tr / -).log
	# Later parts may use the exports of earlier ones (tests use src's).
	if make -C "$kdir" M="$top/$d" ${symvers:+KBUILD_EXTRA_SYMBOLS="$symvers"} \
		modules >"$log" 2>&1; then
		echo "build-available: $d/: built"
		[ ! -f "$d/Module.symvers" ] || symvers="$symvers $top/$d/Module.symvers"
	else
		echo "build-available: $d/: SKIPPED, does not build (see $log)"
	fi
done
