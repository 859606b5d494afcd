#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run COMMAND as one check of `make check`: write "1 0 0" (passed) or
# "0 1 0" (failed) to COUNTFILE for summary.sh; exit with COMMAND's status.
# Usage: count.sh COUNTFILE COMMAND [ARG...]
set -eu
file=$1
shift
st=0
"$@" || st=$?
mkdir -p "$(dirname "$file")"
if [ "$st" -eq 0 ]; then echo "1 0 0"; else echo "0 1 0"; fi >"$file"
exit "$st"
