#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the test VM's initramfs (an uncompressed newc cpio archive).
#
# Usage: mkinitramfs.sh OUTPUT.cpio
# Environment (the Makefile sets all of these):
#   MODULES_DIR    the guest kernel's depmod'd module tree (.../lib/modules/KVER);
#                  its basename is the guest's `uname -r`
#   ZSMALLOC       ours | stock: which zsmalloc.ko the guest loads; on a kernel
#                  with zsmalloc built in (6.12 on), which one it is built with
#   PROJECT_KOS    the project's built .ko files, installed in /lib/zs
#   STOCK_MODULES  names of stock modules the guest needs (their dependencies
#                  from modules.dep come along)
#   GUEST_MODULES  stock modules /init loads before the suites (a subset)
#   GUEST_TOOLS    host programs copied with their libraries (see copy-with-libs.sh)
#   GUEST_BINS     static programs built for the guest, installed in /usr/bin
#   SUITES         suites to run: names (10, 10-zram-data, zram-data) looked up in
#                  tests/guest, or paths of suite files; empty: all NN-*.sh
#   SUITE_TIMEOUT  seconds after which the guest kills a suite (default 400)
#   GUEST_ENV      VAR=value words exported to every suite (no blanks in a value)
#   BLOB_SHA256    file holding the sha256 of the data disk (optional)
#   LINUX_SRC      kernel source tree; SELFTESTS names directories of its
#                  tools/testing/selftests, copied to /suites/NAME-selftests
set -eu

out=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
guest=$top/tests/guest
: "${MODULES_DIR:?}" "${ZSMALLOC:=ours}" "${PROJECT_KOS:=}" "${GUEST_TOOLS:=}" "${GUEST_BINS:=}"
: "${STOCK_MODULES:=zram virtio_pci virtio_blk}" "${GUEST_MODULES:=virtio_pci virtio_blk}"
: "${SUITES:=}" "${SUITE_TIMEOUT:=400}" "${BLOB_SHA256:=}" "${LINUX_SRC:=}" "${SELFTESTS:=}"
: "${GUEST_ENV:=}"
kver=$(basename "$MODULES_DIR")

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

case $ZSMALLOC in
ours | stock) ;;
*) die "ZSMALLOC must be ours or stock, not '$ZSMALLOC'" ;;
esac
[ -f "$MODULES_DIR/modules.dep" ] || die "$MODULES_DIR/modules.dep missing (make deps)"
# zsmalloc built into vmlinux: nothing to load, the kernel is the choice.
zs_builtin=0
! grep -q '/zsmalloc\.ko$' "$MODULES_DIR/modules.builtin" 2>/dev/null || zs_builtin=1

# --- suites: resolve SUITES words to files, in lexical order of their names
suite_files=
if [ -z "$SUITES" ]; then
	suite_files=$(ls "$guest"/[0-9][0-9]-*.sh)
else
	for w in $SUITES; do
		f=
		if [ -f "$w" ]; then
			f=$w
		else
			for pat in "$w.sh" "$w-*.sh" "*-$w.sh" "*$w*.sh"; do
				# shellcheck disable=SC2086 # the pattern must glob
				f=$(ls "$guest"/$pat 2>/dev/null || true)
				[ -z "$f" ] || break
			done
		fi
		[ -n "$f" ] || die "no suite matches '$w' in $guest"
		suite_files="$suite_files
$f"
	done
fi
suite_files=$(for f in $suite_files; do echo "$(basename "$f") $f"; done | sort -u -k1,1 | cut -d' ' -f2)

root=$(mktemp -d "${TMPDIR:-/tmp}/zs-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/bin "$root"/sbin "$root"/usr/bin "$root"/usr/sbin "$root"/etc \
	"$root"/proc "$root"/sys "$root"/dev "$root"/tmp "$root"/run \
	"$root"/lib/zs "$root"/suites "$root/lib/modules/$kver"
mknod -m 600 "$root/dev/console" c 5 1

# --- busybox userland
bb=$(command -v busybox) || die "busybox not found (make deps)"
cp "$bb" "$root/bin/busybox"
for applet in $("$bb" --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
# shellcheck disable=SC2086 # one word per program
[ -z "$GUEST_TOOLS" ] || "$here/copy-with-libs.sh" "$root" $GUEST_TOOLS
for f in $GUEST_BINS; do
	cp "$f" "$root/usr/bin/"
done

# --- stock modules and what they depend on, with a fresh depmod
want=$STOCK_MODULES
builtin=
[ "$ZSMALLOC/$zs_builtin" != stock/0 ] || want="zsmalloc $want"
for m in $want; do
	m=$(echo "$m" | tr - _)
	line=$(awk -v m="$m" -F: '{ n = $1; sub(/.*\//, "", n); sub(/\.ko.*/, "", n);
		gsub(/-/, "_", n); if (n == m) { print; exit } }' "$MODULES_DIR/modules.dep")
	if [ -z "$line" ]; then
		# Built into this kernel (a debug build, say): nothing to copy.
		if grep -q "/$m\.ko\$" "$MODULES_DIR/modules.builtin" 2>/dev/null ||
			grep -q "/$(echo "$m" | tr _ -)\.ko\$" "$MODULES_DIR/modules.builtin" 2>/dev/null; then
			builtin="$builtin $m"
			continue
		fi
		die "module $m not in $MODULES_DIR/modules.dep nor modules.builtin"
	fi
	for f in $(echo "$line" | tr -d :); do
		# With our allocator, the stock one must not be there to be loaded
		# by mistake: zram then binds to whichever zsmalloc is loaded.
		case $ZSMALLOC/$f in ours/*/zsmalloc.ko*) continue ;; esac
		mkdir -p "$root/lib/modules/$kver/$(dirname "$f")"
		cp "$MODULES_DIR/$f" "$root/lib/modules/$kver/$f"
	done
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ ! -f "$MODULES_DIR/$f" ] || cp "$MODULES_DIR/$f" "$root/lib/modules/$kver/"
done
depmod -b "$root" "$kver"

# --- the project's modules
for ko in $PROJECT_KOS; do
	cp "$ko" "$root/lib/zs/"
done
if [ "$ZSMALLOC/$zs_builtin" = ours/0 ] && [ ! -f "$root/lib/zs/zsmalloc.ko" ]; then
	die "ZSMALLOC=ours but zsmalloc.ko is not built (make modules, or ZSMALLOC=stock)"
fi

# --- init, suites and their configuration
cp "$guest/init" "$root/init"
cp "$guest/lib.sh" "$root/suites/lib.sh"
names=
for f in $suite_files; do
	cp "$f" "$root/suites/"
	names="$names $(basename "$f")"
done
for t in $SELFTESTS; do
	d=$LINUX_SRC/tools/testing/selftests/$t
	[ -d "$d" ] || die "$d missing (LINUX_SRC, make deps)"
	mkdir -p "$root/suites/$t-selftests"
	find "$d" -maxdepth 1 -type f -exec cp {} "$root/suites/$t-selftests/" \;
done
chmod 755 "$root/init" "$root"/suites/*.sh
# /init modprobes GUEST_MODULES, less those built into the kernel.
load=
for m in $GUEST_MODULES; do
	case " $builtin " in *" $(echo "$m" | tr - _) "*) ;; *) load="$load $m" ;; esac
done
load=${load# }
sha=
[ -z "$BLOB_SHA256" ] || sha=$(cut -d' ' -f1 "$BLOB_SHA256")
cat >"$root/etc/zs.conf" <<EOC
ZS_ALLOCATOR=$ZSMALLOC
ZS_BUILTIN=$zs_builtin
ZS_MODDIR=/lib/zs
ZS_SUITES="${names# }"
ZS_GUEST_MODULES="$load"
ZS_SUITE_TIMEOUT=$SUITE_TIMEOUT
ZS_BLOB_SHA256=$sha
EOC
for kv in $GUEST_ENV; do
	case $kv in
	[A-Z]*=*) echo "export $kv" >>"$root/etc/zs.conf" ;;
	*) die "GUEST_ENV: '$kv' is not VAR=value" ;;
	esac
done

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB; allocator $ZSMALLOC; suites:$names)"
