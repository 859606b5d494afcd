#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a guest suite that passes (the control).
. "$(dirname "$0")/lib.sh"
ktap_plan 2
ktap_ok "the guest runs suites"
ktap_skip "a skipped test" "skips are counted, not failed"
ktap_finish
