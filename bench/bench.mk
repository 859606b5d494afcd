# SPDX-License-Identifier: GPL-2.0
# Makefile fragment for the top Makefile: `include bench/bench.mk`.
#
#   make bench            build, run every benchmark in QEMU guests, report
#                         (BENCHMARKS.md, bench/results.csv, bench/plots/)
#   make bench-quick      one round, small counts, every step: a smoke test
#                         (about ten minutes); its report goes to
#                         BENCH_QUICK_OUT, not to BENCHMARKS.md
#   make bench-deps       gnuplot-nox for the plots (python3 and qemu come
#                         from the harness's `make deps`)
#   make bench-workloads  regenerate bench/workloads/*.tsv and workloads.h
#                         from the committed corpus list (needs linux-source)
#   make bench-clean
# Settings pass through the environment to bench/run-bench.sh (K, NR, BIG,
# LOOPS, MIXED_OPS, MPPS, ZPOOLS, ZSWAP_K, ZSWAP_MIB, ZSWAP_CG_MIB,
# ZRAMSWAP_MIB, ZRAMSWAP_CG_MIB, KSERIES, BENCH_OUT, BENCH_MD, BENCH_CSV,
# BENCH_PLOTS); see its header.

BENCH_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
BENCH_KVER ?= $(shell $(BENCH_DIR)../scripts/kver.sh)
BENCH_KDIR ?= /usr/src/linux-headers-$(BENCH_KVER)
BENCH_LZO_SRC ?= $(BENCH_DIR)../.cache/linux-source-6.1/lib/lzo
BENCH_LZO_TOOL := $(BENCH_DIR)../.cache/bench/lzo-sizes
BENCH_QUICK_OUT ?= $(abspath $(BENCH_DIR)../.cache/bench/quick)

.PHONY: bench bench-quick bench-deps bench-workloads bench-clean

bench: deps bench-deps
	$(BENCH_DIR)run-bench.sh all

bench-quick: deps bench-deps
	@test -n '$(BENCH_QUICK_OUT)'
	rm -rf '$(BENCH_QUICK_OUT)/logs'
	K=1 NR=5000 BIG=20000 LOOPS=1 MIXED_OPS=10000 MPPS=8 ZSWAP_MIB=96 ZSWAP_CG_MIB=64 \
		ZRAMSWAP_MIB=96 ZRAMSWAP_CG_MIB=64 \
		BENCH_OUT=$(BENCH_QUICK_OUT) BENCH_MD=$(BENCH_QUICK_OUT)/BENCHMARKS.md \
		BENCH_CSV=$(BENCH_QUICK_OUT)/results.csv BENCH_PLOTS=$(BENCH_QUICK_OUT)/plots \
		$(BENCH_DIR)run-bench.sh build timing smp2 density zram zramswap zswap latency report

bench-deps:
	@dpkg-query -W -f='$${db:Status-Status}' gnuplot-nox 2>/dev/null | grep -qx installed || \
		{ apt-get install -y --no-install-recommends gnuplot-nox || \
		  { apt-get update && apt-get install -y --no-install-recommends gnuplot-nox; }; }

# The kernel's own LZO compressor, compiled for the host with a small shim;
# kernel code is only read from linux-source, never copied into bench/.
$(BENCH_LZO_TOOL): $(BENCH_DIR)tools/lzo-sizes.c $(wildcard $(BENCH_DIR)tools/lzo-shim/*/*.h)
	@test -f $(BENCH_LZO_SRC)/lzo1x_compress.c || $(BENCH_DIR)../scripts/unpack-source.sh $(abspath $(BENCH_LZO_SRC)/../../)
	mkdir -p $(dir $@)
	$(CC) -O2 -Wall -I$(BENCH_DIR)tools/lzo-shim -o $@ $< \
		$(BENCH_LZO_SRC)/lzo1x_compress.c $(BENCH_LZO_SRC)/lzo1x_decompress_safe.c

bench-workloads: $(BENCH_LZO_TOOL)
	python3 $(BENCH_DIR)gen-workload.py files --lzo $(BENCH_LZO_TOOL)
	python3 $(BENCH_DIR)gen-workload.py synth
	python3 $(BENCH_DIR)gen-workload.py header

bench-clean:
	$(MAKE) -C $(BENCH_KDIR) M=$(abspath $(BENCH_DIR)) clean
	rm -rf $(BENCH_DIR)../.cache/bench
