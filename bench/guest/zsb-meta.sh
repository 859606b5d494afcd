#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# zsb-meta WORKLOAD LOOP PHASE OBJECTS BYTES PAGES: run by zs_bench.ko
# (meta_helper=/bin/zsb-meta) while its pool "zs_bench" is as it is after
# PHASE; prints on the console what the allocator keeps outside its pages:
#   slab=N     bytes of the objects in use in the allocator's slab caches:
#              stock zs_handle and zspage, ours zs_zspage_*
#              (object count after a shrink, which flushes the per-CPU
#              slabs so that the count is exact, times object_size); needs
#              slub_nomerge on the kernel command line, or these caches are
#              merged into others: then slab=merged
#   held=N     bytes of the slab pages those caches hold after the shrink
#              (slabs x PAGE_SIZE << order): the objects in use and the
#              holes between them that freeing left
#   debugfs=N  ours: "metadata N bytes" of zsmalloc/zs_bench/classes
#              (descriptors and the handle table)
#              (stock 6.1 is built without CONFIG_ZSMALLOC_STAT: none)
set -eu
export PATH=/bin

# "slab=N held=N" of the allocator's slab caches, or "slab=merged held=merged".
slab_figures() {
	used=0
	held=0
	for c in /sys/kernel/slab/zs_handle /sys/kernel/slab/zspage /sys/kernel/slab/zs_zspage_*; do
		[ -e "$c" ] || continue
		if [ -L "$c" ]; then
			echo "slab=merged held=merged"
			return
		fi
		echo 1 >"$c/shrink"
		n=$(cut -d' ' -f1 "$c/objects")
		used=$((used + n * $(cat "$c/object_size")))
		n=$(cut -d' ' -f1 "$c/slabs")
		held=$((held + n * (4096 << $(cat "$c/order"))))
	done
	echo "slab=$used held=$held"
}

debugfs_bytes() {
	f=/sys/kernel/debug/zsmalloc/zs_bench/classes
	if [ -r $f ]; then
		sed -n 's/.* metadata \([0-9]*\) bytes.*/\1/p' $f
	else
		echo none
	fi
}

echo "zsb: meta workload=$1 loop=$2 phase=$3 objects=$4 bytes=$5 pages=$6" \
	"$(slab_figures) debugfs=$(debugfs_bytes)" >/dev/console
