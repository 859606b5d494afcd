#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: the guest hangs in the middle of a suite.
. "$(dirname "$0")/lib.sh"
ktap_plan 2
ktap_ok "before the hang"
while :; do sleep 60; done
