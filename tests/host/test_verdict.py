#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of verdict.py on made-up run directories (no VM). Prints KTAP;
exits 1 if any check fails."""
import contextlib
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict  # noqa: E402

HEAD = """[    0.000000] Linux version 6.1.0-57-amd64
# zs-harness: guest up: kernel 6.1.0-57-amd64, allocator stock
# zs-harness: suites: 10-a.sh 20-b.sh
"""
SUITE_A = """# zs-harness: suite-begin 10-a
KTAP version 1
1..2
ok 1 first
ok 2 second # SKIP not here
# zs-harness: suite-end 10-a exit=0
"""
SUITE_B = """# zs-harness: suite-begin 20-b
KTAP version 1
1..1
    KTAP version 1
    1..1
    ok 1 nested
ok 1 test_module
# zs-harness: suite-end 20-b exit=0
"""
TAIL = """# zs-harness: dmesg-begin
[    1.000000] zram: Added device: zram0
# zs-harness: dmesg-end
"""
GOOD = HEAD + SUITE_A + SUITE_B + TAIL

# A warning a test announced, as the console shows it.
SPLAT = """[    1.000000] # zs-harness: expect-warning zs_map_object
[    1.000001] ------------[ cut here ]------------
[    1.000002] WARNING: CPU: 0 PID: 9 at /b/src/map.c:180 zs_map_object+0x1c/0x2a0 [zsmalloc]
[    1.000003] Modules linked in: test_zsmalloc(+) zsmalloc
[    1.000004] Call Trace:
[    1.000005]  <TASK>
[    1.000006]  </TASK>
[    1.000007] ---[ end trace 0000000000000000 ]---
"""


def with_splat(splat):
    return GOOD.replace("[    1.000000] zram", splat + "[    1.000010] zram")


# (name, console.log, result channel, exit file, want pass, want counts)
CASES = [
    ("a clean run passes", GOOD, "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("a kernel line printed into a result line is taken out",
     GOOD.replace("ok 1 first\n", "ok 1 fi[    2.5] zram: message\n"
                  "[    2.6] zram: second message\nrst\n"),
     "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("an announced warning in the announced function passes",
     with_splat(SPLAT), "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("an announced warning twice (console and dmesg dump) passes",
     with_splat(SPLAT + SPLAT), "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("an announced warning in the format of 7.x passes",
     with_splat(SPLAT.replace("WARNING: CPU: 0 PID: 9 at /b/src/map.c:180 zs_map_object+0x1c/0x2a0",
                              "WARNING: mm/zsmalloc/obj.c:86 at zs_map_object+0x8d/0xd0, CPU#0: insmod/9")),
     "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("a warning of 7.x in another function than announced fails",
     with_splat(SPLAT.replace("WARNING: CPU: 0 PID: 9 at /b/src/map.c:180 zs_map_object+0x1c/0x2a0",
                              "WARNING: mm/zsmalloc/pool.c:289 at zs_free+0xfd/0x130, CPU#0: insmod/9")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a warning in another function than announced fails",
     with_splat(SPLAT.replace("at /b/src/map.c:180 zs_map_object+",
                              "at /b/src/pool.c:9 zs_free+")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a function name that only starts like the announced one fails",
     with_splat(SPLAT.replace("zs_map_object+", "zs_map_object_x+")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a second warning after one announcement fails",
     with_splat(SPLAT + SPLAT.split("\n", 1)[1]),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("an announced warning that never comes fails",
     with_splat(SPLAT.split("\n", 1)[0] + "\n"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("an announced warning that never comes before the next announcement fails",
     with_splat(SPLAT.split("\n", 1)[0] + "\n" + SPLAT),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a warning without an announcement fails",
     with_splat(SPLAT.split("\n", 1)[1]),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("an announcement is spent by the first report line that follows",
     with_splat(SPLAT.replace("[    1.000001] ------------[ cut here ]",
                              "[    1.000001] BUG: sleeping function called\n"
                              "[    1.000001] ------------[ cut here ]")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("another report inside an announced warning's splat fails",
     with_splat(SPLAT.replace("[    1.000005]  <TASK>",
                              "[    1.000005] KASAN: use-after-free")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("an announcement printed by user space is no announcement",
     with_splat(SPLAT.replace("[    1.000000] # zs-harness: expect-warning",
                              "# zs-harness: expect-warning")),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a kernel WARNING fails the run",
     GOOD.replace("[    1.000000] zram", "[    1.000000] WARNING: CPU: 0 PID: 1 at x\n"
                  "[    1.000001] zram"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a lockdep report fails the run",
     GOOD.replace("[    1.000000] zram", "[    1.000000] possible circular locking"
                  " dependency detected\n[    1.000001] zram"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("PREEMPT_RT: a sleeping lock taken in atomic context fails the run",
     GOOD.replace("[    1.000000] zram", "[    1.000000] BUG: sleeping function called from"
                  " invalid context at kernel/locking/spinlock_rt.c:46\n[    1.000001] zram"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("PREEMPT_RT: scheduling while atomic fails the run",
     GOOD.replace("[    1.000000] zram", "[    1.000000] BUG: scheduling while atomic:"
                  " kworker/0:1/12/0x00000002\n[    1.000001] zram"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a diagnostic quoting a kernel WARNING is no report",
     GOOD.replace("ok 1 first\n", "# [    2.0] WARNING: quoted\nok 1 first\n"),
     "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("a failed nested result alone does not count",
     GOOD.replace("    ok 1 nested", "    not ok 1 nested"),
     "failed\nsuccess\n", "exit 0", True, (2, 0, 1)),
    ("not ok fails the run", GOOD.replace("ok 1 first", "not ok 1 first"),
     "failed\nsuccess\n", "exit 0", False, (1, 1, 1)),
    ("fewer results than planned count as failed",
     GOOD.replace("1..2\n", "1..4\n"), "failed\nsuccess\n", "exit 0", False, (2, 2, 1)),
    ("a suite without a plan fails", GOOD.replace("1..2\n", ""),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a suite exiting non-zero fails",
     GOOD.replace("10-a exit=0", "10-a exit=2"), "failed\nsuccess\n", "exit 0",
     False, (2, 1, 1)),
    ("a zs-harness error line fails",
     GOOD.replace("ok 1 first\n", "ok 1 first\n# zs-harness: error: mod: insmod failed\n"),
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("an announced suite that never ran fails", HEAD + SUITE_A + TAIL,
     "failed\nsuccess\n", "exit 0", False, (1, 1, 1)),
    ("a result channel left at 'failed' fails", GOOD, "failed\n", "exit 0",
     False, (2, 1, 1)),
    ("an empty result channel fails", GOOD, "", "exit 0", False, (2, 1, 1)),
    ("a timeout fails", GOOD, "failed\nsuccess\n", "timeout 30", False, (2, 1, 1)),
    ("a log cut before the dmesg dump fails", HEAD + SUITE_A + SUITE_B,
     "failed\nsuccess\n", "exit 0", False, (2, 1, 1)),
    ("a panic mid-suite fails",
     HEAD + SUITE_A + "# zs-harness: suite-begin 20-b\nKTAP version 1\n1..1\n"
     "[    3.0] Kernel panic - not syncing: sysrq triggered crash\n",
     "failed\n", "exit 0", False, (1, 1, 1)),
]


def run(console, result, exit_info):
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("console.log", console), ("result", result),
                           ("exit", exit_info)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ok, p, f, s = verdict.judge(d, 5)
    return ok, (p, f, s), out.getvalue()


def main():
    print("KTAP version 1")
    print("1..%d" % len(CASES))
    bad = 0
    for i, (name, console, result, exit_info, want_ok, want_counts) in enumerate(CASES, 1):
        ok, counts, out = run(console, result, exit_info)
        if ok == want_ok and counts == want_counts:
            print("ok %d %s" % (i, name))
        else:
            bad += 1
            print("# got pass=%s counts=%s, wanted pass=%s counts=%s"
                  % (ok, counts, want_ok, want_counts))
            for line in out.splitlines():
                print("#   " + line)
            print("not ok %d %s" % (i, name))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
