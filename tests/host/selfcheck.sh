#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-checks: boot the VM through `make boot` with one injected
# suite each, and check the harness says what it must: a passing suite
# passes; a failing test, a panic and a hang each make it exit non-zero
# with the matching message. Then the verdict parser's own checks
# (test_verdict.py, no VM). Prints one KTAP document and writes
# "PASSED FAILED SKIPPED" to $OUT/selfcheck/counts.
# Environment: MAKE, OUT (absolute), BLOB, TREE; ZSMALLOC and the other make
# variables reach the inner makes through MAKEFLAGS.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
: "${MAKE:=make}" "${OUT:=$top/out}" "${BLOB:=$OUT/blob.img}" "${TREE:=$OUT/tree.img}"
HANG_TIMEOUT=${HANG_TIMEOUT:-40}
dir=$OUT/selfcheck
mkdir -p "$dir"
n=0
passed=0
failed=0

# case_ NAME SUITES MAKEVARS WANT_STATUS PATTERN DESCRIPTION: `make boot` with
# the suites tests/host/selfcheck/90-SUITE.sh and the extra make variables;
# the harness must exit with status 0 (WANT_STATUS 0) or non-zero (1) and
# print a line matching PATTERN.
case_() {
	name=$1 suites=$2 vars=$3 want=$4 pattern=$5
	shift 5
	n=$((n + 1))
	log=$dir/$name.log
	paths=
	for s in $suites; do
		paths="$paths tests/host/selfcheck/90-$s.sh"
	done
	st=0
	# shellcheck disable=SC2086 # VAR=value words
	$MAKE --no-print-directory boot OUT="$dir/$name" BLOB="$BLOB" TREE="$TREE" \
		SUITES="$paths" $vars >"$log" 2>&1 || st=$?
	[ "$st" -eq 0 ] && got=0 || got=1
	if [ "$got" -eq "$want" ] && grep -qE "$pattern" "$log"; then
		passed=$((passed + 1))
		echo "ok $n $*"
	else
		failed=$((failed + 1))
		echo "# harness exit status $st, wanted $([ "$want" -eq 0 ] && echo 0 || echo non-zero)," \
			"and a line matching '$pattern'; its output ($log):"
		sed 's/^/#   /' "$log" | tail -n 25
		echo "not ok $n $*"
	fi
}

echo "KTAP version 1"
echo "# harness self-checks"
echo "1..6"
case_ pass pass TIMEOUT=300 0 '^verdict: PASS, 1 ok, 0 not ok, 1 skipped' \
	"a passing guest suite passes"
case_ fail fail TIMEOUT=300 1 '^    .*: not ok 2 a test forced to fail' \
	"a failing guest test fails the run"
case_ panic panic TIMEOUT=300 1 'Kernel panic - not syncing: sysrq triggered crash' \
	"a guest kernel panic fails the run"
case_ hang hang "TIMEOUT=$HANG_TIMEOUT" 1 '^FAIL: VM killed: no poweroff within' \
	"a hung guest fails the run"
case_ suite-timeout "hang pass" "TIMEOUT=300 SUITE_TIMEOUT=10" 1 \
	'zs-harness: error: 90-hang killed after 10s' \
	"a suite over SUITE_TIMEOUT is killed and fails the run"

n=$((n + 1))
if python3 "$top/tests/host/test_verdict.py" >"$dir/test_verdict.log" 2>&1; then
	passed=$((passed + 1))
	echo "ok $n verdict parser checks ($(grep -c '^ok' "$dir/test_verdict.log") cases)"
else
	failed=$((failed + 1))
	sed 's/^/# /' "$dir/test_verdict.log"
	echo "not ok $n verdict parser checks"
fi
echo "$passed $failed 0" >"$dir/counts"
[ "$failed" -eq 0 ]
