#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function, from bench/tools/insnprof.c's output.

  profile.py NAME=BLOCKS:SYMBOLS... [--phases | --segments |
             --segment N] [--per X] [--top N] [--match REGEX]
  profile.py --marks SYMBOLS FUNCTION...

Each BLOCKS file holds one guest run's segments (the runs between marks:
"segment N", then lines "start instructions executions", hex start);
SYMBOLS is that guest kernel's System.map, or a guest log with its
/proc/kallsyms as "zsb: ksym" lines (6.1: Debian ships no System.map).  A block's instructions times
its executions go to the function its start lies in (self instructions: a
callee's are its own); a block that starts at a function's first byte
counts as a call of it; code the symbols do not know (zs_bench's loops) is
"[module]".  --marks prints the plugin's mark= arguments for the starts of
the functions named.

--phases: for each zs_bench phase (found by the zs_* calls its segment
makes), one table, the runs side by side, of each function's instructions
per call of the phase's API function, the largest first.  --segments lists
each run's segments and the zs_* calls in them.  Otherwise one table over
segment N (--segment) or all, per --per (a number, or the function whose
calls divide).  Python 3 standard library only.
"""
import argparse
import bisect
import collections
import re

# zs_bench's phases (bench/zs_bench.c), in order: the zs_* function whose
# calls identify a phase's segment and divide its instructions.
PHASES = [("fill: zs_malloc and a write, per object", "zs_malloc"),
          ("verify: a read, per read (begin + end; reads twice per object)", "zs_obj_read_begin"),
          ("free_half: per zs_free", "zs_free"),
          ("compact: per zs_compact call", "zs_compact")]


# A System.map line, or a guest log's "zsb: ksym" line (after console noise).
SYMBOL = re.compile(r"(?:.*?zsb: ksym )?([0-9a-f]{16}) ([a-zA-Z]) (\S+)")


def load_symbols(path):
    """Symbols of a System.map, or of the "zsb: ksym" lines (/proc/kallsyms)
    of a guest log: sorted starts, and (name, whether it is code) of each."""
    syms = {}
    for line in open(path, errors="replace"):
        m = SYMBOL.match(line)
        if m and m.group(2) not in "aAuU":
            syms[int(m.group(1), 16)] = (m.group(3), m.group(2) in "tTwW")
    starts = sorted(syms)
    return starts, [syms[a] for a in starts]


def load_run(blocks, symbols):
    """[{function: [self instructions, calls]}] per segment of one run.  Code
    that follows data rather than a function (code the symbols do not know:
    a module loaded after they were read) is "[module]"."""
    starts, syms = load_symbols(symbols)
    segs = []
    for line in open(blocks):
        if line.startswith("segment"):
            segs.append(collections.defaultdict(lambda: [0, 0]))
            continue
        start, insns, runs = (int(x, 16 if i == 0 else 10) for i, x in enumerate(line.split()))
        i = bisect.bisect_right(starts, start) - 1
        name, code = syms[i] if i >= 0 else ("", False)
        name = name if code else "[module]"
        segs[-1][name][0] += insns * runs
        if code and starts[i] == start:
            segs[-1][name][1] += runs
    return segs


def marks(symbols, names):
    """The insnprof arguments that mark the starts of functions names."""
    starts, syms = load_symbols(symbols)
    found = {n: a for a, (n, code) in zip(starts, syms) if code and n in names}
    missing = set(names) - set(found)
    if missing:
        raise SystemExit(f"profile: {symbols} has no {' '.join(sorted(missing))}")
    return "".join(f",mark={found[n]:x}" for n in names)


def merged(segs):
    total = collections.defaultdict(lambda: [0, 0])
    for s in segs:
        for k, (ins, calls) in s.items():
            total[k][0] += ins
            total[k][1] += calls
    return total


def api_calls(seg):
    return {k: v[1] for k, v in seg.items() if k.startswith("zs_") and v[1]}


def phase_segment(segs, api):
    """The first segment that calls api (zs_obj_read_begin: or zs_map_object)."""
    for s in segs:
        calls = api_calls(s)
        if api in calls or (api == "zs_obj_read_begin" and "zs_map_object" in calls
                            and "zs_malloc" not in calls):
            return s
    return None


def divisor(funcs, per):
    """--per's value in a run: a number, or the calls of a function."""
    if per[0].isdigit():
        return float(per)
    if per == "zs_obj_read_begin" and per not in funcs:
        per = "zs_map_object"
    return funcs[per][1] if per in funcs else 0


def table(funcs, per, top, match):
    """Markdown rows: functions by instructions, the runs side by side."""
    L = ["| function | " + " | ".join(f"{n}" for n, _ in funcs) + " |",
         "|---|" + "---|" * len(funcs)]
    keys = {k for _, f in funcs for k in f if re.search(match, k)}
    for k in sorted(keys, key=lambda k: -max(f[k][0] if k in f else 0 for _, f in funcs))[:top]:
        cells = []
        for _, f in funcs:
            ins, calls = f[k] if k in f else (0, 0)
            div = divisor(f, per) if per else calls
            cells.append(f"{ins / div:.1f}" if div and ins else "-")
        L.append(f"| {k} | " + " | ".join(cells) + " |")
    cells = []
    for _, f in funcs:
        div = divisor(f, per) if per else 0
        cells.append(f"**{sum(v[0] for v in f.values()) / div:.1f}**" if div else "-")
    return L + ["| **all** | " + " | ".join(cells) + " |"]


def list_segments(runs):
    for name, segs in runs:
        print(f"{name}:")
        for n, s in enumerate(segs):
            calls = ", ".join(f"{k} {c}" for k, c in sorted(api_calls(s).items()))
            print(f"  segment {n}: {sum(v[0] for v in s.values())} instructions; {calls}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="NAME=BLOCKS:SYMBOLS (--marks: SYMBOLS FUNCTION...)")
    ap.add_argument("--marks", action="store_true", help="print mark= arguments")
    ap.add_argument("--phases", action="store_true", help="one table per zs_bench phase")
    ap.add_argument("--segments", action="store_true", help="list the segments")
    ap.add_argument("--segment", type=int, help="only segment N")
    ap.add_argument("--per", default="", help="a number or a function's calls (default: its own)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--match", default="", help="only functions whose name matches")
    a = ap.parse_args()
    if a.marks:
        print(marks(a.runs[0], a.runs[1:]))
        return
    runs = []
    for r in a.runs:
        name, rest = r.split("=", 1)
        blocks, system_map = rest.split(":", 1)
        runs.append((name, load_run(blocks, system_map)))
    if a.segments:
        list_segments(runs)
    elif a.phases:
        for title, api in PHASES:
            funcs = [(n, phase_segment(segs, api)) for n, segs in runs]
            if any(f is None for _, f in funcs):
                continue
            print("\n".join([f"#### {title}", ""] + table(funcs, api, a.top, a.match) + [""]))
    else:
        funcs = [(n, segs[a.segment] if a.segment is not None else merged(segs)) for n, segs in runs]
        print("\n".join(table(funcs, a.per, a.top, a.match)))


if __name__ == "__main__":
    main()
