#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make bench`: the initramfs's /init.  Loads one allocator,
# runs one test, prints its results on the console, powers off.
# Settings come from the kernel command line (the kernel hands unknown
# name=value words to init as environment):
#   zsb_alloc=stock|ours   which zsmalloc.ko to load
#   zsb_mpp=N              ours only: max_pages_per_zspage=N
#   zsb_test=zs_bench|zram
#   zsb_args=a=1:b=2       zs_bench.ko parameters, ':' for ' '
# Output lines for bench/report.py start with "zsb:" or "zs_bench:" and
# "zsb: result=ok|fail" ends a run.
set -eu
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp

alloc=${zsb_alloc:-stock}
test=${zsb_test:-zs_bench}
args=$(echo "${zsb_args:-}" | tr ':' ' ')

finish() {
	echo "zsb: result=$1"
	sync
	poweroff -f
}

echo "zsb: alloc=$alloc mpp=${zsb_mpp:-default} test=$test args=$args kernel=$(uname -r) cpus=$(nproc)"
if [ "$alloc" = ours ]; then
	insmod /m/ours/zsmalloc.ko ${zsb_mpp:+max_pages_per_zspage=$zsb_mpp} || finish fail
else
	insmod /m/stock/zsmalloc.ko || finish fail
fi

case $test in
zs_bench)
	dmesg -n 1
	dmesg -c >/dev/null
	rc=0
	# shellcheck disable=SC2086 # one word per module parameter
	insmod /m/zs_bench.ko $args || rc=$?
	dmesg | sed -n 's/^.*\(zs_bench: .*\)$/\1/p; s/^\(\[[ 0-9.]*\] \)\{0,1\}\(\(not \)\{0,1\}ok [0-9].*\)$/\2/p; s/^\(\[[ 0-9.]*\] \)\{0,1\}\(KTAP.*\|1\.\.[0-9]*\|# .*\)$/\2/p'
	# Anything the kernel complained about (WARN, BUG, KASAN) fails the run.
	if dmesg | grep -q -e 'WARNING:' -e 'BUG:' -e 'Oops' -e 'Call Trace'; then
		dmesg | tail -n 60
		finish fail
	fi
	[ "$rc" -eq 0 ] && finish ok
	finish fail
	;;
zram)
	insmod /m/zram.ko num_devices=1 || finish fail
	z=/sys/block/zram0
	echo lzo-rle >$z/comp_algorithm
	echo 128M >$z/disksize
	size=$(stat -c %s /image)
	echo "zsb: zram comp=$(cat $z/comp_algorithm | tr ' ' '\n' | sed -n 's/^\[\(.*\)\]$/\1/p') image_bytes=$size"
	w=$(zcopy /image /dev/zram0) || finish fail
	echo "zsb: zram write $w"
	# orig_data_size compr_data_size mem_used_total mem_limit mem_used_max
	# same_pages pages_compacted huge_pages
	set -- $(cat $z/mm_stat)
	echo "zsb: zram mm_stat orig=$1 compr=$2 mem_used=$3 same_pages=$6 huge_pages=$8"
	r=$(zcopy /dev/zram0 /tmp/back "$size") || finish fail
	echo "zsb: zram read $r"
	a=$(md5sum </image | cut -d' ' -f1)
	b=$(md5sum </tmp/back | cut -d' ' -f1)
	echo "zsb: zram md5 image=$a back=$b"
	echo 1 >$z/compact
	set -- $(cat $z/mm_stat)
	echo "zsb: zram compacted mm_stat orig=$1 compr=$2 mem_used=$3 pages_compacted=$7"
	if dmesg | grep -q -e 'WARNING:' -e 'BUG:' -e 'Oops' -e 'Call Trace'; then
		dmesg | tail -n 60
		finish fail
	fi
	[ "$a" = "$b" ] && finish ok
	finish fail
	;;
*)
	echo "zsb: unknown test $test"
	finish fail
	;;
esac
