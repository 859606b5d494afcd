# SPDX-License-Identifier: GPL-2.0
#
# zsmalloc.ko out of tree, for Debian 12's kernel: the single entry point.
#
#   make deps      install what is missing (apt-get only), unpack linux-source
#                  and the kernel image package into .cache/
#   make           build the modules (all of them, via the top-level Kbuild)
#   make check     deps, modules, lint, initramfs, boot the test VM, verdict,
#                  harness self-checks; ends with "check: N passed, M failed"
#   make run       boot with zram swap on our allocator, put it under memory
#                  pressure and report what the allocator holds
#   make lint      checkpatch --strict, sparse (C=2) and W=1: zero findings
#   make clean     kbuild clean and rm -rf $(OUT)
#
# Smaller steps: modules-available, fetch, blob, initramfs, boot, verdict,
# selfcheck, modversions. See README.md for the guest suite contract.
#
# Variables (make VAR=value):
#   ZSMALLOC=ours|stock  the zsmalloc.ko the guest loads (default ours)
#   SUITES=...           guest suites to run: names (10, zram-data) or paths
#   OUT=dir              all outputs of a run (default out/): two people or
#                        two variants can run side by side with two OUTs
#   KERNEL KDIR MODULES_DIR   the guest kernel image, the tree the modules
#                        build against and the guest's module tree; all
#                        default to Debian's kernel named by KVER
#   TIMEOUT ACCEL CPU SMP MEM QEMU APPEND   the VM (scripts/run-vm.sh)
#   BLOB TREE SCRATCH    the VM's disks (shared between OUTs if you like)

CACHE       ?= $(CURDIR)/.cache
# The ABI comes from Debian's linux-headers-amd64 metapackage, looked up once.
KVER        ?= $(eval KVER := $(shell scripts/kver.sh))$(KVER)
KDIR        ?= /usr/src/linux-headers-$(KVER)
IMAGE_DIR   ?= $(CACHE)/linux-image-$(KVER)
KERNEL      ?= $(IMAGE_DIR)/boot/vmlinuz-$(KVER)
MODULES_DIR ?= $(IMAGE_DIR)/lib/modules/$(KVER)
LINUX_SRC   ?= $(CACHE)/linux-source-$(word 1,$(subst ., ,$(KVER))).$(word 2,$(subst ., ,$(KVER)))

OUT         ?= out
override OUT := $(abspath $(OUT))
ZSMALLOC    ?= ours
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
QEMU        ?= qemu-system-x86_64
APPEND      ?=
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

VM_ENV = KERNEL=$(KERNEL) INITRD=$(INITRD) BLOB=$(BLOB) TREE=$(TREE) SCRATCH=$(SCRATCH) TIMEOUT=$(TIMEOUT) \
	ACCEL=$(ACCEL) CPU='$(CPU)' SMP=$(SMP) MEM=$(MEM) QEMU=$(QEMU) APPEND='$(APPEND)'

.PHONY: all modules modules-available deps fetch lint modversions blob initramfs \
	boot verdict selfcheck check run clean help

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Each part on its own, skipping those that do not build yet.
modules-available:
	scripts/build-available.sh $(KDIR) $(OUT)

deps:
	scripts/deps.sh
	@$(MAKE) --no-print-directory fetch

# (A separate make: KVER can only be read once deps installed the headers.)
fetch:
	scripts/unpack-source.sh $(LINUX_SRC)
	scripts/fetch-kernel.sh $(KVER) $(IMAGE_DIR)

lint:
	scripts/lint.sh $(LINUX_SRC) $(KDIR) $(OUT)

# Our exports must carry the stock CRCs, or the stock zram.ko will not load.
modversions:
	scripts/check-modversions.sh $(KDIR)/Module.symvers $(CURDIR)/Module.symvers

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
	PROJECT_KOS='$(wildcard src/*.ko tests/*.ko)' GUEST_BINS='$(GUEST_BINS)' \
	STOCK_MODULES='$(STOCK_MODULES)' GUEST_MODULES='$(GUEST_MODULES)' \
	GUEST_TOOLS='$(GUEST_TOOLS)' BLOB_SHA256=$(BLOB).sha256 \
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
# the one closing line; only a build failure stops early.
check: deps
	@$(MAKE) --no-print-directory modules
	@rm -rf $(OUT)/counts $(VMDIR)/counts $(OUT)/selfcheck/counts
	-@tests/host/count.sh $(OUT)/counts/lint $(MAKE) --no-print-directory lint
	-@if [ "$(ZSMALLOC)" = ours ]; then tests/host/count.sh $(OUT)/counts/modversions \
		$(MAKE) --no-print-directory modversions; fi
	-@$(MAKE) --no-print-directory boot
	-@$(MAKE) --no-print-directory selfcheck
	@tests/host/summary.sh $(OUT)/counts/* $(VMDIR)/counts $(OUT)/selfcheck/counts

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

# make bench and friends (issue 5): see bench/bench.mk.
include bench/bench.mk
