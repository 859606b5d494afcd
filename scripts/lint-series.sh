#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lint a patch series as a maintainer does: checkpatch.pl --strict of the
# series' kernel on every patch; zero findings or failure.  Two kinds are
# not findings here:
#   FILE_PATH_CHANGES  "does MAINTAINERS need updating?" on the patches that
#                      add files: the first patch names mm/zsmalloc/ in
#                      MAINTAINERS (checked below), checkpatch looks per patch
#   CamelCase          the names of 7.2's page type and flag helpers, which
#                      page-flags.h makes with macros that checkpatch does
#                      not read (compat.h gives them to 6.12)
# Usage: lint-series.sh TREE DIR
set -eu

tree=$(cd "$1" && pwd)
dir=$(cd "$2" && pwd)

grep -q '^+F:.mm/zsmalloc/$' "$dir"/0001-*.patch ||
	{ echo "lint-series: patch 1 does not add mm/zsmalloc/ to MAINTAINERS" >&2; exit 1; }
log=$dir.checkpatch.log
# shellcheck disable=SC2046 # one word per patch
(cd "$tree" && perl scripts/checkpatch.pl --root="$tree" --strict --terse --showfile \
	--no-summary --ignore FILE_PATH_CHANGES $(ls "$dir"/0*.patch | grep -v /0000-)) \
	>"$log" 2>&1 || true
grep -vE '^mm/zsmalloc/[^:]*:[0-9]+: CHECK: Avoid CamelCase: <(__SetPageZsmalloc|SetPageMovableOps|PageZsmalloc)>' \
	"$log" >"$log.tmp" || true
n=$(grep -cE ': (ERROR|WARNING|CHECK):' "$log.tmp" || true)
echo "lint-series: checkpatch --strict: $(ls "$dir"/0*.patch | grep -vc /0000-) patches, $n findings"
[ "$n" -eq 0 ] || { grep -E ': (ERROR|WARNING|CHECK):' "$log.tmp"; rm -f "$log.tmp"; exit 1; }
rm -f "$log.tmp"
