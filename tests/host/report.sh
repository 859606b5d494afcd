#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the "# zs-report: " lines a guest workload wrote to the console.
# Usage: report.sh CONSOLE_LOG
set -eu
log=$1
if ! grep -q '^# zs-report: ' "$log" 2>/dev/null; then
	echo "report: no report in $log"
	exit 1
fi
echo
sed -n 's/\r$//; s/^# zs-report: //p' "$log"
