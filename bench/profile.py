#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function, from bench/tools/insnprof.c's output.

  profile.py NAME=BLOCKS:SYSTEM_MAP... [--phases | --segments |
             --segment N] [--per X] [--top N] [--match REGEX]

Each BLOCKS file holds one guest run's segments (the runs between marks:
"segment N", then lines "start instructions executions", hex start);
SYSTEM_MAP is that guest kernel's System.map.  A block's instructions times
its executions go to the function its start lies in (self instructions: a
callee's are its own); a block that starts at a function's first byte
counts as a call of it; code outside the kernel image (modules: zs_bench's
loops) is "[module]".

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


def load_symbols(path):
    """Sorted text-symbol starts, their names, and the last one's start."""
    syms = sorted((int(a, 16), n) for a, k, n in (line.split()[:3] for line in open(path))
                  if k in "tTwW")
    return [a for a, _ in syms], [n for _, n in syms], syms[-1][0]


def load_run(blocks, system_map):
    """[{function: [self instructions, calls]}] per segment of one run."""
    starts, names, last = load_symbols(system_map)
    segs = []
    for line in open(blocks):
        if line.startswith("segment"):
            segs.append(collections.defaultdict(lambda: [0, 0]))
            continue
        start, insns, runs = (int(x, 16 if i == 0 else 10) for i, x in enumerate(line.split()))
        i = bisect.bisect_right(starts, start) - 1
        # Past the kernel image's last symbol: module code.
        inside = i >= 0 and start < last + 0x10000
        name = names[i] if inside else "[module]"
        segs[-1][name][0] += insns * runs
        if inside and starts[i] == start:
            segs[-1][name][1] += runs
    return segs


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
    ap.add_argument("runs", nargs="+", help="NAME=BLOCKS:SYSTEM_MAP")
    ap.add_argument("--phases", action="store_true", help="one table per zs_bench phase")
    ap.add_argument("--segments", action="store_true", help="list the segments")
    ap.add_argument("--segment", type=int, help="only segment N")
    ap.add_argument("--per", default="", help="a number or a function's calls (default: its own)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--match", default="", help="only functions whose name matches")
    a = ap.parse_args()
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
