#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 21-zsmalloc-enomem: test_zsmalloc.ko's enomem case.  It allocates from one
# pool with zram's no-reclaim flags (GFP_NOWAIT | __GFP_NOWARN, movable)
# until zs_malloc() fails, which in a 1 GiB guest happens near 850 MiB,
# then checks that the error is -ENOMEM, that every earlier object is
# intact and that the pool returns to zero pages.  Nothing else runs
# meanwhile: the guest sits at its low watermark for a few seconds.
set -u
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086 # the parameters are meant to be split
run_kernel_ktap test_zsmalloc cases=enomem ${ZS_TEST_PARAMS:-}
ktap_finish
