#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the test VM under QEMU (TCG by default) once, with a hard timeout.
#
# Usage: run-vm.sh RUNDIR
# Environment: KERNEL, INITRD (required); disks, each optional, attached as
# virtio disks whose serial names them in the guest (see tests/guest/init):
#   ROOT     raw image, writable, serial zs-root, attached first (/dev/vda):
#            a whole system's root disk (make check-system)
#   TEST     filesystem image, read-only, serial zs-test
#   BLOB     raw image, read-only, serial zs-blob
#   TREE     filesystem image, read-only, serial zs-tree
#   SCRATCH  raw image of SCRATCH_MIB (256) MiB, made anew (zeroed, sparse)
#            for each boot, writable, serial zs-scratch
# TIMEOUT (seconds, default 300);
# ACCEL (tcg), CPU (max), SMP (2), MEM (1G), QEMU (qemu-system-x86_64),
# APPEND (extra kernel command line);
# NUMA_NODES (1): more makes a guest of that many nodes, MEM split evenly
#            (MEM in M or G), every CPU on node 0, the others memory only.
#
# Writes RUNDIR/console.log (ttyS0: console), RUNDIR/result (ttyS1: the
# guest's result channel), RUNDIR/exit ("exit N" from QEMU, or "timeout N")
# and RUNDIR/qemu.cmd. Exits 0 whenever the VM ran, however it ended: the
# verdict (tests/host/verdict.py RUNDIR) judges.
set -eu

dir=$1
: "${KERNEL:?}" "${INITRD:?}" "${BLOB:=}" "${TREE:=}" "${SCRATCH:=}" "${SCRATCH_MIB:=256}"
: "${ROOT:=}" "${TEST:=}"
: "${TIMEOUT:=300}" "${ACCEL:=tcg}"
: "${CPU:=max}" "${SMP:=2}" "${MEM:=1G}" "${QEMU:=qemu-system-x86_64}" "${APPEND:=}"
: "${NUMA_NODES:=1}"
for f in "$KERNEL" "$INITRD" ${BLOB:+"$BLOB"} ${TREE:+"$TREE"} ${ROOT:+"$ROOT"} ${TEST:+"$TEST"}; do
	[ -f "$f" ] || { echo "run-vm: $f: no such file (make deps initramfs?)" >&2; exit 1; }
done

# loglevel=5: warnings and worse reach the console, KERN_NOTICE/INFO (and the
# KTAP that test modules print) only the kernel log. panic=-1 with
# -no-reboot: a panic ends the VM at once. The big log buffer keeps the
# whole boot for the final dmesg dump.  no_timer_check: a TCG guest that
# shares its core (two guests and a kernel build on two cores) can miss the
# boot-time IO-APIC timer check, and the kernel then panics ("IO-APIC + timer
# doesn't work!", seen once); the check proves nothing about an allocator.
cmdline="console=ttyS0 loglevel=5 printk.time=1 panic=-1 log_buf_len=8M no_timer_check $APPEND"

mkdir -p "$dir"
rm -f "$dir/console.log" "$dir/result" "$dir/exit"
: >"$dir/result"
set -- "$QEMU" -accel "$ACCEL" -cpu "$CPU" -smp "$SMP" -m "$MEM" \
	-nodefaults -display none -no-reboot \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$cmdline" \
	-serial "file:$dir/console.log" -serial "file:$dir/result"
# numa NODES: each node a RAM backend of an equal share of MEM.
numa() {
	case $MEM in
	*G) mib=$((${MEM%G} * 1024)) ;;
	*M) mib=${MEM%M} ;;
	*) echo "run-vm: NUMA_NODES needs MEM in M or G, not $MEM" >&2; exit 1 ;;
	esac
	node=0
	while [ "$node" -lt "$1" ]; do
		cpus=
		[ "$node" -ne 0 ] || cpus=,cpus=0-$((SMP - 1))
		NUMA="$NUMA -object memory-backend-ram,id=mem$node,size=$((mib / $1))M"
		NUMA="$NUMA -numa node,nodeid=$node$cpus,memdev=mem$node"
		node=$((node + 1))
	done
}
NUMA=
[ "$NUMA_NODES" -le 1 ] || numa "$NUMA_NODES"

# disk FILE SERIAL [OPTIONS]
disk() {
	set -- "$1" "$2" "${3:+,$3}"
	DISKS="$DISKS -drive file=$1,format=raw,if=none,id=$2$3 -device virtio-blk-pci,drive=$2,serial=$2"
}
DISKS=
[ -z "$ROOT" ] || disk "$ROOT" zs-root
[ -z "$TEST" ] || disk "$TEST" zs-test readonly=on
[ -z "$BLOB" ] || disk "$BLOB" zs-blob readonly=on
[ -z "$TREE" ] || disk "$TREE" zs-tree readonly=on
if [ -n "$SCRATCH" ]; then
	rm -f "$SCRATCH"
	truncate -s "${SCRATCH_MIB}M" "$SCRATCH"
	disk "$SCRATCH" zs-scratch
fi
# shellcheck disable=SC2086 # NUMA and DISKS hold options, no paths with blanks
set -- "$@" $NUMA $DISKS
echo "$*" >"$dir/qemu.cmd"

echo "run-vm: booting ($ACCEL, $SMP cpus, $MEM on $NUMA_NODES node(s), timeout ${TIMEOUT}s); console: $dir/console.log"
start=$(date +%s)
st=0
timeout -k 10 "$TIMEOUT" "$@" </dev/null || st=$?
secs=$(($(date +%s) - start))
if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
	echo "timeout $TIMEOUT" >"$dir/exit"
	echo "run-vm: VM killed after ${secs}s (timeout ${TIMEOUT}s)"
else
	echo "exit $st" >"$dir/exit"
	echo "run-vm: VM ended after ${secs}s (QEMU status $st)"
fi
