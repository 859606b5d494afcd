# SPDX-License-Identifier: GPL-2.0
# Debian's PREEMPT_RT flavour (make check FLAVOUR=rt-amd64).  Spinlocks and
# local locks sleep there and interrupt handlers run in threads, as RT users
# boot with threadirqs; the concurrent in-kernel test and CPU hotplug under
# swap load run longer than on amd64 (hotplug: 3 passes, not 2), where
# locking is tested hardest.
#
# noirqdebug: with forced-threaded handlers, a long burst of console output
# (the final dmesg dump) under TCG makes QEMU's 8250 raise TX interrupts that
# its thread has already served; the spurious-IRQ detector counts them as
# unhandled, disables IRQ 4 ("irq 4: nobody cared") and the serial port
# stalls for good, so the guest never powers off.  Seen in CI and in 1 of 2
# local runs on a loaded host; the allocator is not involved.
APPEND    += threadirqs noirqdebug
GUEST_ENV += ZS_CONCURRENT_LOOPS=400000 ZS_HOTPLUG_PASSES=3
# The suites that take locks under load: the API test with its concurrent
# case and compaction, swap through zram, its writeback and recompression,
# CPU hotplug under swap load, zswap.  SUITES= all of them.
ifeq ($(SUITES),)
SUITES := 20-zsmalloc-api 40-zram-swap 45-zram-writeback 55-lifecycle 60-zswap
endif
# The hotplug run took 6-7 minutes with 6 passes while kernels built beside it
# (378 s in a cold CI run, whose suite then hit the default 400 s limit).
SUITE_TIMEOUT := 900
TIMEOUT := 2400
