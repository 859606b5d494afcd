#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make bench`: the initramfs's /init.  Loads one allocator,
# runs one test, prints its results on the console, powers off.
# Settings come from the kernel command line (the kernel hands unknown
# name=value words to init as environment):
#   zsb_alloc=stock|ours   which zsmalloc.ko to load; zswap test also
#              zbud|z3fold (zbud is built into Debian's kernel, z3fold a module);
#              builtin: the kernel's own (6.12 and later: zsmalloc built in)
#   zsb_mpp=N              ours module only: max_pages_per_zspage=N (ours
#                          built in: zsmalloc.max_pages_per_zspage=N instead)
#   zsb_ondemand=0|1       ours only: ondemand=N (0: all pages of a zspage
#                          at once; the module's default is 1)
#   zsb_test=zs_bench|zram|zramswap|zswap|latency|ksyms (ksyms: print
#                          /proc/kallsyms, for the profile step on 6.1, whose
#                          System.map Debian does not ship)
#   zsb_args=a=1:b=2       zs_bench.ko (latency: test_zsmalloc.ko) parameters,
#                          ':' for ' '
#   zsb_hog=MIB, zsb_cg=MIB  zramswap, zswap: memhog size, its memory
#                          cgroup's limit
# Output lines for bench/report.py start with "zsb:" or "zs_bench:" and
# "zsb: result=ok|fail" ends a run.
set -eu
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /tmp

alloc=${zsb_alloc:-stock}
test=${zsb_test:-zs_bench}
args=$(echo "${zsb_args:-}" | tr ':' ' ')
hog=${zsb_hog:-192} cg_mib=${zsb_cg:-128}
z=/sys/block/zram0 d=/sys/kernel/debug/zswap

finish() {
	echo "zsb: result=$1"
	sync
	poweroff -f
}

# kernel_complained: did the kernel WARN, BUG or oops?  Then its log tail.
kernel_complained() {
	dmesg | grep -q -e 'WARNING:' -e 'BUG:' -e 'Oops' -e 'Call Trace' || return 1
	dmesg | tail -n 60
}

# stock_module NAME: insmod Debian's module NAME after the modules it needs
# (the host wrote them in load order, from modules.dep, to /m/NAME.order).
stock_module() {
	read -r mods <"/m/$1.order"
	for m in $mods; do
		[ -d "/sys/module/$m" ] || insmod "/m/$m.ko" || return 1
	done
}

load_allocator() {
	case $alloc in
	ours)
		# shellcheck disable=SC2086 # empty or one word each
		insmod /m/ours/zsmalloc.ko ${zsb_mpp:+max_pages_per_zspage=$zsb_mpp} \
			${zsb_ondemand:+ondemand=$zsb_ondemand}
		;;
	stock) insmod /m/stock/zsmalloc.ko ;;
	z3fold) stock_module z3fold ;;
	zbud | builtin) ;;
	*) return 1 ;;
	esac
}

zs_bench() {
	dmesg -n 1
	dmesg -c >/dev/null
	rc=0
	# shellcheck disable=SC2086 # one word per module parameter
	insmod /m/zs_bench.ko $args || rc=$?
	dmesg | sed -n 's/^.*\(zs_bench: .*\)$/\1/p; s/^\(\[[ 0-9.]*\] \)\{0,1\}\(\(not \)\{0,1\}ok [0-9].*\)$/\2/p; s/^\(\[[ 0-9.]*\] \)\{0,1\}\(KTAP.*\|1\.\.[0-9]*\|# .*\)$/\2/p'
	! kernel_complained && [ "$rc" -eq 0 ]
}

# zram_device MIB: zram0 of MIB MiB, lzo-rle.  6.1: zram.ko alone (its
# zsmalloc is loaded); a series' kernel: with the modules it needs, in their
# order (one device is the default).
zram_device() {
	if [ -f /m/zram.order ]; then
		stock_module zram
	else
		insmod /m/zram.ko num_devices=1
	fi || return 1
	echo lzo-rle >$z/comp_algorithm && echo "$1M" >$z/disksize
}

zram() {
	zram_device 128 || return 1
	size=$(stat -c %s /image)
	echo "zsb: zram comp=$(cat $z/comp_algorithm | tr ' ' '\n' | sed -n 's/^\[\(.*\)\]$/\1/p') image_bytes=$size"
	w=$(zcopy /image /dev/zram0) || return 1
	echo "zsb: zram write $w"
	# orig_data_size compr_data_size mem_used_total mem_limit mem_used_max
	# same_pages pages_compacted huge_pages
	# shellcheck disable=SC2046 # one word per field
	set -- $(cat $z/mm_stat)
	echo "zsb: zram mm_stat orig=$1 compr=$2 mem_used=$3 same_pages=$6 huge_pages=$8"
	r=$(zcopy /dev/zram0 /tmp/back "$size") || return 1
	echo "zsb: zram read $r"
	a=$(md5sum </image | cut -d' ' -f1)
	b=$(md5sum </tmp/back | cut -d' ' -f1)
	echo "zsb: zram md5 image=$a back=$b"
	echo 1 >$z/compact
	# shellcheck disable=SC2046 # one word per field
	set -- $(cat $z/mm_stat)
	echo "zsb: zram compacted mm_stat orig=$1 compr=$2 mem_used=$3 pages_compacted=$7"
	# Every other page zeroed (their objects freed), then compacted.
	r=$(zcopy -z /dev/zram0 "$size") || return 1
	echo "zsb: zram $r"
	echo 1 >$z/compact
	# shellcheck disable=SC2046 # one word per field
	set -- $(cat $z/mm_stat)
	echo "zsb: zram halved mm_stat orig=$1 compr=$2 mem_used=$3 same_pages=$6 pages_compacted=$7"
	! kernel_complained && [ "$a" = "$b" ]
}

# cgroup_hog TEST SAMPLE: memhog (zsb_hog MiB, two checking passes) in a
# memory cgroup of zsb_cg MiB, SAMPLE run every second while it runs;
# memhog's lines and its wall time as "zsb: TEST ..." lines, pswpin and
# pswpout as the run changed them.  Fails if memhog did.
cgroup_hog() {
	cg=/sys/fs/cgroup/hog
	mkdir -p /sys/fs/cgroup
	mount -t cgroup2 none /sys/fs/cgroup &&
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir $cg &&
		echo "${cg_mib}M" >$cg/memory.max || return 1
	vm0=$(grep '^pswp' /proc/vmstat | tr '\n' ' ')
	t0=$(cut -d' ' -f1 /proc/uptime)
	sh -c "echo \$\$ >$cg/cgroup.procs && exec memhog $hog 1 2" >/tmp/hog.out 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		$2
		sleep 1
	done
	rc=0
	wait $pid || rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	sed "s/^/zsb: $1 /" /tmp/hog.out
	echo "zsb: $1 hog rc=$rc seconds=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')"
	echo "$vm0 $(grep '^pswp' /proc/vmstat | tr '\n' ' ')" |
		awk -v t="$1" '{ printf "zsb: %s vmstat pswpin=%d pswpout=%d\n", t, $6 - $2, $8 - $4 }'
	[ "$rc" -eq 0 ]
}

# zramswap: zram0 (lzo-rle, twice memhog's size) as the only swap under
# cgroup_hog; mm_stat sampled every second: "peak" is the sample that
# stored the most data, mem_used_max zram's own high-water mark.
zramswap_sample() {
	# shellcheck disable=SC2046 # one word per field
	set -- $(cat $z/mm_stat)
	[ "$1" -gt "$best" ] || return 0
	best=$1
	peak="orig=$1 compr=$2 mem_used=$3 same_pages=$6 huge_pages=$8"
}

zramswap() {
	zram_device $((2 * hog)) || return 1
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || return 1
	echo "zsb: zramswap comp=lzo-rle hog_mib=$hog cg_mib=$cg_mib"
	best=-1 peak='' hog_rc=0
	cgroup_hog zramswap zramswap_sample || hog_rc=1
	# shellcheck disable=SC2046 # one word per field
	set -- $(cat $z/mm_stat)
	echo "zsb: zramswap peak $peak mem_used_max=$5"
	! kernel_complained && [ "$hog_rc" -eq 0 ]
}

# zswap: zswap on the zpool of zsb_alloc in front of a swap disk (the
# host's virtio disk), under cgroup_hog.  zswap.zpool= on the command line
# cannot select a module (zswap starts before it is loaded): the parameters
# are written after the load.  zswap's counters are sampled every second;
# the line "peak" is the sample with the most stored_pages.
zswap_sample() {
	n=$(cat $d/stored_pages) size=$(cat $d/pool_total_size)
	if [ "$n" -gt "$best" ]; then
		best=$n
		peak="stored_pages=$n pool_total_size=$size"
	fi
	[ "$size" -le "$max_pool" ] || max_pool=$size
}

zswap() {
	p=/sys/module/zswap/parameters
	case $alloc in
	stock | ours | builtin) zpool=zsmalloc ;;
	*) zpool=$alloc ;;
	esac
	stock_module virtio_pci && stock_module virtio_blk || return 1
	n=0
	while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do
		sleep 0.2
		n=$((n + 1))
	done
	mkswap /dev/vda >/dev/null && swapon /dev/vda || return 1
	# From 6.18 zswap has no zpool: it calls zsmalloc, the kernel's.
	[ ! -e $p/zpool ] || echo "$zpool" >$p/zpool || return 1
	echo 1 >$p/enabled || return 1
	echo "zsb: zswap zpool=$(cat $p/zpool 2>/dev/null || echo zsmalloc) compressor=$(cat $p/compressor)" \
		"max_pool_percent=$(cat $p/max_pool_percent) enabled=$(cat $p/enabled)" \
		"hog_mib=$hog cg_mib=$cg_mib mem_kib=$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
	[ ! -e $p/zpool ] || [ "$(cat $p/zpool)" = "$zpool" ] || return 1
	best=-1 max_pool=0 peak="stored_pages=0 pool_total_size=0" hog_rc=0
	cgroup_hog zswap zswap_sample || hog_rc=1
	echo "zsb: zswap peak $peak max_pool_total_size=$max_pool"
	counters=
	for f in written_back_pages pool_limit_hit reject_reclaim_fail reject_alloc_fail \
		reject_kmemcache_fail reject_compress_poor duplicate_entry same_filled_pages; do
		# (duplicate_entry and same_filled_pages are gone from 6.12 on)
		[ ! -e $d/$f ] || counters="$counters $f=$(cat $d/$f)"
	done
	echo "zsb: zswap counters$counters"
	! kernel_complained && [ "$hog_rc" -eq 0 ]
}

# latency: test_zsmalloc.ko's compact_latency case (zs_malloc() + map +
# unmap timed while a kthread compacts the class); its figures as one line.
latency() {
	dmesg -n 1
	dmesg -c >/dev/null
	rc=0
	# shellcheck disable=SC2086 # one word per module parameter
	insmod /m/test_zsmalloc.ko cases=compact_latency $args || rc=$?
	dmesg | sed -n 's/^\(\[[ 0-9.]*\] \)\{0,1\}\(\(not \)\{0,1\}ok [0-9].*\|# .*\)$/\2/p'
	dmesg | sed -n 's/.*compact_latency: malloc+map+unmap: median \([0-9]*\) ns, p99 \([0-9]*\) ns, worst \([0-9]*\) ns$/zsb: latency median_ns=\1 p99_ns=\2 worst_ns=\3/p'
	dmesg | grep -q '^\(\[[ 0-9.]*\] \)\{0,1\}ok 1 compact_latency$' &&
		! kernel_complained && [ "$rc" -eq 0 ]
}

echo "zsb: alloc=$alloc mpp=${zsb_mpp:-default} ondemand=${zsb_ondemand:-default}" \
	"test=$test args=$args kernel=$(uname -r) cpus=$(nproc)"
load_allocator || finish fail
# What ours runs with, built in (zsmalloc.max_pages_per_zspage=) or loaded.
mpp=/sys/module/zsmalloc/parameters/max_pages_per_zspage
[ ! -r $mpp ] || echo "zsb: max_pages_per_zspage=$(cat $mpp)"
# Where the profile step's marks are (it checks that they did not move).
grep -E ' (zs_create_pool|zs_get_total_pages)([[:space:]]|$)' /proc/kallsyms | sed 's/^/zsb: mark /'

case $test in
zs_bench | zram | zramswap | zswap | latency)
	$test && finish ok
	finish fail
	;;
ksyms)
	sed 's/^/zsb: ksym /' /proc/kallsyms
	finish ok
	;;
*)
	echo "zsb: unknown test $test"
	finish fail
	;;
esac
