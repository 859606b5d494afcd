#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug guest kernel (KASAN, lockdep, kmemleak, fault injection)
# that the harness boots under QEMU to test our zsmalloc.ko.
#
#   scripts/build-debug-kernel.sh [CACHE_DIR]   build, or reuse a cached build
#   CONFIG_ONLY=1 scripts/build-debug-kernel.sh only configure and check
#
# Source: Debian's linux-source-6.1 tarball, unpacked pristine into CACHE_DIR
# (default .cache/debug-kernel) and built out of tree (make O=).  Config:
# tinyconfig + configs/debug.config + configs/debug-checks.config +
# olddefconfig, then every line of the fragments is checked against the final
# .config.  A build is keyed by the source package version and the sha256 of
# the fragments (one after the other); when that key is
# already built the script only prints where things are, and a new build
# removes the builds of other keys.  The build takes 13-40 minutes on two
# cores; a CACHE_DIR outside the work tree survives fresh clones.
#
# Result: CACHE_DIR/kernel.env, includable by make and by sh:
#   KVER         kernel release (uname -r in the guest)
#   KERNEL       bzImage for qemu -kernel
#   KDIR         build tree: make -C $KDIR M=$PWD modules
#   KSRC         source tree KDIR builds from
#   MODULES_DIR  installed modules, with modules.dep (lib/modules/$KVER)
#   KCONFIG      final .config
set -eu

# Bump when the way of building changes but neither key input does.
RECIPE=1

top=$(cd "$(dirname "$0")/.." && pwd)
# The debugging part is its own file, shared with the series' debug kernels
# (scripts/build-kseries-kernel.sh ... debug); the key hashes the two as one.
fragments="$top/configs/debug.config $top/configs/debug-checks.config"
tarball=/usr/src/linux-source-6.1.tar.xz

# The build's packages (linux-source-6.1 among the harness's own).
"$top/scripts/deps.sh" --kernel-build
cache=${1:-$top/.cache/debug-kernel}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# One builder at a time per cache; a waiting run then finds the result.
exec 9>"$cache/.lock"
flock 9

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
fragsum=$(cat $fragments | sha256sum | cut -c1-16)
key=$srcver-$fragsum-r$RECIPE
src=$cache/src-$srcver
build=$cache/build-$key
mods=$cache/mods-$key
envfile=$cache/kernel-$key.env

if [ -f "$envfile" ]; then
	echo "build-debug-kernel: cached build $key"
else
	if [ ! -d "$src" ]; then
		echo "build-debug-kernel: unpacking $tarball"
		rm -rf "$src.tmp"
		mkdir "$src.tmp"
		tar -C "$src.tmp" -xf "$tarball"
		mv "$src.tmp/linux-source-6.1" "$src"
		rmdir "$src.tmp"
	fi

	rm -rf "$build" "$mods"
	mkdir -p "$build"
	start=$(date +%s)
	# && rather than set -e, which does not hold left of ||.
	{
		make -s -C "$src" O="$build" tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
				"$build/.config" $fragments &&
			make -s -C "$src" O="$build" olddefconfig
	} >"$build/config.log" 2>&1 || { cat "$build/config.log" >&2; exit 1; }
	"$top/scripts/check-kconfig.sh" "$build/.config" $fragments
	[ "${CONFIG_ONLY:-}" != 1 ] || { echo "build-debug-kernel: $build/.config"; exit 0; }

	echo "build-debug-kernel: building $key in $build (log: $build/build.log)"
	if ! nice -n 10 make -C "$src" O="$build" -j"$(nproc)" bzImage modules \
			>"$build/build.log" 2>&1; then
		tail -n 40 "$build/build.log" >&2
		exit 1
	fi
	make -s -C "$src" O="$build" INSTALL_MOD_PATH="$mods" modules_install \
		>>"$build/build.log" 2>&1
	kver=$(make -s -C "$src" O="$build" kernelrelease)
	[ -f "$mods/lib/modules/$kver/modules.dep" ]

	cat >"$envfile.tmp" <<-EOF
		# written by scripts/build-debug-kernel.sh; key $key
		KVER=$kver
		KERNEL=$build/arch/x86/boot/bzImage
		KDIR=$build
		KSRC=$src
		MODULES_DIR=$mods/lib/modules/$kver
		KCONFIG=$build/.config
	EOF
	mv "$envfile.tmp" "$envfile"
	echo "build-debug-kernel: built in $(($(date +%s) - start)) s"
	for old in "$cache"/src-* "$cache"/build-* "$cache"/mods-* \
		"$cache"/kernel-*.env; do
		case $old in "$src" | "$build" | "$mods" | "$envfile") ;;
		*) rm -rf "$old" ;;
		esac
	done
fi

cp "$envfile" "$cache/kernel.env.tmp"
mv "$cache/kernel.env.tmp" "$cache/kernel.env"
echo "build-debug-kernel: $cache/kernel.env"
sed -n 's/^\([A-Z_]*\)=/  \1=/p' "$cache/kernel.env"
