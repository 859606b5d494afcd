# SPDX-License-Identifier: GPL-2.0
# Debian's cloud-amd64 flavour (make check FLAVOUR=cloud-amd64): no zswap,
# so no zpool: our module is built without its zpool driver (60-zswap
# skips itself).  zram's default compressor, lzo-rle, is built in elsewhere
# but a module here: loaded before the suites.
STOCK_MODULES += lzo-rle
GUEST_MODULES += lzo-rle
# What differs here is how the module is built and loaded, not what it
# does: the suites that load it, use the API, swap through zram, and
# find no zswap (the rest run on amd64, rt and 7.2).  SUITES= all of them.
ifeq ($(SUITES),)
SUITES := 10-zram-data 20-zsmalloc-api 40-zram-swap 60-zswap
endif
