#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make check-system: the DKMS package in a real Debian 12 system, booted under
# QEMU with systemd as init, three boots in a row on one copy of the system
# image IMG (scripts/mksystem.sh), each judged by tests/host/verdict.py:
#   install  apt install the package (DKMS builds in the guest)
#   ours     zram swap from systemd-zram-generator and zswap on our module
#            under memory pressure; apt remove
#   stock    the stock module is back and zram swap still works
# (tests/system/stage.sh says what each checks.)  Each boot runs the newest
# kernel of the image with its own initrd, read out of the image with
# debugfs, as a boot loader would pick it.  Stops at the first failed stage.
# Usage: check-system.sh OUT IMG DEB MEMHOG
# Environment: VM settings as for run-vm.sh (TIMEOUT per boot, SMP, MEM...).
set -eu

out=$1
img=$2
deb=$3
memhog=$4
top=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$out"
mkdir -p "$out/test" "$out/boot"
echo "check-system: copy of $img"
cp --sparse=always "$img" "$out/root.img"

# newest_kver: the newest kernel in the image's /boot.
newest_kver() {
	debugfs -R 'ls /boot' "$out/root.img" 2>/dev/null | tr -s ' \t' '\n' |
		sed -n 's/^vmlinuz-//p' | sort -V | tail -n 1
}

cp "$top/tests/system/stage.sh" "$top/tests/guest/lib.sh" "$memhog" "$deb" "$out/test/"
cat >"$out/test/system.conf" <<EOC
ZS_DEB=$(basename "$deb")
EOC
mkfs.ext4 -q -F -L zs-test -d "$out/test" "$out/test.img" 512M

# The install boot took 649 s of suite beside CI's other checks (the DKMS
# build under TCG), and once, with a second kernel installed, 1398 s on an
# idle host: leave a slower CI host room.
: "${TIMEOUT:=3000}" "${MEM:=2G}"
export TIMEOUT MEM
for stage in install ours stock; do
	kver=$(newest_kver)
	for f in vmlinuz initrd.img; do
		debugfs -R "dump /boot/$f-$kver $out/boot/$f-$kver" "$out/root.img" 2>/dev/null
	done
	echo "check-system: stage $stage, booting $kver"
	KERNEL=$out/boot/vmlinuz-$kver INITRD=$out/boot/initrd.img-$kver ROOT=$out/root.img \
		TEST=$out/test.img SCRATCH=$out/scratch.img SCRATCH_MIB=512 \
		APPEND="root=/dev/vda rw systemd.show_status=0 ${APPEND:-}" \
		"$top/scripts/run-vm.sh" "$out/$stage"
	"$top/tests/host/verdict.py" "$out/$stage" || exit 1
done
