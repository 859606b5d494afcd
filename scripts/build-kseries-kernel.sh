#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a test kernel of a patch series: Debian's linux-source-SERIES with
# the series (ours) or without it (stock), same config.
#
#   scripts/build-kseries-kernel.sh SERIES ours|stock [OPTION] [CACHE]
#   CONFIG_ONLY=1 ...   only configure and check the config
#   PREPARE_ONLY=1 ...  configure and `make prepare`: enough to compile
#                       single directories (mm/zsmalloc/), no kernel
#   NICE=N ...          build at that niceness (default 10: beside guests,
#                       whose timers should not starve)
#
# Config: tinyconfig + configs/kseries.config + configs/kseries-SERIES.config
# + what OPTION adds + olddefconfig, every fragment line checked
# (scripts/check-kconfig.sh).  OPTION:
#   debug          configs/debug-checks.config (the 6.1 debug kernel's
#                  checks: KASAN, lockdep, kmemleak...) and
#                  configs/kseries-debug.config
#   bench          configs/kseries-bench.config: the slab allocator as
#                  Debian's, for `make bench KSERIES=...`
#   bench-chain16  that and configs/kseries-chain16.config: stock at
#                  mainline's densest setting, a peer of the benchmark
# Kept under CACHE (default /var/cache/zsmalloc-kseries), out of the work
# tree:
#   SERIES/linux-source-SERIES   pristine source (scripts/kseries-source.sh)
#   SERIES/VARIANT[-OPTION]      a hard-linked copy of it; ours with the
#                                series applied; one per kernel, so that
#                                they build side by side (a lock each)
#   SERIES/VARIANT[-OPTION]/build-KEY  the build tree (make O=), KEY =
#                                source version, OPTION, the fragments'
#                                sha256
# A build tree inside its source tree names it "..": the same objects serve
# both copies, so ours starts as a copy of stock's build tree (of the same
# OPTION) and compiles only what the series changes.  A bench-chain16 tree
# likewise starts as a copy of the bench one, the fragment merged into its
# config: Kbuild
# recompiles only what reads CONFIG_ZSMALLOC_CHAIN_SIZE.  ours is made anew from src/ on every call
# (the copy re-linked, the series applied again) and make rebuilds the
# allocator's files and the link: minutes rather than a full build.
#
# Result: SERIES/VARIANT[-OPTION].env, includable by make and by sh (KVER, KERNEL,
# KDIR, MODULES_DIR, KCONFIG), as scripts/build-debug-kernel.sh writes;
# with PREPARE_ONLY=1, SERIES/VARIANT[-OPTION]-prepared.env (KVER, KDIR,
# KSRC, KCONFIG).
set -eu

series=$1
variant=$2
shift 2
option=
case ${1:-} in debug | bench | bench-chain16) option=$1; shift ;; esac
cache=${1:-/var/cache/zsmalloc-kseries}
top=$(cd "$(dirname "$0")/.." && pwd)
c=$top/configs

case $variant in ours | stock) ;; *)
	echo "build-kseries-kernel: variant must be ours or stock" >&2; exit 2 ;;
esac
"$top/scripts/deps.sh" --kernel-build

# fragments_of [OPTION]: the config fragments of a kernel with OPTION.
fragments_of() {
	echo "$c/kseries.config $c/kseries-$series.config"
	case ${1:-} in
	debug) echo "$c/debug-checks.config $c/kseries-debug.config" ;;
	bench) echo "$c/kseries-bench.config" ;;
	bench-chain16) echo "$c/kseries-bench.config $c/kseries-chain16.config" ;;
	esac
}
fragments=$(fragments_of "$option")

tree=$("$top/scripts/kseries-source.sh" "$series" "$cache")
src=$cache/$series/$variant${option:+-$option}
mkdir -p "$src"
exec 9>"$src/.lock"
flock 9

# key_of [OPTION]: the build tree's key of a kernel with OPTION.
key_of() {
	# shellcheck disable=SC2046 # one word per fragment
	echo "$(cat "$tree/.zs-version")${1:+-$1}-$(cat $(fragments_of "$1") |
		sha256sum | cut -c1-16)"
}
build=$src/build-$(key_of "$option")
mods=$build/mods
envfile=$cache/$series/$variant${option:+-$option}.env

new=$build.new

# A tree is configured when $build/.config is there: it is made under $new
# and renamed when complete and checked, so that a run which fails or is
# killed half-way leaves nothing a later run would take as configured.
# An older harness could leave such a config; it is made anew.
if [ -f "$build/.config" ] &&
	! "$top/scripts/check-kconfig.sh" "$build/.config" $fragments >/dev/null 2>&1; then
	echo "build-kseries-kernel: $build/.config does not honour the fragments; configuring anew" >&2
	rm -rf "$build"
fi

# link_source: SERIES/VARIANT anew from the pristine tree; build trees stay.
link_source() {
	find "$src" -mindepth 1 -maxdepth 1 ! -name 'build-*' ! -name .lock \
		-exec rm -rf {} +
	cp -al "$tree/." "$src/"
}

# configure_new: tinyconfig + the fragments in $new.
configure_new() {
	make -s -C "$src" O="$new" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$new" \
			"$new/.config" $fragments &&
		make -s -C "$src" O="$new" olddefconfig
}

# merge_chain16_new: the bench tree's config copied to $new, made chain 16.
merge_chain16_new() {
	"$src/scripts/kconfig/merge_config.sh" -m -O "$new" \
		"$new/.config" "$c/kseries-chain16.config" &&
		make -s -C "$src" O="$new" olddefconfig
}

# A tree not configured yet starts as a copy of $seed, if that is built, so
# that make compiles only what differs.
seed=
if [ "$variant" = ours ]; then
	# The series applied to this tree last time, kept in $src.patches: the
	# same series on the same source leaves the tree, and the build, as
	# they are (a check right after `make caches` builds nothing anew).
	patches=$src.patches
	"$top/scripts/make-patches.sh" "$tree" "$patches.new" >/dev/null
	if ! cmp -s "$tree/.zs-version" "$src/.zs-version" ||
		! diff -r "$patches" "$patches.new" >/dev/null 2>&1; then
		rm -rf "$patches"
		link_source
		for p in "$patches.new"/*.patch; do
			case $p in */0000-*) continue ;; esac # the cover letter
			patch -d "$src" -p1 -s <"$p"
		done
		mv "$patches.new" "$patches"
	fi
	rm -rf "$patches.new" "$patches.new.git" # make-patches.sh's scratch repository
	seed=$cache/$series/stock${option:+-$option}/build-$(key_of "$option")
elif ! cmp -s "$tree/.zs-version" "$src/.zs-version"; then
	link_source
fi
# Only CONFIG_ZSMALLOC_CHAIN_SIZE differs from the bench tree's config.
[ "$option" != bench-chain16 ] ||
	seed=$cache/$series/$variant-bench/build-$(key_of bench)

if [ ! -f "$build/.config" ]; then
	rm -rf "$new"
	if [ -n "$seed" ] && [ -f "$seed/vmlinux" ]; then
		echo "build-kseries-kernel: $variant ${option:-plain} starts from $seed"
		# Not while the seed's kernel is being built.
		exec 8>"$(dirname "$seed")/.lock"
		flock -s 8
		cp -a "$seed" "$new"
		exec 8>&-
		step=
		[ "$option" != bench-chain16 ] || step=merge_chain16_new
	else
		mkdir -p "$new"
		step=configure_new
	fi
	if [ -n "$step" ] && ! $step >"$new/config.log" 2>&1; then
		cat "$new/config.log" >&2
		rm -rf "$new"
		exit 1
	fi
	"$top/scripts/check-kconfig.sh" "$new/.config" $fragments
	mv "$new" "$build"
fi
[ "${CONFIG_ONLY:-}" != 1 ] || { echo "build-kseries-kernel: $build/.config"; exit 0; }

start=$(date +%s)
targets="bzImage modules"
[ "${PREPARE_ONLY:-}" != 1 ] || targets=prepare
echo "build-kseries-kernel: $series $variant${option:+ $option}: $targets in $build (log: $build/build.log)"
# shellcheck disable=SC2086 # one word per target
if ! nice -n "${NICE:-10}" make -C "$src" O="$build" -j"$(nproc)" $targets \
		>"$build/build.log" 2>&1; then
	tail -n 40 "$build/build.log" >&2
	exit 1
fi
if [ "${PREPARE_ONLY:-}" = 1 ]; then
	envfile=${envfile%.env}-prepared.env
	cat >"$envfile.tmp" <<EOF
# written by scripts/build-kseries-kernel.sh; $series $variant${option:+ $option} prepared, key ${build##*/build-}
KVER=$(make -s -C "$src" O="$build" kernelrelease)
KDIR=$build
KSRC=$src
KCONFIG=$build/.config
EOF
	mv "$envfile.tmp" "$envfile"
	echo "build-kseries-kernel: prepared in $(($(date +%s) - start)) s: $envfile"
	exit 0
fi
rm -rf "$mods"
make -s -C "$src" O="$build" INSTALL_MOD_PATH="$mods" modules_install \
	>>"$build/build.log" 2>&1
kver=$(make -s -C "$src" O="$build" kernelrelease)
cat >"$envfile.tmp" <<EOF
# written by scripts/build-kseries-kernel.sh; $series $variant${option:+ $option}, key ${build##*/build-}
KVER=$kver
KERNEL=$build/arch/x86/boot/bzImage
KDIR=$build
KSRC=$src
MODULES_DIR=$mods/lib/modules/$kver
KCONFIG=$build/.config
EOF
mv "$envfile.tmp" "$envfile"
echo "build-kseries-kernel: done in $(($(date +%s) - start)) s: $envfile"
