#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fail unless every line of the config fragments holds in the final .config:
# Kconfig silently drops options whose dependencies are unmet.  A "=..."
# line must be there as written, an "is not set" line must have no value.
# A later fragment's line for a symbol overrides an earlier one's, as in
# merge_config.sh.
# Usage: check-kconfig.sh CONFIG FRAGMENT...
set -eu

config=$1
shift
bad=0
for fragment in "$@"; do
	shift # "$@" is now the fragments after this one
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*} ;;
		"# CONFIG_"*" is not set")
			sym=${line#"# "}; sym=${sym%" is not set"} ;;
		*)
			continue ;;
		esac
		# Overridden by a later fragment: checked there.
		[ $# -eq 0 ] || ! grep -qE "^(# )?${sym}[= ]" "$@" || continue
		case $line in
		CONFIG_*)
			grep -qxF -- "$line" "$config" && continue ;;
		*)
			grep -q "^$sym=" "$config" || continue ;;
		esac
		have=$(grep -E "^(# )?${sym}[= ]" "$config" || echo "nothing")
		echo "check-kconfig: $fragment wants '$line', $config has '$have'" >&2
		bad=1
	done <"$fragment"
done
[ $bad -eq 0 ] || { echo "check-kconfig: not honoured (unmet dependencies?)" >&2; exit 1; }
