# SPDX-License-Identifier: GPL-2.0
#
# zsmalloc.ko out of tree, for Debian 12's kernel: the single entry point.
#
#   make deps      install what is missing (apt-get only), unpack linux-source
#                  and the kernel image package into .cache/
#   make           build the modules (all of them, via the top-level Kbuild)
#   make check     deps, modules, lint, flavours, initramfs, boot the test VM, verdict,
#                  harness self-checks; ends with "check: N passed, M failed"
#   make check KSERIES=6.12|7.2  the suites on that kernel with the patch
#                  series (ZSMALLOC=stock: without it): see kseries/kseries.mk
#   make check-debug  the guest suites again on a KASAN, lockdep, kmemleak and
#                  fault-injection kernel built from linux-source (cached in
#                  DEBUG_CACHE, built on first use: 13-40 minutes); with
#                  KSERIES, on that series' debug kernel
#   make run       boot with zram swap on our allocator, put it under memory
#                  pressure and report what the allocator holds
#   make check-system  the DKMS package (make deb) installed, used and removed
#                  in a real Debian 12 system booted with systemd
#   make caches    build what CI's checks cache outside the tree (the system
#                  image, 7.2's kernel with ours and KASAN) ahead of them
#   make check-build KSERIES=6.12|7.2  the series' build checks alone (lint,
#                  one patch at a time), no kernel built or booted
#   make lint      checkpatch --strict, sparse (C=2) and W=1: zero findings
#   make patches   the allocator as a patch series for Linux 6.12 and 7.2
#                  (KSERIES=6.12 or 7.2 for one): see kseries/kseries.mk
#   make flavours  build W=1 against the FLAVOURS' headers too: zero findings
#   make clean     kbuild clean and rm -rf $(OUT)
#
# Smaller steps: modules-available, fetch, blob, initramfs, boot, verdict,
# selfcheck, modversions. See doc/testing.md for the guest suite contract.
#
# Variables (make VAR=value):
#   ZSMALLOC=ours|stock  the zsmalloc.ko the guest loads (default ours)
#   SUITES=...           guest suites to run: names (10, zram-data) or paths
#   OUT=dir              all outputs of a run (default out/): two people or
#                        two variants can run side by side with two OUTs
#   KERNEL KDIR MODULES_DIR   the guest kernel image, the tree the modules
#                        build against and the guest's module tree; all
#                        default to Debian's kernel named by KVER
#   MODTREE=dir          where the modules are built (default: here); another
#                        directory gets a copy of the sources first
#   DEBUG_CACHE=dir      the debug kernel's build cache (outside the work tree,
#                        so that fresh clones reuse it)
#   TIMEOUT ACCEL CPU SMP MEM NUMA_NODES QEMU APPEND   the VM (scripts/run-vm.sh)
#   BLOB TREE SCRATCH    the VM's disks (shared between OUTs if you like)
#   FLAVOURS             other Debian kernel flavours to build for (default
#                        rt-amd64 cloud-amd64; their headers come with deps)
#   FLAVOUR              boot that Debian flavour's kernel instead of amd64's
#                        (make check FLAVOUR=rt-amd64): its outputs go to
#                        out/FLAVOUR, its settings come from
#                        configs/flavour-FLAVOUR.mk

CACHE       ?= $(CURDIR)/.cache
# Empty for Debian's default flavour (amd64); else e.g. rt-amd64, cloud-amd64.
FLAVOUR     ?=
# The ABI comes from Debian's linux-headers-FLAVOUR metapackage, looked up once.
KVER        ?= $(eval KVER := $(shell scripts/kver.sh linux-headers-$(or $(FLAVOUR),amd64)))$(KVER)
KDIR        ?= /usr/src/linux-headers-$(KVER)
IMAGE_DIR   ?= $(CACHE)/linux-image-$(KVER)
KERNEL      ?= $(IMAGE_DIR)/boot/vmlinuz-$(KVER)
MODULES_DIR ?= $(IMAGE_DIR)/lib/modules/$(KVER)
LINUX_SRC   ?= $(CACHE)/linux-source-$(word 1,$(subst ., ,$(KVER))).$(word 2,$(subst ., ,$(KVER)))

ZSMALLOC    ?= ours
# A check of another flavour or of the stock allocator is its boot (and its
# module build, its modversions): lint, the flavours' builds and the harness
# self-checks depend on neither, and are the default check's.
BOOT_ONLY   := $(FLAVOUR)$(filter stock,$(ZSMALLOC))
OUT         ?= out$(if $(FLAVOUR),/$(FLAVOUR))$(if $(KSERIES),,$(if $(filter stock,$(ZSMALLOC)),/stock))
override OUT := $(abspath $(OUT))
# Such a check builds its modules in a copy of the sources, so that it can
# run beside the default one: the default build here stays as it is.
MODTREE     ?= $(if $(BOOT_ONLY),$(OUT)/modtree,$(CURDIR))
override MODTREE := $(abspath $(MODTREE))
DEBUG_CACHE ?= /var/cache/zsmalloc-debug-kernel
DEBUG_OUT   ?= $(OUT)/debug
# What the debug kernel's boot adds to GUEST_ENV: the longest runs on a
# quarter or so of their objects, operations and swap traffic.  KASAN and
# lockdep see every path on the first thousand objects; the length is for
# races and fill patterns, which the other kernels run in full.  On 7.2
# with KASAN, beside two kernel builds, the full lengths took: suite 20's
# concurrent case (2 x 100000 operations) 296 s and fill_free_compact
# (16384 objects) 107 s of its 601 s; suite 40 (memhog 144 MiB in 48) 512 s.
# compact_latency, a measurement that KASAN makes meaningless, samples
# beside one compaction, not up to 32 (each fills and frees 65536 objects:
# ten rounds were 1290 of suite 20's 1430 s on a busy host).  random_ops_bad
# runs 25000 operations, not 100000 (66 s with 100000, near idle).  Swap
# through zram and zswap: memhog 32 MiB in 16, not 64 in 32 (in suite 40,
# near idle: 49 s, not 225 s; both still swap every page out and in, and
# zswap writes back 8195 pages).
DEBUG_GUEST_ENV ?= ZS_LATENCY_ROUNDS=1 ZS_CONCURRENT_LOOPS=25000 \
		   ZS_NR_OBJECTS=4096 ZS_RANDOM_OPS=25000 \
		   ZS_SWAP_HOG_MIB=32 ZS_SWAP_LIMIT_MIB=16 \
		   ZS_ZSWAP_HOG_MIB=32 ZS_ZSWAP_LIMIT_MIB=16
# The suites the debug kernels run (SUITES= overrides): where KASAN,
# lockdep and kmemleak see the allocator's own paths through its API test
# (every call, compaction and migration under it, bad handles, random
# operations), zram swap and zswap, injected allocation failures, and
# leaks.  Under TCG a KASAN and lockdep kernel runs each suite many times
# slower (suite 20: 451 s, the enomem suite 128 s, zram's zero-page
# selftests 113 s on 7.2): the rest run on every other kernel.
DEBUG_SUITES ?= 20-zsmalloc-api 40-zram-swap 60-zswap 70-fault-inject 90-kmemleak
SUITES      ?=
VMDIR       ?= $(OUT)/vm
INITRD      ?= $(OUT)/initramfs.cpio
# The guest's disks: 64 MiB of mixed real data, a tree of real files (ext4),
# and a scratch disk made anew for each boot.
BLOB        ?= $(OUT)/blob.img
TREE        ?= $(OUT)/tree.img
SCRATCH     ?= $(VMDIR)/scratch.img
TIMEOUT     ?= 1200
# A suite still running after this many seconds is killed (exit 143).
SUITE_TIMEOUT ?= 400
ACCEL       ?= tcg
CPU         ?= max
SMP         ?= 2
MEM         ?= 1G
# Nodes of the guest (scripts/run-vm.sh): the series' kernels boot with 2.
NUMA_NODES  ?= 1
QEMU        ?= qemu-system-x86_64
APPEND      ?=
FLAVOURS    ?= rt-amd64 cloud-amd64
# Stock modules in the guest (with what they depend on), and those of them
# /init loads before the suites: the data disk's virtio drivers.
# ext4 asks the crypto API for crc32c at mount time: loaded beforehand.
STOCK_MODULES ?= zram virtio_pci virtio_blk crc32c_generic ext4
GUEST_MODULES ?= virtio_pci virtio_blk crc32c_generic ext4
# Host programs copied into the guest with their libraries.
GUEST_TOOLS ?= mkfs.ext4 mountpoint
# Kernel selftests copied next to the suites (tools/testing/selftests/NAME).
SELFTESTS   ?= zram
# Programs built here for the guest (static), installed in its /usr/bin.
GUEST_BINS  ?= $(OUT)/guest/memhog
RUN_SUITES  ?= tests/guest/workload.sh
# Settings for the suites, VAR=value words (no blanks in a value), exported
# by the guest's /init to every suite.
GUEST_ENV   ?=

# What a flavour's boot needs beyond the defaults above (APPEND, GUEST_ENV,
# STOCK_MODULES...); a flavour without its file is an error.
ifneq ($(FLAVOUR),)
include configs/flavour-$(FLAVOUR).mk
endif

VM_ENV = KERNEL=$(KERNEL) INITRD=$(INITRD) BLOB=$(BLOB) TREE=$(TREE) SCRATCH=$(SCRATCH) TIMEOUT=$(TIMEOUT) \
	ACCEL=$(ACCEL) CPU='$(CPU)' SMP=$(SMP) MEM=$(MEM) NUMA_NODES=$(NUMA_NODES) QEMU=$(QEMU) \
	APPEND='$(APPEND)'

.PHONY: all modules modules-available deps fetch lint flavours modversions blob initramfs \
	boot verdict selfcheck check check-debug check-system caches \
	cache-system cache-debug cache-kseries run clean help

all: modules

modules:
	@[ "$(MODTREE)" = "$(CURDIR)" ] || scripts/mirror-sources.sh $(MODTREE)
	$(MAKE) -C $(KDIR) M=$(MODTREE) modules

# Each part on its own, skipping those that do not build yet.
modules-available:
	scripts/build-available.sh $(KDIR) $(OUT)

deps:
	scripts/deps.sh $(addprefix linux-headers-,$(FLAVOURS))
	@$(MAKE) --no-print-directory fetch

# (A separate make: KVER can only be read once deps installed the headers.)
fetch:
	scripts/unpack-source.sh $(LINUX_SRC)
	scripts/fetch-kernel.sh $(KVER) $(IMAGE_DIR)

lint:
	scripts/lint.sh $(LINUX_SRC) $(KDIR) $(OUT)

# The same sources must build for PREEMPT_RT and for a kernel without zswap.
flavours:
	scripts/build-flavours.sh $(OUT)/flavours $(FLAVOURS)

# Our exports must carry the stock CRCs, or the stock zram.ko will not load.
modversions:
	scripts/check-modversions.sh $(KDIR)/Module.symvers $(MODTREE)/Module.symvers

blob: $(BLOB) $(TREE)
$(BLOB):
	scripts/mkblob.py $@ 64
$(TREE):
	scripts/mktree.sh $@ 32

$(OUT)/guest/%: tests/guest/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -static -o $@ $<

initramfs: $(BLOB) $(TREE) $(GUEST_BINS)
	MODULES_DIR=$(MODULES_DIR) ZSMALLOC=$(ZSMALLOC) SUITES='$(SUITES)' \
	PROJECT_KOS='$(wildcard $(MODTREE)/*.ko $(MODTREE)/tests/*.ko)' GUEST_BINS='$(GUEST_BINS)' \
	STOCK_MODULES='$(STOCK_MODULES)' GUEST_MODULES='$(GUEST_MODULES)' \
	GUEST_TOOLS='$(GUEST_TOOLS)' GUEST_ENV='$(GUEST_ENV)' BLOB_SHA256=$(BLOB).sha256 \
	LINUX_SRC=$(LINUX_SRC) SELFTESTS='$(SELFTESTS)' SUITE_TIMEOUT=$(SUITE_TIMEOUT) \
		scripts/mkinitramfs.sh $(INITRD)

# Boot once and judge; VMDIR keeps console.log, result and exit.
boot: initramfs
	$(VM_ENV) scripts/run-vm.sh $(VMDIR)
	tests/host/verdict.py $(VMDIR)

# Judge the last boot again.
verdict:
	tests/host/verdict.py $(VMDIR)

# The harness must fail on a failing test, a panic and a hang.
selfcheck: $(BLOB) $(TREE)
	MAKE='$(MAKE)' OUT=$(OUT) BLOB=$(BLOB) TREE=$(TREE) tests/host/selfcheck.sh

# Lint, modversions, the boot and the self-checks all run and all count in
# the one closing line; only a build failure stops early (BOOT_ONLY: above).
ifneq ($(KSERIES),)
check: check-kseries
check-debug: check-kseries-debug
else
check: deps
	@$(MAKE) --no-print-directory modules
	@rm -rf $(OUT)/counts $(VMDIR)/counts $(OUT)/selfcheck/counts
	-@[ -n "$(BOOT_ONLY)" ] || tests/host/count.sh $(OUT)/counts/lint $(MAKE) --no-print-directory lint
	-@[ -n "$(BOOT_ONLY)" ] || tests/host/count.sh $(OUT)/counts/flavours \
		$(MAKE) --no-print-directory flavours
	-@if [ "$(ZSMALLOC)" = ours ]; then tests/host/count.sh $(OUT)/counts/modversions \
		$(MAKE) --no-print-directory modversions; fi
	-@$(MAKE) --no-print-directory boot
	-@[ -n "$(BOOT_ONLY)" ] || $(MAKE) --no-print-directory selfcheck
	@tests/host/summary.sh $(addprefix $(OUT)/counts/,$(if $(BOOT_ONLY),,lint flavours) \
		$(if $(filter ours,$(ZSMALLOC)),modversions)) \
		$(VMDIR)/counts $(if $(BOOT_ONLY),,$(OUT)/selfcheck/counts)

# The same suites on the debug kernel (kernel.env names its image, build
# tree and modules), our modules built for it under $(DEBUG_OUT)/modtree.
# KASAN, lockdep and kmemleak make the guest several times slower.
check-debug: deps $(BLOB) $(TREE)
	scripts/build-debug-kernel.sh $(DEBUG_CACHE)
	@rm -rf $(DEBUG_OUT)/vm/counts
	-@. $(DEBUG_CACHE)/kernel.env && $(MAKE) --no-print-directory modules boot \
		KVER=$$KVER KERNEL=$$KERNEL KDIR=$$KDIR MODULES_DIR=$$MODULES_DIR \
		OUT=$(DEBUG_OUT) MODTREE=$(DEBUG_OUT)/modtree BLOB=$(BLOB) TREE=$(TREE) \
		GUEST_ENV='$(GUEST_ENV) $(DEBUG_GUEST_ENV)' TIMEOUT=3600 SUITE_TIMEOUT=1800 \
		SUITES='$(or $(SUITES),$(DEBUG_SUITES))'
	@tests/host/summary.sh $(DEBUG_OUT)/vm/counts
endif

# The DKMS package in a real Debian 12 system booted with systemd: make deb,
# then three boots of a cached system image (scripts/check-system.sh).
SYSTEM_CACHE ?= /var/cache/zsmalloc-system
check-system: deps deb $(OUT)/guest/memhog
	@rm -rf $(OUT)/system
	-@img=$$(scripts/mksystem.sh $(SYSTEM_CACHE) tests/system/zs-stage.service) && \
		scripts/check-system.sh $(OUT)/system $$img $(DEB) $(OUT)/guest/memhog
	@tests/host/summary.sh $(addprefix $(OUT)/system/,$(addsuffix /counts,install ours stock))

# The caches .ci/run's checks build on first use, each reused at once where
# its key holds: the system image and 7.2's kernel with ours and KASAN.
# .ci/run starts this beside the first checks, so that a cold machine
# builds while it tests.  Under -j2 the system image (mostly dpkg and
# downloads) builds beside the kernel, which builds at the guests' priority:
# its build and its run are the longest chain of a cold run.  The kernel
# build runs its own make -j$(nproc): MAKEFLAGS (this make's jobserver) is
# not its.  7.2's stock kernel (make check KSERIES=7.2 ZSMALLOC=stock) and
# cache-debug, 6.1's debug kernel (make check-debug), are not CI's.
caches: cache-system cache-kseries

cache-system: deps
	scripts/mksystem.sh $(SYSTEM_CACHE) tests/system/zs-stage.service >/dev/null

cache-debug: deps
	MAKEFLAGS= scripts/build-debug-kernel.sh $(DEBUG_CACHE)

cache-kseries: deps
	MAKEFLAGS= NICE=0 scripts/build-kseries-kernel.sh 7.2 ours debug $(KSERIES_CACHE)

run: deps
	@$(MAKE) --no-print-directory modules
	@st=0; $(MAKE) --no-print-directory boot SUITES='$(RUN_SUITES)' \
		INITRD=$(OUT)/run/initramfs.cpio VMDIR=$(OUT)/run || st=$$?; \
	tests/host/report.sh $(OUT)/run/console.log; exit $$st

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(OUT)

help:
	@sed -n '3,/^$$/s/^# \{0,1\}//p' Makefile

# make bench and friends: see bench/bench.mk.
include bench/bench.mk
include pkg/deb.mk
include kseries/kseries.mk
