#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build bench/tools/insnprof.c, a TCG plugin, against the plugin API of the
# installed qemu-system-x86: its header comes from that version's Debian
# source package, fetched once with `apt-get source --download-only` through
# bench/tools/qemu-src.list and an apt state of our own under CACHE (the
# machine's apt configuration is neither read for it nor changed, nothing is
# installed); only include/qemu/qemu-plugin.h is unpacked.
# Usage: build-insnprof.sh OUT.so [CACHE]   (CACHE: .cache/qemu-plugin)
set -eu

out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${2:-$top/.cache/qemu-plugin}
version=$(dpkg-query -W -f '${source:Version}' qemu-system-x86)
dir=$cache/$(echo "$version" | tr : _)
header=$dir/qemu-plugin.h

if [ ! -f "$header" ]; then
	set -- -o Dir::Etc::SourceList="$top/bench/tools/qemu-src.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$cache/apt/lists" \
		-o Dir::Cache="$cache/apt/cache" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root
	mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" \
		"$dir"
	apt-get "$@" -qq update
	(cd "$dir" && apt-get "$@" -qq source --download-only "qemu=$version")
	tar -xf "$dir"/qemu_*.orig.tar.* -C "$dir" --wildcards --strip-components=3 \
		'*/include/qemu/qemu-plugin.h'
	rm -f "$dir"/qemu_*
fi
gcc -O2 -Wall -shared -fPIC -I"$dir" -o "$out" \
	"$top/bench/tools/insnprof.c" -lpthread
echo "build-insnprof: $out (qemu $version)" >&2
