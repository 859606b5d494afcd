#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a guest suite with a failing test.
. "$(dirname "$0")/lib.sh"
ktap_plan 2
ktap_ok "a test that passes"
ktap_not_ok "a test forced to fail"
ktap_finish
