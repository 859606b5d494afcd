#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: run zs_bench.ko and the zram test in QEMU guests booted from
# Debian's kernel image, alternately on the kernel's zsmalloc.ko ("stock")
# and ours, K times each with the same seed, then bench/report.py.
# Nothing is ever loaded into the host's kernel.
#
#   bench/run-bench.sh [all|build|timing|smp2|density|zram|report]...
#
# Environment (defaults in brackets):
#   K [3]            rounds per allocator (timing, smp2, zram)
#   NR [20000]       objects per zs_bench fill
#   BIG [200000]     the large object count of the density sweep
#   LOOPS [3]        zs_bench loops per boot (medians over them)
#   MIXED_OPS [50000] mixed-test operations per thread
#   MPPS ["4 8 16"]  max_pages_per_zspage values of the density sweep
#   BENCH_OUT [.cache/bench/run]  logs and intermediate files
#   QEMU_TIMEOUT [1800]  seconds before a guest is declared hung
# Guests: `-icount shift=0,sleep=off -smp 1` for single-thread timing (guest
# time counts instructions: deterministic), plain TCG `-smp 2` for the
# two-thread run, plain TCG `-smp 1` for the density sweep (no timing).
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
OUT=${BENCH_OUT:-$top/.cache/bench/run}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800}
SEED=${SEED:-1}
image_dir=$top/.cache/linux-image-$KVER
kdir=/usr/src/linux-headers-$KVER
mods=$image_dir/lib/modules/$KVER
workloads=files,small,halfpage
[ -f "$bench/workloads/anon.tsv" ] && workloads=$workloads,anon

log() { echo "run-bench: $*" >&2; }

# Build zs_bench.ko, a snapshot of our module, zcopy, the zram image and
# the initramfs.
build() {
	[ -f "$image_dir/boot/vmlinuz-$KVER" ] || "$top/scripts/fetch-kernel.sh" "$KVER" "$image_dir"
	mkdir -p "$OUT"
	make -s -C "$kdir" M="$bench" modules
	# Ours from a snapshot of src/, so that a rebuild there cannot change
	# the module halfway through a run.
	rm -rf "$OUT/ours-src"
	mkdir -p "$OUT/ours-src"
	cp "$top"/src/*.c "$top"/src/*.h "$top/src/Kbuild" "$OUT/ours-src/"
	make -s -C "$kdir" M="$OUT/ours-src" modules
	git -C "$top" log -1 --format='%h %cd' --date=short -- src >"$OUT/ours-version"
	git -C "$top" status --porcelain -- src | grep -q . && echo "(src/ has uncommitted changes)" >>"$OUT/ours-version"
	gcc -O2 -Wall -static -o "$OUT/zcopy" "$bench/guest/zcopy.c"
	[ -f "$OUT/image.bin" ] || python3 "$bench/gen-workload.py" image --out "$OUT/image.bin" --mib 64

	root=$OUT/initramfs
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/m/stock" "$root/m/ours" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp /bin/busybox "$root/bin/busybox"
	for app in $(busybox --list); do
		[ "$app" = busybox ] || ln -s busybox "$root/bin/$app"
	done
	cp "$bench/guest/bench.sh" "$root/init"
	cp "$OUT/zcopy" "$root/bin/zcopy"
	cp "$mods/kernel/mm/zsmalloc.ko" "$root/m/stock/"
	cp "$mods/kernel/drivers/block/zram/zram.ko" "$root/m/"
	cp "$OUT/ours-src/zsmalloc.ko" "$root/m/ours/"
	cp "$bench/zs_bench.ko" "$root/m/"
	cp "$OUT/image.bin" "$root/image"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$OUT/initramfs.cpio"
	log "built: $(cat "$OUT/ours-version")"
}

# run_vm NAME MODE KERNEL-ARGS...: boot one guest; its console goes to
# OUT/logs/NAME.log.  MODE: icount (smp 1, deterministic time), smp1, smp2.
run_vm() {
	name=$1 mode=$2
	shift 2
	case $mode in
	icount) accel="-accel tcg -icount shift=0,sleep=off -smp 1" ;;
	smp1) accel="-accel tcg -smp 1" ;;
	smp2) accel="-accel tcg,thread=multi -smp 2" ;;
	esac
	mkdir -p "$OUT/logs"
	log "$name ($mode): $*"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $accel is a list of options
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 $accel -m 2G -cpu max \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$image_dir/boot/vmlinuz-$KVER" -initrd "$OUT/initramfs.cpio" \
		-append "console=ttyS0 quiet panic=-1 oops=panic $*" \
		</dev/null >"$OUT/logs/$name.log" 2>&1 || true
	echo "zsb: host_seconds=$(($(date +%s) - start)) mode=$mode" >>"$OUT/logs/$name.log"
	if ! grep -q '^zsb: result=ok' "$OUT/logs/$name.log"; then
		log "$name FAILED, see $OUT/logs/$name.log"
		failed=$((failed + 1))
	fi
}

zs_args() {
	echo "zsb_test=zs_bench zsb_args=seed=$SEED:$1"
}

timing() {
	for i in $(seq "$K"); do
		for a in stock ours; do
			run_vm "timing-$a-$i" icount zsb_alloc=$a \
				"$(zs_args "workload=$workloads:nr_objects=$NR:loops=$LOOPS:threads=1:mixed_ops=$MIXED_OPS")"
		done
	done
}

smp2() {
	for i in $(seq "$K"); do
		for a in stock ours; do
			run_vm "smp2-$a-$i" smp2 zsb_alloc=$a \
				"$(zs_args "workload=files:nr_objects=$NR:loops=$LOOPS:threads=2:mixed_ops=$MIXED_OPS:phases=0")"
		done
	done
}

density() {
	for n in $NR $BIG; do
		run_vm "density-stock-n$n" smp1 zsb_alloc=stock \
			"$(zs_args "workload=files:nr_objects=$n:loops=1:mixed_ops=0")"
		for m in $MPPS; do
			run_vm "density-ours-mpp$m-n$n" smp1 zsb_alloc=ours zsb_mpp=$m \
				"$(zs_args "workload=files:nr_objects=$n:loops=1:mixed_ops=0")"
		done
	done
}

zram() {
	for i in $(seq "$K"); do
		for a in stock ours; do
			run_vm "zram-$a-$i" icount zsb_alloc=$a zsb_test=zram
		done
	done
}

report() {
	uname -a >"$OUT/host"
	grep -m1 'model name' /proc/cpuinfo >>"$OUT/host" || true
	qemu-system-x86_64 --version | head -n 1 >>"$OUT/host"
	python3 "$bench/report.py" "$OUT" --csv "$bench/results.csv" \
		--md "$top/BENCHMARKS.md" --plots "$bench/plots"
}

failed=0
[ $# -gt 0 ] || set -- all
for step in "$@"; do
	case $step in
	all) build; timing; smp2; density; zram; report ;;
	build | timing | smp2 | density | zram | report) $step ;;
	*) echo "usage: $0 [all|build|timing|smp2|density|zram|report]..." >&2; exit 2 ;;
	esac
done
[ "$failed" -eq 0 ] || { log "$failed guest run(s) failed"; exit 1; }
