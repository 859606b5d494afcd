#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Add up "PASSED FAILED SKIPPED" count files and print the one closing line
# of `make check`: "check: N passed, M failed[, K skipped]". A missing count
# file (a step that never got to count) is one failure. Exits 1 if anything
# failed.
# Usage: summary.sh COUNTFILE...
set -eu
p=0 f=0 s=0
for c in "$@"; do
	if [ -f "$c" ] && read -r cp cf cs <"$c"; then
		p=$((p + cp)) f=$((f + cf)) s=$((s + cs))
	else
		echo "summary: $c: no counts (that step did not finish)"
		f=$((f + 1))
	fi
done
if [ "$s" -gt 0 ]; then
	echo "check: $p passed, $f failed, $s skipped"
else
	echo "check: $p passed, $f failed"
fi
[ "$f" -eq 0 ]
