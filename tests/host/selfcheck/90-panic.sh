#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: the guest kernel panics in the middle of a suite.
. "$(dirname "$0")/lib.sh"
ktap_plan 2
ktap_ok "before the panic"
echo c >/proc/sysrq-trigger
ktap_ok "after the panic (never printed)"
ktap_finish
