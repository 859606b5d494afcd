#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one run of the test VM from what it left in its run directory.

    verdict.py RUNDIR [--counts FILE] [--max-lines N] [--excerpt-lines N]

RUNDIR holds console.log (ttyS0), result (ttyS1, the result channel) and
exit (written by scripts/run-vm.sh: "exit N" or "timeout N").

The run passes only if all of these hold:
  * QEMU exited by itself (no timeout) with status 0;
  * the result channel's last line is "success" (the guest writes "failed"
    first and "success" only after the last suite and the dmesg dump);
  * every suite the guest announced began and ended, exited 0, printed at
    least one KTAP document with a plan, and as many top-level results as
    planned, none of them "not ok" (a "# SKIP" result is a skip);
  * no "# zs-harness: error:" line;
  * the console's kernel lines and the final dmesg dump hold no kernel
    report: BUG, WARNING, Oops, panic, GPF, KASAN, UBSAN, kmemleak, lockdep,
    RCU or lockup reports, hung tasks, OOM kills, or any call trace.

One exception, for tests that provoke a warning on purpose: a kernel line
"# zs-harness: expect-warning FUNCTION" (a test module prints it just
before the call) lets the next report line through if, and only if, it is
a "WARNING: ... at FILE:LINE FUNCTION+0x..." line naming that FUNCTION;
then the "Call Trace:" line of that warning's splat, up to its
"---[ end trace" line, passes too. Any other report line, inside the splat
or after a marker, counts as usual, and a marker is spent by the first
report line that follows it, whatever that line is. The warning is
required, too: a marker still unspent at the next marker or at the end of
the log fails the run (the announced warning never came).

Only top-level results count (nested subtests are indented). Prints what it
found, the log path and the first offending lines on failure, with the
console around the first kernel report and its last lines, and writes
"PASSED FAILED SKIPPED" to the counts file (default RUNDIR/counts). FAILED
counts "not ok" and missing results; a run that fails without either counts
as one failed test. Exit status: 0 pass, 1 fail, 2 usage.
"""
import argparse
import os
import re
import sys

# A console line the kernel wrote: printk.time=1 is on the command line.
KTIME = re.compile(r"\[\s*\d+\.\d+\] ")
MARK = "# zs-harness: "

# Reports the kernel must not make during a run (matched in kernel lines).
KERNEL_REPORTS = re.compile(
    "|".join([
        r"BUG:", r"WARNING:", r"\bOops\b", r"Kernel panic",
        r"general protection fault", r"\bKASAN\b", r"UBSAN:",
        r"kmemleak: .*suspected memory leak", r"unreferenced object 0x",
        r"possible circular locking", r"inconsistent lock state",
        r"possible recursive locking", r"suspicious RCU usage",
        r"bad unlock balance", r"held lock freed",
        r"possible irq lock inversion", r"lock held when returning",
        r"DEBUG_LOCKS_WARN_ON", r"turning off the locking correctness validator",
        r"Unable to handle kernel", r"invalid opcode:", r"stack-protector",
        r"list_(add|del) corruption", r"refcount_t: ", r"soft lockup",
        r"hard LOCKUP", r"rcu: INFO: .*detected (expedited )?stalls?",
        r"blocked for more than \d+ seconds", r"invoked oom-killer",
        r"[Oo]ut of memory: Killed process", r"nobody cared",
        r"Disabling IRQ #", r"Call Trace:",
    ]))

RESULT = re.compile(r"(not ok|ok)\s+(\d+)\b(.*)")
PLAN = re.compile(r"1\.\.(\d+)")
SKIP = re.compile(r"#\s*SKIP\b", re.IGNORECASE)

# A test announcing the one warning it provokes next (see the docstring).
EXPECT_WARNING = re.compile(re.escape(MARK) + r"expect-warning (\w+)\s*$")
# 6.1: "WARNING: CPU: 0 PID: 9 at FILE:LINE FUNCTION+0x..."; 7.2:
# "WARNING: FILE:LINE at FUNCTION+0x..., CPU#0: comm/pid".
WARNING_AT = re.compile(r"WARNING: (?:CPU: \d+ PID: \d+ at \S+ |\S+ at )(\w+)\+0x")
END_TRACE = re.compile(r"---\[ end trace [0-9a-f]+ \]---")


def report_hits(kernel):
    """The kernel lines that are reports, less announced warnings.

    Returns (hits, accepted, missing): hits are (lineno, line) tuples,
    accepted is how many announced warnings were let through, missing the
    announcements (lineno, line) that no report line followed."""
    hits = []
    missing = []
    accepted = 0
    expected = None
    in_splat = False
    for n, line in kernel:
        m = EXPECT_WARNING.search(line)
        if m:
            if expected is not None:
                missing.append(announced)
            expected = m.group(1)
            announced = (n, line)
            continue
        if in_splat and END_TRACE.search(line):
            in_splat = False
            continue
        if not KERNEL_REPORTS.search(line):
            continue
        if in_splat and KERNEL_REPORTS.search(line).group(0) == "Call Trace:":
            continue
        m = WARNING_AT.search(line)
        if expected is not None and not in_splat and m and m.group(1) == expected:
            accepted += 1
            in_splat = True
            expected = None
            continue
        expected = None
        hits.append((n, line))
    if expected is not None:
        missing.append(announced)
    return hits, accepted, missing


class Doc:
    def __init__(self, line):
        self.line = line
        self.plan = None
        self.results = []  # (lineno, number, status) status: ok/not ok/skip


class Suite:
    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.docs = []
        self.exit = None
        self.errors = []   # (lineno, text)


def rejoin(raw):
    """Undo kernel console messages printed into the middle of a user line.

    The kernel writes to the console synchronously, so a warning can land
    between two chunks of a line a suite is writing: "ok 3 wri[ 5.1] ...",
    kernel lines, then "te data". Returns (lineno, text, is_kernel) tuples.
    Diagnostic lines are left alone: they may quote kernel lines."""
    out = []
    pending = None
    for n, line in enumerate(raw, 1):
        if KTIME.match(line):
            out.append((n, line, True))
            continue
        if pending is not None:
            line = pending + line
            pending = None
        m = KTIME.search(line)
        if m and not line.lstrip().startswith("#"):
            pending = line[:m.start()]
            out.append((n, line[m.start():], True))
            continue
        out.append((n, line, False))
    if pending is not None:
        out.append((len(raw), pending, False))
    return out


def parse(lines):
    """Walk the console: suites, their KTAP documents, kernel lines."""
    announced = None
    suites = []
    orphan = Suite("(outside any suite)", 0)
    cur = None
    doc = None
    kernel = []
    state = {"up": False, "dmesg_begin": False, "dmesg_end": False}
    errors = []
    for n, text, is_kernel in lines:
        if is_kernel:
            kernel.append((n, text))
            continue
        if text.startswith(MARK):
            what = text[len(MARK):]
            if what.startswith("guest up"):
                state["up"] = True
            elif what.startswith("suites:"):
                announced = [s[:-3] if s.endswith(".sh") else s
                             for s in what.split(":", 1)[1].split()]
            elif what.startswith("suite-begin "):
                cur = Suite(what.split()[1], n)
                suites.append(cur)
                doc = None
            elif what.startswith("suite-end "):
                m = re.match(r"suite-end (\S+) exit=(\d+)", what)
                if cur is not None and m and m.group(1) == cur.name:
                    cur.exit = int(m.group(2))
                cur = None
                doc = None
            elif what.startswith("dmesg-begin"):
                state["dmesg_begin"] = True
            elif what.startswith("dmesg-end"):
                state["dmesg_end"] = True
            elif what.startswith("error:"):
                (cur or orphan).errors.append((n, text))
            continue
        owner = cur or orphan
        if text.startswith(("KTAP version", "TAP version")):
            doc = Doc(n)
            owner.docs.append(doc)
            continue
        m = PLAN.fullmatch(text.split("#")[0].strip()) if text[:1].isdigit() else None
        if m:
            if doc is None:
                doc = Doc(n)
                owner.docs.append(doc)
            if doc.plan is None:
                doc.plan = int(m.group(1))
            continue
        m = RESULT.match(text)
        if m:
            if doc is None:
                doc = Doc(n)
                owner.docs.append(doc)
            status = m.group(1)
            if SKIP.search(m.group(3)):
                status = "skip"
            doc.results.append((n, int(m.group(2)), status, text))
    if orphan.docs or orphan.errors:
        suites.insert(0, orphan)
    return announced, suites, kernel, state, errors


def print_excerpts(log, raw, hits, n):
    """The console around the first report and at its end.

    CI keeps only this output, not the run directory: the lines before a
    call trace name what printed it, the last lines show where a guest
    that never powered off stopped."""
    def excerpt(title, first, last):
        print("--- %s (%s:%d-%d) ---" % (title, log, first + 1, last))
        for line in raw[first:last]:
            print("    " + line)
    if hits:
        at = hits[0][0] - 1
        excerpt("around the first report", max(0, at - n), min(len(raw), at + n))
    while raw and not raw[-1]:
        raw = raw[:-1]
    excerpt("end of the console", max(0, len(raw) - n), len(raw))


def judge(rundir, max_lines, excerpt_lines=25):
    log = os.path.join(rundir, "console.log")
    problems = []   # (text, [(lineno, line)...])
    passed = failed = skipped = 0

    def read(name):
        try:
            with open(os.path.join(rundir, name), "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return None

    exit_info = (read("exit") or "").strip()
    if exit_info.startswith("timeout"):
        problems.append(("VM killed: no poweroff within the %s s timeout "
                         "(hung guest?)" % exit_info.split()[1], []))
    elif exit_info != "exit 0":
        problems.append(("QEMU ended with '%s' (expected 'exit 0')"
                         % (exit_info or "nothing recorded"), []))

    result = [x.strip() for x in (read("result") or "").splitlines() if x.strip()]
    if not result or result[-1] != "success":
        problems.append(("result channel says '%s', not 'success' (guest "
                         "crashed, hung or stopped early)"
                         % (result[-1] if result else ""), []))

    text = read("console.log")
    if text is None:
        problems.append(("no console log %s" % log, []))
        text = ""
    raw = [x.rstrip("\r") for x in text.split("\n")]
    announced, suites, kernel, state, _ = parse(rejoin(raw))

    if not state["up"]:
        problems.append(("the guest's init never reported in (boot failed?)", []))
    elif not state["dmesg_end"]:
        problems.append(("the console log ends before the final dmesg dump", []))

    global_problems = len(problems)
    print("verdict: %s" % rundir)
    for s in suites:
        bad = list(s.errors)
        s_pass = s_fail = s_skip = 0
        if s.line and s.exit is None:
            bad.append((s.line, "suite %s never ended" % s.name))
        elif s.exit:
            bad.append((s.line, "suite %s exited with status %d" % (s.name, s.exit)))
        if not s.docs:
            bad.append((s.line, "suite %s printed no KTAP document" % s.name))
        for d in s.docs:
            for i, (n, num, status, line) in enumerate(d.results, 1):
                if status == "ok":
                    s_pass += 1
                elif status == "skip":
                    s_skip += 1
                else:
                    s_fail += 1
                    bad.append((n, line))
                if num != i:
                    bad.append((n, "result %d where %d was due" % (num, i)))
            if d.plan is None:
                bad.append((d.line, "KTAP document without a plan"))
            elif len(d.results) < d.plan:
                s_fail += d.plan - len(d.results)
                bad.append((d.line, "planned %d, got %d results"
                            % (d.plan, len(d.results))))
            elif len(d.results) > d.plan:
                bad.append((d.line, "planned %d, got %d results"
                            % (d.plan, len(d.results))))
        if bad and s_fail == 0:
            s_fail = 1
        passed += s_pass
        failed += s_fail
        skipped += s_skip
        print("  suite %-24s %3d ok, %d not ok, %d skipped%s"
              % (s.name, s_pass, s_fail, s_skip, "" if not bad else "  FAIL"))
        if bad:
            problems.append(("suite %s failed" % s.name, bad))

    seen = {s.name for s in suites}
    for name in announced or []:
        if name not in seen:
            failed += 1
            print("  suite %-24s never started  FAIL" % name)
            problems.append(("suite %s never started" % name, []))

    hits, accepted, missing = report_hits(kernel)
    if accepted:
        print("  %d announced warning(s) accepted (expect-warning)" % accepted)
    if missing:
        problems.insert(global_problems,
                        ("%d announced warning(s) never came" % len(missing),
                         missing))
    if hits:
        # Right after the run-level problems: the first thing to read.
        problems.insert(global_problems,
                        ("the kernel log has %d report line(s): %s"
                         % (len(hits), KERNEL_REPORTS.search(hits[0][1]).group(0)),
                         hits))

    if problems and failed == 0:
        failed = 1
    for what, where in problems:
        print("FAIL: %s" % what)
        for n, line in where[:max_lines]:
            print("    %s:%d: %s" % (log, n, line))
        if len(where) > max_lines:
            print("    ... %d more" % (len(where) - max_lines))
    if problems:
        print_excerpts(log, raw, hits, excerpt_lines)
    verdict = "FAIL" if problems else "PASS"
    print("verdict: %s, %d ok, %d not ok, %d skipped (console: %s)"
          % (verdict, passed, failed, skipped, log))
    return (not problems), passed, failed, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rundir")
    ap.add_argument("--counts", help="file to write 'PASSED FAILED SKIPPED' to")
    ap.add_argument("--max-lines", type=int, default=12)
    ap.add_argument("--excerpt-lines", type=int, default=25,
                    help="console lines shown around a failure")
    args = ap.parse_args()
    ok, passed, failed, skipped = judge(args.rundir, args.max_lines,
                                         args.excerpt_lines)
    with open(args.counts or os.path.join(args.rundir, "counts"), "w") as f:
        f.write("%d %d %d\n" % (passed, failed, skipped))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
