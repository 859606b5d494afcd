#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check-system, in the guest: one stage per boot of a real Debian 12
# system (systemd as init), run by zs-stage.service from the zs-test disk.
# The stage to run is in /var/lib/zs-test/next on the root disk, so it
# survives the power cycles the host makes between stages:
#
#   install  apt installs zsmalloc-dkms: DKMS builds the module here, against
#            this system's headers; dkms status, modinfo, the initramfs; the
#            zram-generator config
#   ours     booted again: zram swap set up by systemd-zram-generator runs on
#            our module; memory pressure through it and through zswap on our
#            zpool, every byte checked; then apt removes the package
#   stock    booted again: the stock module is back under zram swap
#
# Output follows the harness's protocol (tests/guest/init), judged by
# tests/host/verdict.py: markers and one KTAP document on ttyS0, "failed"
# then "success" on ttyS1.
set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/system.conf"

STATE=/var/lib/zs-test
CG=/sys/fs/cgroup/zs-hog
P=/sys/module/zswap/parameters
D=/sys/kernel/debug/zswap

# --- stage install

kernel_is_61() {
	uname -r
	case $(uname -r) in 6.1.*) ;; *) return 1 ;; esac
}

# stamped COMMAND [ARG...]: COMMAND's output, each line led by the seconds
# since it started, to show where an install's time goes (unpacking, the
# DKMS build, the initramfs); COMMAND's exit status.
stamped() {
	_t0=$(cut -d. -f1 /proc/uptime)
	{ "$@" 2>&1; echo "zs-status $?"; } | {
		_st=1
		while IFS= read -r _line; do
			case $_line in
			"zs-status "*) _st=${_line#zs-status } ;;
			*) echo "+$(($(cut -d. -f1 /proc/uptime) - _t0)) s: $_line" ;;
			esac
		done
		return "$_st"
	}
}

apt_install_deb() {
	cp "$here/$ZS_DEB" /tmp/ &&
		stamped env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$ZS_DEB"
}

# dkms_installed KVER: dkms says the module is installed for KVER.
dkms_installed() {
	dkms status zsmalloc
	dkms status zsmalloc | grep -q ", $1, x86_64: installed"
}

# modinfo_names_dkms [KVER]: modprobe would load the copy DKMS installed.
modinfo_names_dkms() {
	f=$(modinfo -k "${1:-$(uname -r)}" -n zsmalloc) || return 1
	echo "modinfo -n zsmalloc: $f"
	echo "version $(modinfo -F version "$f"), srcversion $(modinfo -F srcversion "$f")"
	case $f in */updates/dkms/zsmalloc.ko*) ;; *) return 1 ;; esac
}

# Under TCG, update-initramfs with Debian's MODULES=most (every storage
# and file system driver) took 967 of the 1159 s that installing the
# package took, and it runs on every kernel or module change.  MODULES=dep
# takes what this machine boots from; the hook adds zram, and so the
# zsmalloc.ko it needs, as MODULES=most does (without loading it there).
initramfs_dep() {
	echo MODULES=dep >/etc/initramfs-tools/conf.d/zs-test
	printf '%s\n' '#!/bin/sh' '[ "$1" != prereqs ] || exit 0' \
		'. /usr/share/initramfs-tools/hook-functions' 'manual_add_modules zram' \
		>/etc/initramfs-tools/hooks/zs-test-zram
	chmod 0755 /etc/initramfs-tools/hooks/zs-test-zram
	cat /etc/initramfs-tools/conf.d/zs-test /etc/initramfs-tools/hooks/zs-test-zram
}

# The initramfs carries a zsmalloc.ko (zram's, see above): ours.
initramfs_carries_ours() {
	list=$(lsinitramfs "/boot/initrd.img-$(uname -r)" | grep '/zsmalloc\.ko$')
	echo "$list"
	echo "$list" | grep -q '/updates/dkms/'
}

zram_generator_config() {
	printf '[zram0]\ncompression-algorithm = lz4\nzram-size = ram\n' \
		>/etc/systemd/zram-generator.conf
	cat /etc/systemd/zram-generator.conf
}

stage_install() {
	ktap_plan 7
	ktap_step "kernel is Debian 12's 6.1" kernel_is_61
	ktap_step "initramfs-tools: MODULES=dep, zram added by a hook" initramfs_dep
	ktap_step "apt install $ZS_DEB: DKMS builds the module" apt_install_deb
	ktap_step "dkms status: installed for $(uname -r)" dkms_installed "$(uname -r)"
	ktap_step "modinfo names the DKMS copy" modinfo_names_dkms
	ktap_step "initramfs carries zram's zsmalloc: ours" initramfs_carries_ours
	ktap_step "zram-generator: zram0, lz4, size = ram" zram_generator_config
	[ -n "$KTAP_BROKEN" ] || echo ours >$STATE/next
}

# --- stage ours

# running_is FILE: the loaded zsmalloc is the module in FILE.
running_is() {
	want=$(modinfo -F srcversion "$1") || return 1
	have=$(cat /sys/module/zsmalloc/srcversion)
	echo "loaded srcversion $have, $1 has $want; taint '$(cat /sys/module/zsmalloc/taint)'"
	[ "$have" = "$want" ]
}

running_is_ours() {
	running_is "$(modinfo -n zsmalloc)" && modinfo_names_dkms &&
		grep -q O /sys/module/zsmalloc/taint
}

zram_swap_from_generator() {
	zramctl
	swapon --show
	systemctl is-active systemd-zram-setup@zram0.service &&
		swapon --show=NAME --noheadings | grep -q '^/dev/zram0$' &&
		[ -e /sys/module/zsmalloc/holders/zram ]
}

# hog MIB LIMIT SEED: memhog in a memory cgroup of LIMIT MiB; every byte
# checked on two passes; swap traffic from /proc/vmstat.
hog() {
	zs_memcg $CG "$2" || return 1
	in0=$(awk '$1 == "pswpin" { print $2 }' /proc/vmstat)
	out0=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	t0=$(cut -d. -f1 /proc/uptime)
	sh -c "echo \$\$ >$CG/cgroup.procs && exec $here/memhog $1 $3 2"
	st=$?
	echo "memhog $1 MiB in $2 MiB: status $st, $(($(cut -d. -f1 /proc/uptime) - t0)) s," \
		"pswpin +$(($(awk '$1 == "pswpin" { print $2 }' /proc/vmstat) - in0))," \
		"pswpout +$(($(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) - out0))"
	zramctl --output NAME,ALGORITHM,DISKSIZE,DATA,COMPR,TOTAL 2>/dev/null || true
	rmdir $CG
	return $st
}

stress_ng_vm() {
	zs_memcg $CG 64 || return 1
	sh -c "echo \$\$ >$CG/cgroup.procs &&
		exec stress-ng --vm 2 --vm-bytes 96M --vm-keep --verify --timeout 20s --metrics-brief"
	st=$?
	rmdir $CG
	return $st
}

# zswap on our zpool, in front of the scratch disk (zram swap off meanwhile,
# so that zswap's write-back has a real disk to go to).  The memory cgroup
# is charged for zswap's pool too: at the default 20% of this guest's RAM,
# the pool alone outgrows the cgroup and memhog is OOM-killed.  At 1% (about
# 20 MiB here) the pool fills, zswap writes back through our zpool's .shrink
# and the rest goes to the disk.
zswap_on_ours() {
	swapoff /dev/zram0 && mkswap "$ZS_SCRATCH_DEV" >/dev/null &&
		swapon "$ZS_SCRATCH_DEV" && echo zsmalloc >$P/zpool &&
		echo 1 >$P/max_pool_percent && echo 1 >$P/enabled || return 1
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	echo "zswap: zpool $(cat $P/zpool), compressor $(cat $P/compressor)," \
		"max_pool_percent $(cat $P/max_pool_percent)"
	[ "$(cat $P/zpool)" = zsmalloc ]
}

zswap_hog() {
	hog 192 64 5 || return 1
	for f in pool_limit_hit written_back_pages reject_reclaim_fail reject_alloc_fail; do
		echo "zswap $f $(cat $D/$f)"
	done
	[ "$(cat $D/written_back_pages)" -gt 0 ] && [ "$(cat $D/reject_reclaim_fail)" -eq 0 ] &&
		[ "$(cat $D/reject_alloc_fail)" -eq 0 ]
}

dkms_forgot() {
	dkms status zsmalloc && [ -z "$(dkms status zsmalloc)" ]
}

apt_remove() {
	echo 0 >$P/enabled
	swapoff "$ZS_SCRATCH_DEV" || return 1
	DEBIAN_FRONTEND=noninteractive apt-get remove -y zsmalloc-dkms && dkms_forgot
}

stage_ours() {
	ktap_plan 7
	ktap_step "loaded zsmalloc is the DKMS build (srcversion, taint O)" running_is_ours
	ktap_step "systemd-zram-generator's zram0 swap on it" zram_swap_from_generator
	ktap_step "memhog 192 MiB through zram swap in 64 MiB, every byte checked" hog 192 64 3
	ktap_step "stress-ng --vm 2 x 96 MiB --verify in 64 MiB" stress_ng_vm
	ktap_step "zswap on zpool zsmalloc (ours) over a swap disk" zswap_on_ours
	ktap_step "memhog 192 MiB through zswap in 64 MiB, written back, every byte checked" zswap_hog
	ktap_step "apt remove zsmalloc-dkms" apt_remove
	[ -n "$KTAP_BROKEN" ] || echo stock >$STATE/next
}

# --- stage stock

running_is_stock() {
	f=$(modinfo -n zsmalloc) || return 1
	echo "modinfo -n zsmalloc: $f"
	case $f in */kernel/mm/zsmalloc.ko*) ;; *) return 1 ;; esac
	running_is "$f" && ! grep -q O /sys/module/zsmalloc/taint
}

# No memory pressure here: that zram swap works on Debian's own allocator
# is Debian's to test; what the package owes is that it is back.
stage_stock() {
	ktap_plan 3
	ktap_step "dkms knows no zsmalloc any more" dkms_forgot
	ktap_step "systemd-zram-generator's zram0 swap" zram_swap_from_generator
	ktap_step "loaded zsmalloc is the stock one" running_is_stock
	[ -n "$KTAP_BROKEN" ] || echo finished >$STATE/next
}

main() {
	echo failed >/dev/ttyS1
	mkdir -p $STATE
	stage=$(cat $STATE/next 2>/dev/null || echo install)
	ZS_SCRATCH_DEV=/dev/disk/by-id/virtio-zs-scratch
	echo "# zs-harness: guest up: kernel $(uname -r), allocator system"
	echo "# zs-harness: suites: system-$stage"
	echo "# zs-harness: suite-begin system-$stage"
	t0=$(cut -d. -f1 /proc/uptime)
	(
		case $stage in
		install) stage_install ;;
		ours) stage_ours ;;
		stock) stage_stock ;;
		*) echo "# zs-harness: error: no stage '$stage'" ;;
		esac
		ktap_finish
	)
	echo "# zs-harness: suite-end system-$stage exit=$? ($(($(cut -d. -f1 /proc/uptime) - t0)) s)"
	echo "# zs-harness: dmesg-begin"
	dmesg
	echo "# zs-harness: dmesg-end"
	echo success >/dev/ttyS1
}

# Our own ttyS0: the last close waits until all was sent (see tests/guest/init).
main </dev/null >/dev/ttyS0 2>&1
