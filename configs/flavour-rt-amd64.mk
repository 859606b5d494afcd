# SPDX-License-Identifier: GPL-2.0
# Debian's PREEMPT_RT flavour (make check FLAVOUR=rt-amd64).  Spinlocks and
# local locks sleep there and interrupt handlers run in threads, as RT users
# boot with threadirqs; the concurrent in-kernel test and CPU hotplug under
# swap load run longer than on amd64, where locking is tested hardest.
APPEND    += threadirqs
GUEST_ENV += ZS_CONCURRENT_LOOPS=400000 ZS_HOTPLUG_PASSES=6
