#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the modules, W=1, against the headers of other Debian kernel flavours
# (default: rt-amd64, PREEMPT_RT; cloud-amd64, no zswap and so no zpool), so
# that what differs there is found at build time.  Each flavour's headers come
# from its linux-headers-FLAVOUR metapackage (installed by scripts/deps.sh);
# the sources are mirrored to OUT/FLAVOUR.  Any compiler or modpost warning
# or error fails.  Sparse is not run here: PREEMPT_RT's spinlocks carry no
# lock-context annotations in 6.1, so it reports every __acquires() function.
# Usage: build-flavours.sh OUT FLAVOUR...
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
# What counts as a finding, as in lint.sh: compiler and modpost messages.
findings='(warning|error):|^WARNING:|^ERROR:'
failed=0
for flavour in "$@"; do
	kver=$("$top/scripts/kver.sh" "linux-headers-$flavour")
	dir=$out/$flavour
	"$top/scripts/mirror-sources.sh" "$dir"
	st=0
	make -C "/usr/src/linux-headers-$kver" M="$dir" W=1 modules >"$dir/build.log" 2>&1 || st=$?
	n=$(grep -cE "$findings" "$dir/build.log" || true)
	echo "flavours: $kver: exit $st, $n findings (log: $dir/build.log)"
	if [ "$st" -ne 0 ] || [ "$n" -ne 0 ]; then
		grep -E "$findings" "$dir/build.log" || true
		failed=1
	fi
done
exit $failed
