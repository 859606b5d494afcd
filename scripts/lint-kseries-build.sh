#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The allocator's in-tree build linted as a maintainer does: W=1 and sparse
# (C=2) on mm/zsmalloc/ of a series' test kernel, zero findings.
#
#   scripts/lint-kseries-build.sh ENV    (SERIES/ours.env of
#                                         scripts/build-kseries-kernel.sh)
#
# 7.x's Makefile turns sparse off when it is older than the kernel needs
# (Debian 12's 0.6.4 lacks __typeof_unqual__): there only W=1 counts, and
# the script says so.  The objects are rebuilt with W=1; the next kernel
# build rebuilds them as they were and relinks.
set -eu

# shellcheck source=/dev/null # written by build-kseries-kernel.sh
. "$1"
too_old="is not available or not up to date"
log=$KDIR/lint.log
exec 9>"$(dirname "$KDIR")/.lock"
flock 9
if ! make -C "$KSRC" O="$KDIR" W=1 C=2 mm/zsmalloc/ >"$log" 2>&1; then
	cat "$log" >&2
	exit 1
fi
sparse=sparse
! grep -q "$too_old" "$log" || sparse="no sparse (too old for this kernel)"
grep -v "$too_old" "$log" | grep -E "warning:|error:" >&2 && st=1 || st=0
echo "lint-kseries-build: $KVER mm/zsmalloc/: W=1, $sparse:" \
	"$(grep -v "$too_old" "$log" | grep -cE "warning:|error:") findings"
exit $st
