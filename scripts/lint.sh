#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lint the project's kernel C: zero findings or failure.
#   1. checkpatch.pl --strict --no-tree --terse on every .c/.h of the project
#      (committed or not, unless git-ignored) that sits in a directory with a
#      Kbuild file, i.e. module source; user-space helpers (tests/guest/*.c,
#      bench tools) are not kernel code. Run from the unpacked kernel source
#      tree so that its spelling.txt and const_structs.checkpatch are the
#      ones beside it;
#   2. the modules rebuilt with sparse on every file (C=2) and W=1: any
#      compiler, sparse or modpost warning or error is a finding.
# Usage: lint.sh LINUX_SRC KDIR [LOGDIR]
set -eu

src=$(cd "$1" && pwd)
kdir=$2
logdir=${3:-out}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mkdir -p "$logdir"
found=0

checkpatch=$src/scripts/checkpatch.pl
for f in "$checkpatch" "$src/scripts/spelling.txt" "$src/scripts/const_structs.checkpatch"; do
	[ -f "$f" ] || { echo "lint: $f missing (make deps)" >&2; exit 1; }
done

files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' | grep -v '\.mod\.c$' |
	while read -r f; do
		case $f in compat/*) echo "$f"; continue ;; esac
		[ ! -f "$(dirname "$f")/Kbuild" ] || echo "$f"
	done)
if [ -n "$files" ]; then
	# Run inside the source tree (no .git there) with --root: checkpatch
	# then learns the kernel's own CamelCase names (__SetPageMovable...)
	# from its include/ and keeps its cache file there.
	abs=$(echo "$files" | sed "s|^|$top/|")
	# shellcheck disable=SC2086 # one word per file
	(cd "$src" && perl "$checkpatch" --root="$src" --strict --no-tree --terse \
		--no-summary -f $abs) 2>&1 | sed "s|^$top/||" >"$logdir/checkpatch.log" || true
	# tests/zst_api.h exists to test the kernel version (the test module
	# builds for 6.1, 6.12 and 7.2), which in-tree code never does: only
	# there are LINUX_VERSION_CODE tests (and their "constant on the right"
	# twin) not findings.  src/ is written for 7.2, and compat/ gives older
	# kernels its names: the CamelCase names of 7.2's page types and flags,
	# unknown to this (6.1) tree, are not findings either.
	grep -vE '^(tests/zst_api\.h:[0-9]+: WARNING: (LINUX_VERSION_CODE should be avoided|Comparisons should place the constant on the right)|(src|compat)/[^:]*:[0-9]+: CHECK: Avoid CamelCase: <(__SetPageZsmalloc|SetPageMovableOps|PageZsmalloc)>)' \
		"$logdir/checkpatch.log" >"$logdir/checkpatch.log.tmp" || true
	mv "$logdir/checkpatch.log.tmp" "$logdir/checkpatch.log"
	n=$(grep -cE ': (ERROR|WARNING|CHECK):' "$logdir/checkpatch.log" || true)
	echo "lint: checkpatch: $(echo "$files" | wc -l) files, $n findings"
	[ "$n" -eq 0 ] || { grep -E ': (ERROR|WARNING|CHECK):' "$logdir/checkpatch.log"; found=1; }
fi

# Make every object recompile, so the W=1 warnings of files that did not
# change since the last build are seen too (sparse, C=2, checks them all).
dirs=$(sed -n 's/^obj-m[[:space:]]*[+:]*=//p' Kbuild)
# shellcheck disable=SC2086 # one word per directory
find $dirs -name '.*.o.cmd' -delete 2>/dev/null || true
st=0
make -C "$kdir" M="$top" C=2 W=1 modules >"$logdir/lint-build.log" 2>&1 || st=$?
n=$(grep -cE '(warning|error):|^WARNING:|^ERROR:' "$logdir/lint-build.log" || true)
echo "lint: sparse (C=2) and W=1 build: $n findings"
if [ "$n" -ne 0 ] || [ "$st" -ne 0 ]; then
	grep -E '(warning|error):|^WARNING:|^ERROR:' "$logdir/lint-build.log" ||
		tail -n 20 "$logdir/lint-build.log"
	found=1
fi

[ "$found" -eq 0 ] || { echo "lint: FAILED (logs in $logdir)"; exit 1; }
echo "lint: clean"
