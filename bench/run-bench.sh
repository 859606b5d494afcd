#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: run zs_bench.ko, the zram test and the zswap test in QEMU
# guests booted from Debian's kernel image, alternately on the kernel's
# zsmalloc.ko ("stock") and ours, K times each with the same seed, then
# bench/report.py.  Nothing is ever loaded into the host's kernel.
#
#   bench/run-bench.sh [all|build|timing|smp2|density|zram|zramswap|zswap|latency|profile|report]...
#
#   timing   zs_bench, every workload, single thread, -icount: per round
#            stock, ours, ours-eager (ours with ondemand=0)
#   smp2     zs_bench mixed operations with two threads, -smp 2
#   density  zs_bench phases (fill, free_half, compact, refill), workloads
#            files and anon, NR and BIG objects: stock, and ours for every
#            MPPS value with ondemand=1 and ondemand=0; one boot each, with
#            the allocator's metadata read after every phase (zsb-meta)
#   zram     the files image through Debian's zram.ko; then every other
#            page zeroed and the device compacted
#   zramswap zram as the only swap, memhog in a memory cgroup smaller than
#            itself: zram's memory at the peak, pswpin/pswpout, wall time
#   zswap    memhog through zswap in front of a virtio swap disk, for every
#            zpool of ZPOOLS; zswap's peak pool size and counters
#   latency  test_zsmalloc.ko's compact_latency case, -smp 2: zs_malloc() +
#            map + unmap timed in a class while a kthread compacts it
#   profile  zs_bench's phases on files once more, -icount, with the
#            insnprof plugin (bench/tools/): each phase's instructions by
#            kernel function, per call, into OUT/profile.md for the report
#
# With KSERIES=6.12|7.2, the peers are three kernels of that series, built
# by scripts/build-kseries-kernel.sh from the same source and config
# (configs/kseries-bench.config added), zsmalloc built in: stock, chain16
# (stock with CONFIG_ZSMALLOC_CHAIN_SIZE=16, mainline's densest setting) and
# ours (the series applied); every step boots each of them, zs_bench.ko and
# test_zsmalloc.ko built against each.  The density and zswap steps also
# boot ours with zsmalloc.max_pages_per_zspage=16 (ours-mpp16): ours follows
# the kernel's CONFIG_ZSMALLOC_CHAIN_SIZE, this shows it at chain16's length.
#
# Environment (defaults in brackets):
#   K [3]            rounds per allocator (timing, smp2, zram, latency)
#   PEERS [stock chain16 ours]  KSERIES: the kernels every step boots
#                    ("PEERS=ours" to measure a change against a CSV)
#   TIMING_CONFIGS ["stock ours ours-eager", KSERIES: the peers]  what the
#                    timing step boots (under -icount one round of each
#                    repeats closely: "K=1 TIMING_CONFIGS=ours" to try a change)
#   NR [20000]       objects per zs_bench fill
#   BIG [200000]     the large object count of the density sweep
#   LOOPS [3]        zs_bench loops per boot (medians over them)
#   MIXED_OPS [50000] mixed-test operations per thread
#   MPPS ["4 8 16"]  max_pages_per_zspage values of the density sweep
#   ZPOOLS ["zsmalloc-stock zsmalloc-ours zbud z3fold"]  zswap's zpools
#                    (KSERIES: the peers and ours-mpp16)
#   KSERIES, KSERIES_CACHE [/var/cache/zsmalloc-kseries]  see above
#   ZSWAP_K [K]      zswap rounds per zpool
#   ZSWAP_MIB [192], ZSWAP_CG_MIB [128]  zswap: memhog's size, its memory
#                    cgroup's limit (zswap charges the compressed bytes to it)
#   ZRAMSWAP_MIB [384], ZRAMSWAP_CG_MIB [128]  the same for zramswap
#   BENCH_OUT [.cache/bench/run, KSERIES: run-KSERIES]  logs and
#                    intermediate files
#   BENCH_MD [BENCHMARKS.md]  the report step replaces its section of it (6.1
#                    or KSERIES) and keeps the others
#   BENCH_CSV [bench/results.csv, KSERIES: bench/results-KSERIES.csv],
#   BENCH_PLOTS [bench/plots, 6.1 only]  what else the report step writes
#   QEMU_TIMEOUT [1800]  seconds before a guest is declared hung
# Guests: `-icount shift=0,sleep=off -smp 1` for single-thread timing (guest
# time counts instructions: deterministic), plain TCG `-smp 2` for the
# two-thread run, plain TCG `-smp 1` for the density sweep (no timing, and
# slub_nomerge so that the allocators' slab caches can be counted) and for
# zswap (with a fresh sparse swap disk).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bench=$top/bench
KVER=${KVER:-$("$top/scripts/kver.sh")}
K=${K:-3}
NR=${NR:-20000}
BIG=${BIG:-200000}
LOOPS=${LOOPS:-3}
MIXED_OPS=${MIXED_OPS:-50000}
MPPS=${MPPS:-4 8 16}
ZSWAP_K=${ZSWAP_K:-$K}
ZSWAP_MIB=${ZSWAP_MIB:-192}
ZSWAP_CG_MIB=${ZSWAP_CG_MIB:-128}
ZRAMSWAP_MIB=${ZRAMSWAP_MIB:-384}
ZRAMSWAP_CG_MIB=${ZRAMSWAP_CG_MIB:-128}
KSERIES=${KSERIES:-}
KSERIES_CACHE=${KSERIES_CACHE:-/var/cache/zsmalloc-kseries}
if [ -n "$KSERIES" ]; then
	PEERS=${PEERS:-stock chain16 ours}
	TIMING_CONFIGS=${TIMING_CONFIGS:-$PEERS}
	DENSITY_CONFIGS="$PEERS ours-mpp16"
	ZPOOLS=${ZPOOLS:-$PEERS ours-mpp16}
	OUT=${BENCH_OUT:-$top/.cache/bench/run-$KSERIES}
	CSV=${BENCH_CSV:-$bench/results-$KSERIES.csv}
else
	PEERS="stock ours"
	TIMING_CONFIGS=${TIMING_CONFIGS:-stock ours ours-eager}
	DENSITY_CONFIGS="stock $(for m in $MPPS; do echo "ours-mpp$m ours-mpp$m-eager"; done)"
	ZPOOLS=${ZPOOLS:-zsmalloc-stock zsmalloc-ours zbud z3fold}
	OUT=${BENCH_OUT:-$top/.cache/bench/run}
	CSV=${BENCH_CSV:-$bench/results.csv}
fi
MD=${BENCH_MD:-$top/BENCHMARKS.md}
PLOTS=${BENCH_PLOTS:-$bench/plots}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800}
SEED=${SEED:-1}
image_dir=$top/.cache/linux-image-$KVER
kdir=/usr/src/linux-headers-$KVER
mods=$image_dir/lib/modules/$KVER
workloads=files,small,halfpage
density_workloads=files
if [ -f "$bench/workloads/anon.tsv" ]; then
	workloads=$workloads,anon
	density_workloads=files,anon
fi

log() { echo "run-bench: $*" >&2; }

# stock_module NAME: copy Debian's module NAME and the modules it needs
# (modules.dep) into the initramfs's /m, and their load order to
# /m/NAME.order: modules.dep lists the nearest dependency first, modprobe
# loads the list from its end.
stock_module() {
	line=$(grep -E "(^|/)$1\.ko:" "$mods/modules.dep") || {
		log "$1 is not a module of $KVER"
		return 1
	}
	order=$1
	for m in ${line#*:}; do
		order="$(basename "$m" .ko) $order"
	done
	for m in ${line%%:*} ${line#*:}; do
		cp "$mods/$m" "$root/m/"
	done
	echo "$order" >"$root/m/$1.order"
}

# snapshot DIR FILE...: copy FILEs into DIR, emptied first, so that an edit
# in the work tree cannot change a module halfway through a run.
snapshot() {
	dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$@" "$dir/"
}

# initramfs_base ROOT: the guest's userland in ROOT, made anew: busybox,
# bench.sh as /init, zsb-meta, zcopy, memhog, the zram image.
initramfs_base() {
	rm -rf "$1"
	mkdir -p "$1/bin" "$1/m" "$1/proc" "$1/sys" "$1/dev" "$1/tmp"
	cp /bin/busybox "$1/bin/busybox"
	for app in $(busybox --list); do
		[ "$app" = busybox ] || ln -s busybox "$1/bin/$app"
	done
	cp "$bench/guest/bench.sh" "$1/init"
	install -m 0755 "$bench/guest/zsb-meta.sh" "$1/bin/zsb-meta"
	cp "$OUT/zcopy" "$OUT/memhog" "$1/bin/"
	cp "$OUT/image.bin" "$1/image"
}

# Debian's 6.1: zs_bench.ko, a snapshot of our module and the test module
# built against its headers; one initramfs with both allocators.
build_61() {
	[ -f "$image_dir/boot/vmlinuz-$KVER" ] || "$top/scripts/fetch-kernel.sh" "$KVER" "$image_dir"
	make -s -C "$kdir" M="$bench" modules
	rm -rf "$OUT/ours-src"
	"$top/scripts/mirror-sources.sh" "$OUT/ours-src"
	make -s -C "$kdir" M="$OUT/ours-src" modules

	root=$OUT/initramfs
	initramfs_base "$root"
	mkdir -p "$root/m/stock" "$root/m/ours"
	cp "$mods/kernel/mm/zsmalloc.ko" "$root/m/stock/"
	cp "$mods/kernel/drivers/block/zram/zram.ko" "$root/m/"
	cp "$OUT/ours-src/zsmalloc.ko" "$root/m/ours/"
	for m in z3fold virtio_pci virtio_blk; do
		stock_module $m
	done
	cp "$bench/zs_bench.ko" "$OUT/ours-src/tests/test_zsmalloc.ko" "$root/m/"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$OUT/initramfs.cpio"
}

# build_peer PEER: PEER's kernel of the series (built or reused, then copied
# into OUT/PEER), zs_bench.ko and test_zsmalloc.ko built against it, and its
# initramfs (zram and virtio as its modules).
# shellcheck disable=SC2153 # KDIR, KERNEL, MODULES_DIR: from PEER's env file
build_peer() {
	case $1 in
	chain16) kernel_of="stock bench-chain16" env=stock-bench-chain16 ;;
	*) kernel_of="$1 bench" env=$1-bench ;;
	esac
	# shellcheck disable=SC2086 # variant and option
	"$top/scripts/build-kseries-kernel.sh" "$KSERIES" $kernel_of "$KSERIES_CACHE"
	# shellcheck source=/dev/null # written by build-kseries-kernel.sh
	. "$KSERIES_CACHE/$KSERIES/$env.env"
	d=$OUT/$1
	snapshot "$d/bench" "$bench/zs_bench.c" "$bench/workloads.h" "$bench/Kbuild"
	snapshot "$d/tests" "$top"/tests/*.c "$top"/tests/*.h "$top/tests/Kbuild"
	make -s -C "$KDIR" M="$d/bench" modules
	make -s -C "$KDIR" M="$d/tests" modules
	cp "$KERNEL" "$d/bzImage"
	cp "$KDIR/System.map" "$d/System.map"

	root=$d/initramfs mods=$MODULES_DIR
	initramfs_base "$root"
	for m in zram virtio_pci virtio_blk; do
		stock_module $m
	done
	cp "$d/bench/zs_bench.ko" "$d/tests/test_zsmalloc.ko" "$root/m/"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$d/initramfs.cpio"
	log "built $1: $KVER, $KERNEL"
}

# Build the guests' modules, userland, zram image and initramfs (one for
# 6.1, one per peer with KSERIES).
build() {
	mkdir -p "$OUT"
	git -C "$top" log -1 --format='%h %cd' --date=short -- src compat >"$OUT/ours-version"
	git -C "$top" status --porcelain -- src compat | grep -q . && echo "(src/ or compat/ has uncommitted changes)" >>"$OUT/ours-version"
	gcc -O2 -Wall -static -o "$OUT/zcopy" "$bench/guest/zcopy.c"
	gcc -O2 -Wall -static -o "$OUT/memhog" "$top/tests/guest/memhog.c"
	[ -f "$OUT/image.bin" ] || python3 "$bench/gen-workload.py" image --out "$OUT/image.bin" --mib 64
	if [ -n "$KSERIES" ]; then
		for peer in $PEERS; do
			build_peer "$peer"
		done
	else
		build_61
	fi
	log "built: $(cat "$OUT/ours-version")"
}

# run_vm NAME CONFIG MODE KERNEL-ARGS...: boot one guest on the kernel and
# allocator of CONFIG (alloc_args); its console goes to OUT/logs/NAME.log.
# MODE: icount (smp 1, deterministic time), smp1, smp2, swap (smp1 with a
# fresh sparse disk of ZSWAP_MIB + 64 MiB, virtio), profile (icount with
# the plugin: OUT/libinsnprof.so with the arguments $plugin_args).
run_vm() {
	name=$1 cfg=$2 mode=$3
	shift 3
	if [ -n "$KSERIES" ]; then
		peer=${cfg%-mpp*}
		kernel=$OUT/$peer/bzImage initrd=$OUT/$peer/initramfs.cpio
	else
		kernel=$image_dir/boot/vmlinuz-$KVER initrd=$OUT/initramfs.cpio
	fi
	# shellcheck disable=SC2046 # one word per setting
	set -- $(alloc_args "$cfg") "$@"
	disk=
	case $mode in
	icount) accel="-accel tcg -icount shift=0,sleep=off -smp 1" ;;
	profile) accel="-accel tcg -icount shift=0,sleep=off -smp 1 -plugin $OUT/libinsnprof.so,$plugin_args" ;;
	smp1) accel="-accel tcg -smp 1" ;;
	smp2) accel="-accel tcg,thread=multi -smp 2" ;;
	swap)
		accel="-accel tcg -smp 1"
		rm -f "$OUT/swap.img"
		truncate -s $((ZSWAP_MIB + 64))M "$OUT/swap.img"
		disk="-drive file=$OUT/swap.img,format=raw,if=virtio,cache=unsafe"
		;;
	esac
	mkdir -p "$OUT/logs"
	log "$name ($mode): $*"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $accel and $disk are lists of options
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 $accel $disk -m 2G -cpu max \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 oops=panic $*" \
		</dev/null >"$OUT/logs/$name.log" 2>&1 || true
	echo "zsb: host_seconds=$(($(date +%s) - start)) mode=$mode" >>"$OUT/logs/$name.log"
	rm -f "$OUT/swap.img"
	if ! grep -q '^zsb: result=ok' "$OUT/logs/$name.log"; then
		log "$name FAILED, see $OUT/logs/$name.log"
		failed=$((failed + 1))
	fi
}

zs_args() {
	echo "zsb_test=zs_bench zsb_args=seed=$SEED:$1"
}

# alloc_args CONFIG: the guest's settings for CONFIG: stock, ours,
# ours-mppN (max_pages_per_zspage=N), any of them -eager (ondemand=0), a
# zswap zpool (zsmalloc-stock, zsmalloc-ours, zbud, z3fold); with KSERIES,
# a peer, whose kernel has its zsmalloc built in, or ours-mppN.
alloc_args() {
	[ -z "$KSERIES" ] || { builtin_args "$1"; return; }
	case $1 in
	zsmalloc-*) alloc_args "${1#zsmalloc-}" ;;
	*-eager) echo "$(alloc_args "${1%-eager}") zsb_ondemand=0" ;;
	ours-mpp*) echo "zsb_alloc=ours zsb_mpp=${1#ours-mpp}" ;;
	*) echo "zsb_alloc=$1" ;;
	esac
}

builtin_args() {
	case $1 in
	ours-mpp*) echo "zsb_alloc=builtin zsmalloc.max_pages_per_zspage=${1#ours-mpp}" ;;
	*) echo zsb_alloc=builtin ;;
	esac
}

timing() {
	for i in $(seq "$K"); do
		for a in $TIMING_CONFIGS; do
			run_vm "timing-$a-$i" "$a" icount \
				"$(zs_args "workload=$workloads:nr_objects=$NR:loops=$LOOPS:threads=1:mixed_ops=$MIXED_OPS")"
		done
	done
}

smp2() {
	for i in $(seq "$K"); do
		for a in $PEERS; do
			run_vm "smp2-$a-$i" "$a" smp2 \
				"$(zs_args "workload=files:nr_objects=$NR:loops=$LOOPS:threads=2:mixed_ops=$MIXED_OPS:phases=0")"
		done
	done
}

# density_vm CONFIG N: one density boot of N objects.
density_vm() {
	cfg=$1 count=$2
	run_vm "density-$cfg-n$count" "$cfg" smp1 slub_nomerge \
		"$(zs_args "workload=$density_workloads:nr_objects=$count:loops=1:mixed_ops=0:meta_helper=/bin/zsb-meta")"
}

density() {
	for n in $NR $BIG; do
		for cfg in $DENSITY_CONFIGS; do
			density_vm "$cfg" "$n"
		done
	done
}

zram() {
	for i in $(seq "$K"); do
		for a in $PEERS; do
			run_vm "zram-$a-$i" "$a" icount zsb_test=zram
		done
	done
}

zramswap() {
	for i in $(seq "$K"); do
		for a in $PEERS; do
			run_vm "zramswap-$a-$i" "$a" smp1 zsb_test=zramswap zsb_hog="$ZRAMSWAP_MIB" \
				zsb_cg="$ZRAMSWAP_CG_MIB"
		done
	done
}

zswap() {
	for i in $(seq "$ZSWAP_K"); do
		for p in $ZPOOLS; do
			run_vm "zswap-$p-$i" "$p" swap zsb_test=zswap zsb_hog="$ZSWAP_MIB" zsb_cg="$ZSWAP_CG_MIB"
		done
	done
}

latency() {
	for i in $(seq "$K"); do
		for a in $PEERS; do
			run_vm "latency-$a-$i" "$a" smp2 zsb_test=latency "zsb_args=seed=$SEED"
		done
	done
}

# Segments of the profile close where zs_bench calls these (its phases).
PROFILE_MARKS="zs_create_pool zs_get_total_pages"

# profile_peer PEER SYMBOLS: PEER's profile boot, with marks at the
# PROFILE_MARKS functions of SYMBOLS; fails if the guest found them
# elsewhere (6.1: its modules loaded at other addresses than in SYMBOLS'
# boot).
profile_peer() {
	# shellcheck disable=SC2086 # one word per function
	marks=$(python3 "$bench/profile.py" --marks "$2" $PROFILE_MARKS)
	plugin_args="out=$OUT/profile/$1.blocks$marks"
	run_vm "profile-$1" "$1" profile nokaslr \
		"$(zs_args "workload=files:nr_objects=$NR:loops=1:mixed_ops=0")"
	got=$(grep -o 'zsb: mark [0-9a-f]*' "$OUT/logs/profile-$1.log" | sed 's/.* //' | sort)
	want=$(echo "$marks" | tr , '\n' | sed -n 's/^mark=//p' | sort)
	[ "$got" = "$want" ] || { log "profile-$1: marks moved ($got, not $want)"; failed=$((failed + 1)); }
}

# The 6.1 kernel's and its modules' addresses are fixed by nokaslr: a first
# boot of each peer prints its /proc/kallsyms, for the marks and the names.
profile() {
	"$bench/tools/build-insnprof.sh" "$OUT/libinsnprof.so"
	mkdir -p "$OUT/profile"
	set --
	for a in $PEERS; do
		syms=$OUT/$a/System.map
		if [ -z "$KSERIES" ]; then
			run_vm "profile-ksyms-$a" "$a" icount nokaslr zsb_test=ksyms
			syms=$OUT/logs/profile-ksyms-$a.log
		fi
		profile_peer "$a" "$syms"
		set -- "$@" "$a=$OUT/profile/$a.blocks:$syms"
	done
	python3 "$bench/profile.py" --phases --top 15 "$@" >"$OUT/profile.md"
}

report() {
	uname -a >"$OUT/host"
	grep -m1 'model name' /proc/cpuinfo >>"$OUT/host" || true
	qemu-system-x86_64 --version | head -n 1 >>"$OUT/host"
	python3 "$bench/report.py" "$OUT" --series "${KSERIES:-6.1}" --csv "$CSV" --md "$MD" \
		--plots "$PLOTS"
}

failed=0
[ $# -gt 0 ] || set -- all
for step in "$@"; do
	case $step in
	all) build; timing; smp2; density; zram; zramswap; zswap; latency; profile; report ;;
	build | timing | smp2 | density | zram | zramswap | zswap | latency | profile | report) $step ;;
	*) echo "usage: $0 [all|build|timing|smp2|density|zram|zramswap|zswap|latency|profile|report]..." >&2
		exit 2 ;;
	esac
done
[ "$failed" -eq 0 ] || { log "$failed guest run(s) failed"; exit 1; }
