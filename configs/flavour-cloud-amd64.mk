# SPDX-License-Identifier: GPL-2.0
# Debian's cloud-amd64 flavour (make check FLAVOUR=cloud-amd64): no zswap,
# so no zpool (60-zswap skips itself).
# zram's default compressor, lzo-rle, is built in elsewhere but a module
# here: loaded before the suites.
STOCK_MODULES += lzo-rle
GUEST_MODULES += lzo-rle
