#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a test kernel of a patch series: Debian's linux-source-SERIES with
# the series (ours) or without it (stock), same config.
#
#   scripts/build-kseries-kernel.sh SERIES ours|stock [debug] [CACHE]
#   CONFIG_ONLY=1 ...   only configure and check the config
#
# Config: tinyconfig + configs/kseries.config + configs/kseries-SERIES.config
# (+ configs/debug-checks.config, the 6.1 debug kernel's checks: KASAN,
# lockdep, kmemleak..., and configs/kseries-debug.config with "debug") +
# olddefconfig, every fragment line checked (scripts/check-kconfig.sh).
# Kept under CACHE (default /var/cache/zsmalloc-kseries), out of the work
# tree:
#   SERIES/linux-source-SERIES   pristine source (scripts/kseries-source.sh)
#   SERIES/VARIANT               a hard-linked copy of it; ours with the
#                                series applied
#   SERIES/VARIANT/build-KEY     the build tree (make O=), KEY = source
#                                version, debug or not, the fragments' sha256
# A build tree inside its source tree names it "..": the same objects serve
# both copies, so ours starts as a copy of stock's build tree and compiles
# only what the series changes.  ours is made anew from src/ on every call
# (the copy re-linked, the series applied again) and make rebuilds the
# allocator's files and the link: minutes rather than a full build.
#
# Result: SERIES/VARIANT.env, includable by make and by sh (KVER, KERNEL,
# KDIR, MODULES_DIR, KCONFIG), as scripts/build-debug-kernel.sh writes.
set -eu

series=$1
variant=$2
shift 2
debug=
[ "${1:-}" != debug ] || { debug=-debug; shift; }
cache=${1:-/var/cache/zsmalloc-kseries}
top=$(cd "$(dirname "$0")/.." && pwd)

case $variant in ours | stock) ;; *)
	echo "build-kseries-kernel: variant must be ours or stock" >&2; exit 2 ;;
esac
fragments="$top/configs/kseries.config $top/configs/kseries-$series.config"
[ -z "$debug" ] || fragments="$fragments $top/configs/debug-checks.config $top/configs/kseries-debug.config"

tree=$("$top/scripts/kseries-source.sh" "$series" "$cache")
mkdir -p "$cache/$series"
exec 9>"$cache/$series/.lock"
flock 9

key=$(cat "$tree/.zs-version")$debug-$(cat $fragments | sha256sum | cut -c1-16)
src=$cache/$series/$variant
build=$src/build-$key
mods=$build/mods
envfile=$cache/$series/$variant$debug.env

# link_source: SERIES/VARIANT anew from the pristine tree; build trees stay.
link_source() {
	mkdir -p "$src"
	find "$src" -mindepth 1 -maxdepth 1 ! -name 'build-*' -exec rm -rf {} +
	cp -al "$tree/." "$src/"
}

if [ "$variant" = ours ]; then
	patches=$cache/$series/patches
	"$top/scripts/make-patches.sh" "$tree" "$patches" >/dev/null
	link_source
	for p in "$patches"/*.patch; do
		case $p in */0000-*) continue ;; esac # the cover letter
		patch -d "$src" -p1 -s <"$p"
	done
	seed=$cache/$series/stock/build-$key
	if [ ! -f "$build/.config" ] && [ -f "$seed/vmlinux" ]; then
		echo "build-kseries-kernel: ours starts from stock's build tree"
		rm -rf "$build"
		cp -a "$seed" "$build"
	fi
elif ! cmp -s "$tree/.zs-version" "$src/.zs-version"; then
	link_source
fi

if [ ! -f "$build/.config" ]; then
	rm -rf "$build"
	mkdir -p "$build"
	{
		make -s -C "$src" O="$build" tinyconfig
		"$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
			"$build/.config" $fragments
		make -s -C "$src" O="$build" olddefconfig
	} >"$build/config.log" 2>&1 || { cat "$build/config.log" >&2; exit 1; }
fi
"$top/scripts/check-kconfig.sh" "$build/.config" $fragments
[ "${CONFIG_ONLY:-}" != 1 ] || { echo "build-kseries-kernel: $build/.config"; exit 0; }

start=$(date +%s)
echo "build-kseries-kernel: $series $variant$debug in $build (log: $build/build.log)"
if ! nice -n 10 make -C "$src" O="$build" -j"$(nproc)" bzImage modules \
		>"$build/build.log" 2>&1; then
	tail -n 40 "$build/build.log" >&2
	exit 1
fi
rm -rf "$mods"
make -s -C "$src" O="$build" INSTALL_MOD_PATH="$mods" modules_install \
	>>"$build/build.log" 2>&1
kver=$(make -s -C "$src" O="$build" kernelrelease)
cat >"$envfile.tmp" <<EOF
# written by scripts/build-kseries-kernel.sh; $series $variant$debug, key $key
KVER=$kver
KERNEL=$build/arch/x86/boot/bzImage
KDIR=$build
KSRC=$src
MODULES_DIR=$mods/lib/modules/$kver
KCONFIG=$build/.config
EOF
mv "$envfile.tmp" "$envfile"
echo "build-kseries-kernel: done in $(($(date +%s) - start)) s: $envfile"
