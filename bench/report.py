#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the guest logs of bench/run-bench.sh.

  report.py OUT [--series S] [--csv FILE] [--md FILE] [--plots DIR]

Reads OUT/logs/*.log (one guest boot each: timing-CFG-I with CFG stock,
ours or ours-eager, smp2-ALLOC-I, density-stock-nN, density-ours-mppM-nN,
density-ours-mppM-eager-nN, zram-ALLOC-I, zramswap-ALLOC-I, zswap-ZPOOL-I,
latency-ALLOC-I; with a kernel series, CFG and ALLOC are its peers stock,
chain16 and ours, and density-ours-mpp16-nN). For every figure: the median
over rounds (each round's figure is already zs_bench's median over its
loops), the spread (min..max over rounds) and the ratio of the medians to
the experiment's baseline (stock; zsmalloc-stock for 6.1's zswap). Writes a
CSV (columns experiment, config, workload, phase, figure, median, min, max,
rounds, ratio_to_stock), the series' section of BENCHMARKS.md (S: 6.1, the
module on Debian 12's kernel, the default; 6.12 or 7.2, the patch series
against that kernel's own zsmalloc; the other sections of the file are
kept) and, when gnuplot is installed, PNG plots. Python 3 standard library
only.
"""
import argparse
import collections
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys

PHASES = ["fill", "verify", "free_half", "compact", "refill", "verify2", "free_all"]
LAT = ["malloc_ns", "free_ns", "map_wo_ns", "map_ro_ns", "compact_ns_per_page"]
# The per-call figures the targets judge, each with the phase it is taken in.
TIMED = [("malloc_ns", "fill"), ("free_ns", "free_half"), ("map_wo_ns", "fill"), ("map_ro_ns", "verify")]
WORKLOADS = ["files", "anon", "small", "halfpage"]
# Figures where a larger value is better.
HIGHER = {"density", "ops_per_s", "write_mb_per_s", "read_mb_per_s"}
# The phases after which zs_bench runs its metadata helper (density sweep).
META_PHASES = ["fill", "free_half", "compact", "refill"]
ZPOOLS = ["zsmalloc-stock", "zsmalloc-ours", "zbud", "z3fold"]
# A kernel series' peers: its zsmalloc, that with the longest chains, ours.
PEERS = ["stock", "chain16", "ours"]
PAGE = 4096

KV = re.compile(r"(\w+)=(\S+)")


def baseline(data, exp):
    """The configuration ratios are taken against: stock, or 6.1's zswap
    zpool zsmalloc-stock."""
    return "zsmalloc-stock" if (exp, "zsmalloc-stock") in data else "stock"


def meta_figs(kv):
    """Figures of one zsb-meta line: metadata bytes (ours: debugfs; stock,
    which has no debugfs statistics: its slab caches), per object, and the
    pool's pages plus metadata per requested byte."""
    w, p = kv["workload"], kv["phase"]
    src = kv["debugfs"] if kv["debugfs"].isdigit() else kv["slab"]
    figs = [((w, p, "meta_slab_bytes"), float(kv["slab"]))] if kv["slab"].isdigit() else []
    if not src.isdigit():
        return figs
    meta, objs, req = float(src), float(kv["objects"]), float(kv["bytes"])
    figs.append(((w, p, "meta_bytes"), meta))
    if objs:
        figs.append(((w, p, "meta_per_object"), meta / objs))
    if req:
        figs.append(((w, p, "total_per_byte"), (float(kv["pages"]) * PAGE + meta) / req))
    held = kv.get("held", "")
    if req and held.isdigit():
        # Ours' handle table is in debugfs' total but in no slab cache.
        table = float(kv["debugfs"]) - float(kv["slab"]) if kv["debugfs"].isdigit() else 0
        figs.append(((w, p, "held_per_byte"), (float(kv["pages"]) * PAGE + float(held) + table) / req))
    return figs


def hog_figs(exp, what, kv, fails):
    """Figures of one "zsb: EXP WHAT k=v..." line of the zswap or zramswap
    test (memhog in a memory cgroup)."""
    v = {k: float(x) for k, x in kv.items() if re.fullmatch(r"[\d.]+", x)}
    if what == "peak" and exp == "zswap":
        figs = [((exp, "peak", k), v[k]) for k in ("stored_pages", "pool_total_size")]
        figs.append(((exp, "max", "pool_total_size"), v["max_pool_total_size"]))
        if v["stored_pages"]:
            figs.append(((exp, "peak", "bytes_per_page"), v["pool_total_size"] / v["stored_pages"]))
        return figs
    if what == "peak":
        figs = [((exp, "peak", k), v[k]) for k in ("orig", "compr", "mem_used", "mem_used_max") if k in v]
        if v.get("orig"):
            figs.append(((exp, "peak", "bytes_per_page"), v["mem_used"] / (v["orig"] / PAGE)))
        return figs
    if what == "counters":
        return [((exp, "counters", k), x) for k, x in v.items()]
    if what == "vmstat":
        return [((exp, "vmstat", k), x) for k, x in v.items()]
    if what == "hog":
        if v.get("rc"):
            fails.append(f"memhog exited with status {kv['rc']}")
        return [((exp, "hog", "seconds"), v["seconds"])]
    if what == "memhog:":
        if v.get("mismatched_pages"):
            fails.append(f"memhog: {kv['mismatched_pages']} pages differ")
        return [((exp, "hog", "mismatched_pages"), v["mismatched_pages"])]
    return []


def parse_log(path):
    """Return (runs, failures) of one guest log: runs is a list of
    (key tuple, value) with key (workload, phase, figure)."""
    figs, fails, result = [], [], None
    text = open(path, errors="replace").read()
    for line in text.splitlines():
        m = re.search(r"zs_bench: (.*) returned (-?\d+)$", line)
        if m:
            fails.append(f"metadata helper failed: {m.group(1)} returned {m.group(2)}")
            continue
        m = re.search(r"zs_bench: start nr_objects=(\d+)", line)
        if m:
            figs.append((("_", "_", "nr_objects"), float(m.group(1))))
        i = line.find("zs_bench: workload=")
        if i >= 0:
            kv = dict(KV.findall(line[i:]))
            if kv.get("loop") != "median":
                continue
            w = kv["workload"]
            if " mixed " in line:
                figs.append(((w, f"mixed_t{kv['threads']}", "ops_per_s"), float(kv["ops_per_s"])))
                continue
            for k, v in kv.items():
                if k not in ("workload", "loop", "phase"):
                    figs.append(((w, kv["phase"], k), float(v)))
            continue
        m = re.search(r"zsb: zram (write|read) zcopy: (.*)", line)
        if m:
            kv = dict(KV.findall(m.group(2)))
            figs.append((("zram", m.group(1), f"{m.group(1)}_mb_per_s"), float(kv["mb_per_s"])))
            continue
        m = re.search(r"zsb: zram (mm_stat|compacted mm_stat|halved mm_stat) (.*)", line)
        if m:
            kv = {k: float(v) for k, v in KV.findall(m.group(2))}
            ph = {"mm_stat": "stored"}.get(m.group(1), m.group(1).split()[0])
            figs.append((("zram", ph, "compr_data_size"), kv["compr"]))
            figs.append((("zram", ph, "mem_used_total"), kv["mem_used"]))
            figs.append((("zram", ph, "overhead"), kv["mem_used"] / kv["compr"] - 1))
            figs.append((("zram", ph, "density"), kv["compr"] / kv["mem_used"]))
            continue
        m = re.search(r"zsb: meta (.*)", line)
        if m:
            figs += meta_figs(dict(KV.findall(m.group(1))))
            continue
        m = re.search(r"zsb: (zswap|zramswap) (peak|counters|vmstat|hog|memhog:) (.*)", line)
        if m:
            figs += hog_figs(m.group(1), m.group(2), dict(KV.findall(m.group(3))), fails)
            continue
        m = re.search(r"zsb: latency (.*)", line)
        if m:
            figs += [(("compact", "latency", k), float(v)) for k, v in KV.findall(m.group(1))]
            continue
        m = re.search(r"zsb: zram md5 image=(\w+) back=(\w+)", line)
        if m and m.group(1) != m.group(2):
            fails.append("zram read back differs from the image")
        m = re.search(r"^(?:.*\] )?(?:zs_bench: )?(not ok \d+ .*)", line)
        if m:
            fails.append(m.group(1))
        m = re.search(r"zsb: result=(\w+)", line)
        if m:
            result = m.group(1)
    if result != "ok":
        fails.append(f"guest result={result or 'none (hung or crashed)'}")
    return figs, fails


def chain_mismatch(path, name):
    """A failure if the guest of an ours-mppN log did not run ours with
    max_pages_per_zspage=N (the guest prints the parameter it read back)."""
    m = re.search(r"-mpp(\d+)", name)
    if not m:
        return []
    got = re.findall(r"zsb: max_pages_per_zspage=(\d+)", open(path, errors="replace").read())
    return [] if got == [m.group(1)] else [f"max_pages_per_zspage {got or 'not shown'}, not {m.group(1)}"]


def collect(out):
    """data[(experiment, config)][(workload, phase, figure)] = [values]"""
    data = collections.defaultdict(lambda: collections.defaultdict(list))
    fails = {}
    logs = sorted(f for f in os.listdir(os.path.join(out, "logs")) if f.endswith(".log"))
    for f in logs:
        name = f[:-4]
        m = re.match(r"(timing|smp2|zram|zramswap|latency)-(stock|chain16|ours|ours-eager)-\d+$", name)
        d = re.match(r"density-(stock|chain16|ours(?:-mpp\d+)?(?:-eager)?)-n(\d+)$", name)
        z = re.match(r"(zswap)-(.+)-\d+$", name)
        if m or z:
            exp, cfg = (m or z).group(1), (m or z).group(2)
        elif d:
            exp, cfg = f"density-n{d.group(2)}", d.group(1)
        else:
            continue
        figs, bad = parse_log(os.path.join(out, "logs", f))
        bad += chain_mismatch(os.path.join(out, "logs", f), name)
        if bad:
            fails[name] = bad
        for key, v in figs:
            data[(exp, cfg)][key].append(v)
    return data, fails


def stats(vals):
    return statistics.median(vals), min(vals), max(vals), len(vals)


def fmt(x, fig):
    if x is None:
        return "-"
    if fig in ("density", "overhead", "total_per_byte", "held_per_byte"):
        return f"{x:.4f}"
    if fig in ("pages", "compacted", "compr_data_size", "mem_used_total", "ops_per_s",
               "meta_bytes", "meta_slab_bytes", "bytes_per_page", "stored_pages",
               "pool_total_size", "mismatched_pages", "orig", "compr", "mem_used",
               "mem_used_max", "pswpin", "pswpout") or fig.startswith(("reject_", "written_")):
        return f"{x:.0f}"
    return f"{x:.1f}"


def spread(vals):
    """Spread over rounds as (max - min) / median, in percent."""
    med = statistics.median(vals)
    return 0.0 if not med else (max(vals) - min(vals)) / med * 100


def write_csv(path, data):
    rows = ["experiment,config,workload,phase,figure,median,min,max,rounds,ratio_to_stock"]
    for (exp, cfg) in sorted(data):
        for key in sorted(data[(exp, cfg)]):
            m, lo, hi, n = stats(data[(exp, cfg)][key])
            base = baseline(data, exp)
            r = ratio(m, med(data, exp, base, key)) if cfg != base else None
            rows.append(",".join([exp, cfg, *key, f"{m:.6g}", f"{lo:.6g}", f"{hi:.6g}",
                                  str(n), f"{r:.4f}" if r else ""]))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def med(data, exp, cfg, key):
    v = data.get((exp, cfg), {}).get(key)
    return statistics.median(v) if v else None


def medfmt(data, exp, cfg, key):
    """The median of a figure, formatted, without spread."""
    return fmt(med(data, exp, cfg, key), key[2])


def ratio(a, b):
    return a / b if a is not None and b else None


def cell(data, exp, cfg, key):
    """'median (±spread%)' for a table."""
    v = data.get((exp, cfg), {}).get(key)
    if not v:
        return "-"
    s = fmt(statistics.median(v), key[2])
    if len(v) > 1 and key[2] not in ("density", "pages", "compacted"):
        s += f" ±{spread(v) / 2:.1f}%"
    return s


def ratio_cell(data, exp, a, b, key):
    r = ratio(med(data, exp, a, key), med(data, exp, b, key))
    return f"{r:.3f}" if r else "-"


def row(*cells):
    return "| " + " | ".join(cells) + " |"


def header(*cols):
    return [row(*cols), "|" + "---|" * len(cols)]


def compare_row(data, exp, key, labels, cfgs, pairs):
    """A table row: the label cells, cell() of each configuration, then the
    ratio of the medians a/b for each (a, b) of pairs."""
    return row(*labels, *(cell(data, exp, c, key) for c in cfgs),
               *(ratio_cell(data, exp, a, b, key) for a, b in pairs))


def present(data, exp, cfgs):
    """The configurations of cfgs that experiment exp has data for."""
    return [c for c in cfgs if (exp, c) in data]


def density_cfgs(data):
    """Density-sweep experiments by object count, and their configurations:
    stock, then ours by max_pages_per_zspage, on demand before eager."""
    exps = sorted({e for e, c in data if e.startswith("density-n")}, key=lambda e: int(e[9:]))
    cfgs = sorted({c for e, c in data if e.startswith("density-n")},
                  key=lambda c: (PEERS.index(c) if c in PEERS else len(PEERS),
                                 int(re.search(r"mpp(\d+)", c).group(1)) if "mpp" in c else 0,
                                 c.endswith("-eager")))
    return exps, cfgs


def verdict(ok):
    return "**met**" if ok else "**not met**" if ok is not None else "not measured"


# gnuplot: clustered histograms, the same for every plot.
HISTOGRAMS = """
set terminal pngcairo size 900,500 noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key outside bottom center horizontal
"""


def plots(data, pdir):
    """PNG plots with gnuplot; skipped (with a note) when it is missing."""
    if not shutil.which("gnuplot"):
        print("report: gnuplot not installed, no plots (make bench-deps)", file=sys.stderr)
        return []
    os.makedirs(pdir, exist_ok=True)
    made = []
    # 1. density per phase, files workload, ours vs stock.
    dat = os.path.join(pdir, "density.dat")
    with open(dat, "w") as f:
        f.write("# phase stock ours\n")
        for p in PHASES[:-1]:
            s = med(data, "timing", "stock", ("files", p, "density"))
            o = med(data, "timing", "ours", ("files", p, "density"))
            f.write(f"{p} {s or 0} {o or 0}\n")
    # 2. latency ratios ours/stock per workload and operation.
    lat = os.path.join(pdir, "latency.dat")
    wls = sorted({k[0] for (e, c), d in data.items() if e == "timing" for k in d} - {"_"})
    with open(lat, "w") as f:
        f.write("op " + " ".join(wls) + "\n")
        for fig, ph in [("malloc_ns", "fill"), ("free_ns", "free_half"), ("map_wo_ns", "fill"),
                        ("map_ro_ns", "verify"), ("compact_ns_per_page", "compact")]:
            vals = []
            for w in wls:
                r = ratio(med(data, "timing", "ours", (w, ph, fig)),
                          med(data, "timing", "stock", (w, ph, fig)))
                vals.append(f"{r:.4f}" if r else "NaN")
            label = {"compact_ns_per_page": "compact/page"}.get(fig, fig[:-3])
            f.write(f"{label} " + " ".join(vals) + "\n")
    script = HISTOGRAMS + f"""
set output '{pdir}/density.png'
set title 'Density (requested bytes / pool bytes), files workload, median over rounds'
set yrange [0:1.05]
plot '{dat}' using 2:xtic(1) title 'stock', '' using 3 title 'ours', 0.985 with lines dt 2 lc rgb 'black' title 'target 0.985'
set output '{pdir}/latency-ratio.png'
set title 'Latency ours / stock (median; < 1 is faster), -icount guests'
set yrange [0:*]
plot for [i=2:{len(wls) + 1}] '{lat}' using i:xtic(1) title columnheader(i), {CALL_GOAL} with lines dt 2 lc rgb 'black' title 'goal {CALL_GOAL}', 1 with lines lc rgb 'gray' notitle
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    made += ["density.png", "latency-ratio.png"]
    # 3. density sweep over max_pages_per_zspage, on demand and eager.
    sweep, cfgs = density_cfgs(data)
    if sweep:
        sd = os.path.join(pdir, "sweep.dat")
        with open(sd, "w") as f:
            f.write("objects_phase " + " ".join(cfgs) + "\n")
            for e in sweep:
                for p in META_PHASES:
                    f.write(f"{e[9:]}_{p} " + " ".join(
                        str(med(data, e, c, ("files", p, "density")) or "NaN") for c in cfgs) + "\n")
        subprocess.run(["gnuplot"], text=True, check=True, input=HISTOGRAMS + f"""
set terminal pngcairo size 1200,550 noenhanced
set xtics rotate by 30 right
set output '{pdir}/density-sweep.png'
set title 'Density, files workload, by max_pages_per_zspage; eager: ondemand=0 (objects_phase)'
set yrange [0.4:1.02]
plot for [i=2:{len(cfgs) + 1}] '{sd}' using i:xtic(1) title columnheader(i), 0.985 with lines dt 2 lc rgb 'black' title 'target 0.985'
""")
        made.append("density-sweep.png")
    return made


def sweep_table(data, exps, cfgs, title, fig):
    """Rows objects x workload x phase, one column per configuration; none
    if no run measured fig."""
    keys = {k for e in exps for c in cfgs for k in data.get((e, c), {}) if k[2] == fig}
    if not keys:
        return []
    wls = sorted({k[0] for k in keys}, key=lambda w: (w != "files", w))
    L = title + header("objects", "workload", "phase", *cfgs)
    for e in exps:
        for w in wls:
            for p in META_PHASES:
                L.append(row(e[9:], w, p, *(medfmt(data, e, c, (w, p, fig)) for c in cfgs)))
    return L + [""]


# The (pool pages + metadata) per stored byte figures the density targets
# judge: metadata's objects in use, and the memory it holds.
TOTALS = (("total_per_byte", "metadata in use"), ("held_per_byte", "metadata's memory held"))

# max_pages_per_zspage's default in src/zspage.c: the configuration users get.
DEFAULT_MPP = 16


def density_targets(data):
    """The density targets, on the largest pool of the density sweep."""
    exps, _ = density_cfgs(data)
    if not exps:
        return []
    e, c = exps[-1], f"ours-mpp{DEFAULT_MPP}"
    L = []
    for w, goal in (("files", 0.990), ("anon", 0.980)):
        fill = med(data, e, c, (w, "fill", "density"))
        comp = med(data, e, c, (w, "compact", "density"))
        if fill is None:
            continue
        L.append(row(f"{c}, {e[9:]} objects, {w}: density after fill >= {goal:.3f}",
                     fmt(fill, "density"), verdict(fill >= goal)))
        L.append(row(f"{c}, {e[9:]} objects, {w}: after free-half + compaction within 0.002 of fill",
                     fmt(comp, "density"), verdict(comp >= fill - 0.002 if comp is not None else None)))
        L += totals_rows(data, e, w, c, ("stock",), f"{c}, {e[9:]} objects", "stock's")
    return L


def totals_rows(data, e, w, ours, peers, what_ours, whose):
    """Rows: (pages + metadata) per stored byte of config ours on workload
    w, after fill and after compaction, below that of each of peers."""
    L = []
    for p in ("fill", "compact"):
        for fig, what in TOTALS:
            t = {c: med(data, e, c, (w, p, fig)) for c in (ours,) + peers}
            if t[ours] is None:
                continue
            ok = None if None in t.values() else all(t[ours] < t[c] for c in peers)
            L.append(row(f"{what_ours}, {w}, {p}: (pages + {what}) per stored byte below {whose}",
                         ", ".join(f"{c} {fmt(v, fig)}" for c, v in t.items()), verdict(ok)))
    return L


def bounded(r, bound, goal, higher=False):
    """The verdict on ratio r against a bound, and whether it also reached
    the goal beyond it."""
    if r is None:
        return verdict(None)
    ok = (lambda lim: r >= lim) if higher else (lambda lim: r <= lim)
    return verdict(ok(bound)) + f" (goal {goal}x: {'met' if ok(goal) else 'not met'})"


# The per-call bounds of the speed targets (issue 33), ours/stock, and the
# goal beyond them: a read is zs_obj_read_begin() + end (map_ro_ns).
CALL_BOUNDS = {"malloc_ns": 0.85, "free_ns": 0.85, "map_ro_ns": 0.85, "map_wo_ns": 0.7}
CALL_GOAL = 0.7


def instruction_targets(data):
    """The speed targets: per call, ours within CALL_BOUNDS of stock's
    instructions (goal CALL_GOAL), compaction per freed page <= 0.9x stock's,
    two threads >= 1.1x stock's ops/s (goal 1.3x)."""
    L = []
    for w in ("files", "anon"):
        for fig, ph in TIMED:
            r = ratio(med(data, "timing", "ours", (w, ph, fig)), med(data, "timing", "stock", (w, ph, fig)))
            if r:
                bound = CALL_BOUNDS[fig]
                L.append(row(f"{fig} ({w}, {ph}) <= {bound}x stock", f"{r:.3f}x", bounded(r, bound, CALL_GOAL)))
        key = (w, "compact", "compact_ns_per_page")
        r = ratio(med(data, "timing", "ours", key), med(data, "timing", "stock", key))
        if r:
            L.append(row(f"compact_ns_per_page ({w}) <= 0.9x stock", f"{r:.3f}x", verdict(r <= 0.9)))
    key = ("files", "mixed_t2", "ops_per_s")
    r = ratio(med(data, "smp2", "ours", key), med(data, "smp2", "stock", key))
    L.append(row("two threads ops/s >= 1.1x stock", f"{r:.3f}x" if r else "-", bounded(r, 1.1, 1.3, True)))
    return L


def timing_vs_eager_targets(data):
    """The on-demand target: on-demand backing costs at most 5% over eager."""
    L = []
    for fig, ph in TIMED:
        r = ratio(med(data, "timing", "ours", ("files", ph, fig)),
                  med(data, "timing", "ours-eager", ("files", ph, fig)))
        if r:
            L.append(row(f"{fig} (files, {ph}) <= 1.05x ours-eager", f"{r:.3f}x", verdict(r <= 1.05)))
    return L


def zswap_targets(data):
    """The zswap targets: pool bytes per stored page below stock zsmalloc's, far below zbud's and z3fold's."""
    key = ("zswap", "peak", "bytes_per_page")
    ours = med(data, "zswap", "zsmalloc-ours", key)
    if ours is None:
        return []
    L = []
    for other in ("zsmalloc-stock", "zbud", "z3fold"):
        r = ratio(ours, med(data, "zswap", other, key))
        if r:
            L.append(row(f"zswap pool bytes per stored page below {other}'s", f"{r:.3f}x", verdict(r < 1)))
    return L


def density_sections(data):
    """Density sweep: density, metadata per object, total bytes per stored byte."""
    exps, cfgs = density_cfgs(data)
    if not exps:
        return []
    L = ["## Density by max_pages_per_zspage, on demand and eager (one boot each)", "",
         "`ours-mppM`: ours with max_pages_per_zspage=M and the default `ondemand=1`",
         "(pages attached as objects land on them); `ours-mppM-eager`: `ondemand=0`",
         "(all pages of a zspage attached when it is created).  Density = requested",
         "bytes / (pool pages x 4096) after each phase: `fill` (all objects),",
         "`free_half` (a random half freed, before compaction), `compact` (after",
         "zs_compact()), `refill` (the freed half allocated again).", ""]
    L += sweep_table(data, exps, cfgs, [], "density")
    L += ["Stock has no such parameters (its chains are at most 4 pages, allocated at once).", ""]
    meta = sweep_table(data, exps, cfgs, ["### Metadata: bytes per stored object outside the pool pages", ""],
                       "meta_per_object")
    if not meta:
        return L
    L += meta + sweep_table(data, exps, cfgs, ["### Total: (pool pages x 4096 + metadata) / requested bytes", ""],
                            "total_per_byte")
    L += sweep_table(data, exps, cfgs, ["### Held: (pool pages x 4096 + the metadata's memory) / requested bytes",
                                        ""], "held_per_byte")
    L += ["Metadata is read by `bench/guest/zsb-meta.sh`, which zs_bench runs (as a user",
          "helper, untimed) after each phase while its pool stays as it is:",
          "",
          "- ours: the `metadata` total of debugfs `zsmalloc/zs_bench/classes` (zspages x",
          "  descriptor size, plus the pool's handle table: its pages, used or not, and",
          "  its directories); the guest also counts ours' descriptor slab caches",
          "  (`zs_zspage_*`) and the CSV keeps that as `meta_slab_bytes` as a cross-check.",
          "- stock: 6.1 is built without CONFIG_ZSMALLOC_STAT, so there is no debugfs;",
          "  reading mm/zsmalloc.c, what it keeps outside its pages is one 8-byte object of",
          "  its `zs_handle` slab cache per object and one `struct zspage` (56 bytes with",
          "  CONFIG_COMPACTION's rwlock) of its `zspage` cache per zspage.  The guest counts",
          "  the objects in use in those two caches (kernel booted with `slub_nomerge` so",
          "  they are not merged into others; each cache shrunk first so the per-CPU slabs",
          "  are counted exactly) times their object size.  Stock also keeps a copy of",
          "  the handle in an 8-byte header at the start of every object (not in huge",
          "  zspages): that is inside its pool pages, already lowering its density, and",
          "  is not counted again.",
          "- Held: the same, but for the slab caches the pages they hold after the",
          "  shrink (slabs x slab size): the holes that frees leave in a slab page cost",
          "  memory as the unused entries of ours' handle table do.",
          "- Counted for neither: the `struct page` of each pool page (the same 64 bytes",
          "  per page for both), per-pool and per-class structures; slab page rounding in use only.",
          ""]
    return L


def zswap_section(data, whose="Debian's zswap, lzo",
                  how="zswap's zpool set through /sys/module/zswap/parameters after the allocator is loaded"):
    """zswap per zpool or peer: pool bytes per stored page at the peak, counters."""
    known = ZPOOLS + PEERS
    cfgs = present(data, "zswap", known) + sorted(c for e, c in data if e == "zswap" and c not in known)
    if not cfgs:
        return []
    base = baseline(data, "zswap")
    L = [f"## zswap per zpool ({whose}, TCG -smp 1)", "",
         "memhog (tests/guest/memhog.c: partly compressible pages, every byte checked",
         "on two passes) in a cgroup-v2 memory cgroup smaller than itself, with zswap",
         f"in front of a sparse virtio swap disk; {how}.  Counters from",
         "/sys/kernel/debug/zswap, sampled every second; `peak` is the sample with",
         "the most stored_pages.", ""]
    L += header("zpool", "stored pages at peak", "pool bytes at peak", "pool bytes / stored page",
                f"ratio to {base}", "max pool bytes", "written back", "rejects", "hog seconds",
                "verified")
    for c in cfgs:
        key = ("zswap", "peak", "bytes_per_page")
        figs = data.get(("zswap", c), {})
        rejects = sum(statistics.median(v) for k, v in figs.items() if k[2].startswith("reject_"))
        bad = figs.get(("zswap", "hog", "mismatched_pages"))
        verified = "-" if bad is None else "yes" if not any(bad) else "**no**"
        L.append(row(c, medfmt(data, "zswap", c, ("zswap", "peak", "stored_pages")),
                     medfmt(data, "zswap", c, ("zswap", "peak", "pool_total_size")),
                     cell(data, "zswap", c, key), ratio_cell(data, "zswap", c, base, key),
                     medfmt(data, "zswap", c, ("zswap", "max", "pool_total_size")),
                     medfmt(data, "zswap", c, ("zswap", "counters", "written_back_pages")),
                     fmt(rejects, "reject_"), cell(data, "zswap", c, ("zswap", "hog", "seconds")),
                     verified))
    L += ["", "pool bytes = zswap's pool_total_size, what the zpool reports: its pages x 4096",
          "for all four (slab metadata such as zsmalloc's handles is not in it).  A stored",
          "page is a 4 KiB page held by zswap, so 4096 bytes per stored page would be no",
          "gain.  rejects = sum of reject_reclaim_fail, reject_alloc_fail,",
          "reject_kmemcache_fail and reject_compress_poor (each in the CSV).  Hog seconds",
          "are guest wall clock under plain TCG on a shared host: noisy.  verified: memhog",
          "read every byte back as written, in every round.", ""]
    return L


LAT_KEYS = [("compact", "latency", f) for f in ("median_ns", "p99_ns", "worst_ns")]


def latency_targets(data):
    """The latency targets: our 99th percentile and worst malloc+write while
    compacting (medians over rounds) no higher than stock's."""
    L = []
    for key in LAT_KEYS[1:]:
        o, s = med(data, "latency", "ours", key), med(data, "latency", "stock", key)
        if o is None or s is None:
            continue
        L.append(row(f"{key[2][:-3]} malloc+write while compacting (median over rounds) <= stock's",
                     f"ours {o / 1000:.0f} us, stock {s / 1000:.0f} us", verdict(o <= s)))
    return L


def latency_section(data, cfgs=("stock", "ours")):
    cfgs = present(data, "latency", cfgs)
    if "stock" not in cfgs or "ours" not in cfgs:
        return []
    L = ["## Allocation latency while compacting (test_zsmalloc compact_latency, TCG -smp 2)", "",
         "One boot per round and allocator: a kthread compacts a pool of 65536 objects of",
         "100 bytes with three in four freed (emptied, refilled and compacted again until there are",
         "1000 samples, at most 32 times), while the test times zs_malloc() and a write of",
         "one object of that class (6.1: zs_map_object(WO) + memset + zs_unmap_object();",
         "7.x: zs_obj_write()), then frees it, untimed; median, 99th percentile and worst of",
         "those samples, in ns.  Wall clock on a shared host: the worst case also measures",
         "the host.", ""]
    L += header("figure", *cfgs, "ours/stock", *(f"{c} per round" for c in cfgs))
    for key in LAT_KEYS:
        per = [", ".join(f"{v:.0f}" for v in data.get(("latency", c), {}).get(key, []))
               for c in cfgs]
        L.append(row(key[2], *(cell(data, "latency", c, key) for c in cfgs),
                     ratio_cell(data, "latency", "ours", "stock", key), *per))
    L.append("")
    return L


def timing_tables(data, cfgs, pairs):
    """zs_bench's phases, one table per workload: each figure of cfgs and
    the ratios of pairs."""
    cols = [*cfgs, *(f"{a}/{b}" for a, b in pairs)]
    wls = sorted({k[0] for (e, c), d in data.items() if e == "timing" for k in d} - {"_"},
                 key=lambda w: WORKLOADS.index(w) if w in WORKLOADS else len(WORKLOADS))
    L = []
    for w in wls:
        L += [f"## zs_bench, workload `{w}` (single thread, -icount)", ""] + header("phase", "figure", *cols)
        for p in PHASES:
            for fig in ["density", "pages"] + LAT + ["compacted"]:
                key = (w, p, fig)
                if all(med(data, "timing", c, key) is None for c in cfgs):
                    continue
                if fig in ("density", "pages") and p not in META_PHASES:
                    continue
                L.append(compare_row(data, "timing", key, [p, fig], cfgs, pairs))
        key = (w, "mixed_t1", "ops_per_s")
        if any(med(data, "timing", c, key) for c in cfgs):
            L.append(compare_row(data, "timing", key, ["mixed, 1 thread", "ops_per_s"], cfgs, pairs))
        L.append("")
    return L


def smp2_table(data, cfgs, pairs):
    L = ["## Mixed operations, one pool, TCG -smp 2 (wall clock)", ""]
    L += header("threads", *(f"{c} ops/s" for c in cfgs), *(f"{a}/{b}" for a, b in pairs))
    for t in (1, 2):
        L.append(compare_row(data, "smp2", ("files", f"mixed_t{t}", "ops_per_s"), [str(t)], cfgs, pairs))
    return L + ["", "Each operation picks a random slot: an empty one is allocated and written",
                "(WO), a full one is read back and verified (RO), then freed half of the time.", ""]


def zram_table(data, cfgs, pairs, what):
    L = [f"## zram end to end ({what})", "",
         "A 64 MiB image of the `files` corpus written to /dev/zram0 and read back",
         "(O_DIRECT, 1 MiB blocks; md5 of the read-back must equal the image's).", ""]
    L += header("figure", *cfgs, *(f"{a}/{b}" for a, b in pairs))
    for ph, fig in [("stored", "compr_data_size"), ("stored", "mem_used_total"), ("stored", "overhead"),
                    ("compacted", "mem_used_total"), ("compacted", "overhead"),
                    ("halved", "compr_data_size"), ("halved", "mem_used_total"), ("halved", "density"),
                    ("write", "write_mb_per_s"), ("read", "read_mb_per_s")]:
        if any(med(data, "zram", c, ("zram", ph, fig)) is not None for c in cfgs):
            L.append(compare_row(data, "zram", ("zram", ph, fig), [f"{ph} {fig}"], cfgs, pairs))
    return L + ["", "overhead = mem_used_total / compr_data_size - 1, density = compr_data_size /",
                "mem_used_total (from /sys/block/zram0/mm_stat); `compacted` is after `echo 1 >",
                "/sys/block/zram0/compact`; `halved` after zeroing every other page of the image",
                "(zram frees their objects: half the pool, spread over every class) and",
                "compacting again.", ""]


def zramswap_table(data, cfgs, pairs):
    if not present(data, "zramswap", cfgs):
        return []
    L = ["## zram as swap under a memory cgroup (lzo-rle, TCG -smp 1)", "",
         "zram0 is the only swap; memhog (two checking passes over partly compressible",
         "pages) runs in a cgroup-v2 memory cgroup smaller than itself.  mm_stat is",
         "sampled every second: `peak` is the sample that stored the most data.", ""]
    L += header("figure", *cfgs, *(f"{a}/{b}" for a, b in pairs))
    for ph, fig in [("peak", "orig"), ("peak", "compr"), ("peak", "mem_used"), ("peak", "bytes_per_page"),
                    ("peak", "mem_used_max"), ("vmstat", "pswpout"), ("vmstat", "pswpin"),
                    ("hog", "seconds"), ("hog", "mismatched_pages")]:
        L.append(compare_row(data, "zramswap", ("zramswap", ph, fig), [f"{ph} {fig}"], cfgs, pairs))
    return L + ["", "orig, compr, mem_used: mm_stat's orig_data_size, compr_data_size and",
                "mem_used_total in bytes; bytes_per_page = mem_used / (orig / 4096), the memory",
                "a swapped-out page costs; seconds: guest wall clock of memhog (plain TCG on a",
                "shared host: noisy).", ""]


def failures(fails):
    L = ["## Failures", ""]
    if fails:
        return L + [f"- `{n}`: " + "; ".join(b) for n, b in sorted(fails.items())] + [""]
    return L + ["None: every guest run passed (KTAP all ok, data verified, zram read-back identical,",
                "memhog through zram swap and zswap verified).", ""]


def markdown(out, data, fails, made, pdir, md_path):
    L = []
    host = open(os.path.join(out, "host")).read().strip() if os.path.exists(os.path.join(out, "host")) else "?"
    ours = open(os.path.join(out, "ours-version")).read().strip() if os.path.exists(os.path.join(out, "ours-version")) else "?"
    rounds = len(data.get(("timing", "ours"), {}).get(("files", "fill", "density"), []))
    L += ["# Benchmarks: our zsmalloc.ko against Debian's", "",
          f"Generated by `bench/report.py` on {datetime.date.today()} from `{out}/logs`.",
          "Numbers below are medians over rounds (guest boots); each round's figure is",
          "zs_bench's median over its loops.  ± is half the min..max spread over rounds.",
          "Ratios are of medians, as their column says (ours/stock: ours / stock).", "",
          "## Setup", "",
          f"- Host: `{host.splitlines()[0]}`"]
    for h in host.splitlines()[1:]:
        L.append(f"- {h.strip()}")
    L += [f"- Guest kernel: Debian's linux-image 6.1.0-57-amd64 (QEMU TCG, 2 GiB RAM, `-cpu max`)",
          f"- Stock: that kernel's `mm/zsmalloc.ko`; ours: `src/` at {ours}",
          f"- Rounds per allocator: {rounds} (alternating stock, ours, ours-eager = ours with",
          "  `ondemand=0`, all pages of a zspage attached at once), seed 1",
          "- Single-thread timings: `-icount shift=0,sleep=off -smp 1`: guest time counts",
          "  instructions (1 ns each), so they are deterministic and measure instructions",
          "  executed, not cache or TLB effects of real hardware.",
          "- Two-thread run: plain multi-threaded TCG `-smp 2` on a shared 2-core host:",
          "  wall-clock, noisy.", "",
          "Run it: `make bench` (with the top Makefile including `bench/bench.mk`) or",
          "`bench/run-bench.sh all`; `K=`, `NR=`, `BIG=`, `LOOPS=`, `MIXED_OPS=`, `MPPS=`, `ZSWAP_K=`,",
          "`ZSWAP_MIB=`, `ZSWAP_CG_MIB=`, `BENCH_OUT=` override the defaults (3, 20000, 200000, 3,",
          "50000, \"4 8 16\", K, 192, 128).", ""]

    # Targets.
    d_fill = med(data, "timing", "ours", ("files", "fill", "density"))
    d_comp = med(data, "timing", "ours", ("files", "compact", "density"))
    zo, zs = (med(data, "zram", c, ("zram", "stored", "overhead")) for c in ("ours", "stock"))
    L += ["## Targets", ""] + header("target", "measured", "verdict")
    nr = med(data, "timing", "ours", ("_", "_", "nr_objects"))
    L.append(row(f"density after fill (files, {nr and int(nr)} objects) >= 0.985", fmt(d_fill, "density"),
                 verdict(d_fill >= 0.985 if d_fill is not None else None)))
    L.append(row("density after free-half + zs_compact >= 0.985", fmt(d_comp, "density"),
                 verdict(d_comp >= 0.985 if d_comp is not None else None)))
    L.append(row("zram mem_used_total/compr_data_size - 1 <= half of stock's",
                 f"ours {fmt(zo, 'overhead')}, stock {fmt(zs, 'overhead')}",
                 verdict(zo <= zs / 2 if zo is not None and zs is not None else None)))
    L += instruction_targets(data)
    L += density_targets(data) + timing_vs_eager_targets(data) + zswap_targets(data)
    L += latency_targets(data)
    L.append("")

    cfgs = present(data, "timing", ["stock", "ours", "ours-eager"])
    pairs = [("ours", "stock")] + ([("ours", "ours-eager")] if "ours-eager" in cfgs else [])
    L += timing_tables(data, cfgs, pairs)
    L += ["Latencies are ns per call from batches of 256 calls: `malloc_ns` zs_malloc,",
          "`free_ns` zs_free, `map_wo_ns` zs_map_object(WO) + memcpy of the object +",
          "zs_unmap_object, `map_ro_ns` zs_map_object(RO) + zs_unmap_object (data untouched;",
          "every object is then compared untimed), `compact_ns_per_page` zs_compact() time",
          "per page it freed.  ours-eager is ours loaded with `ondemand=0`.", ""]
    L += smp2_table(data, ["stock", "ours"], [("ours", "stock")])
    L += zram_table(data, ["stock", "ours"], [("ours", "stock")], "Debian's zram.ko, lzo-rle, -icount")
    L += ["compr_data_size itself differs between the allocators: zram stores a page",
          "whole when it compresses to >= zs_huge_class_size() bytes, and that threshold",
          "is the allocator's (it grows with the chain length: stock's chains are at",
          "most 4 pages, ours up to max_pages_per_zspage), so with ours fewer pages are",
          "stored whole.  Compare mem_used_total for the memory actually used for the",
          "same data.", ""]
    L += zramswap_table(data, ["stock", "ours"], [("ours", "stock")])

    L += density_sections(data)
    L += zswap_section(data)
    L += latency_section(data)
    L += profile_section(out)

    if made:
        L += ["## Plots", ""] + [f"![{m}]({os.path.relpath(os.path.join(pdir, m), os.path.dirname(md_path))})" for m in made] + [""]

    L += failures(fails)
    return "\n".join(L)


def series_targets(data):
    """The targets for a kernel series: ours against its stock
    zsmalloc and stock with chains of 16 pages, same kernel and config."""
    L = []
    exps, _ = density_cfgs(data)
    e = exps[-1] if exps else None
    for w, gain in (("files", 0.010), ("anon", 0.015)) if e else ():
        st, c16, o = (med(data, e, c, (w, "fill", "density")) for c in PEERS)
        if o is None:
            continue
        ok = o >= st + gain and o > c16 if st is not None and c16 is not None else None
        L.append(row(f"{e[9:]} objects, {w}: density after fill >= stock + {gain:.3f}, above chain16",
                     f"ours {fmt(o, 'density')}, stock {fmt(st, 'density')}, chain16 {fmt(c16, 'density')}",
                     verdict(ok)))
        comp = med(data, e, "ours", (w, "compact", "density"))
        L.append(row(f"{e[9:]} objects, {w}: after free-half + zs_compact within 0.002 of fill",
                     fmt(comp, "density"), verdict(comp >= o - 0.002 if comp is not None else None)))
        L += totals_rows(data, e, w, "ours", ("stock", "chain16"), f"{e[9:]} objects", "both stocks'")
    r = ratio(med(data, "zram", "ours", ("zram", "stored", "mem_used_total")),
              med(data, "zram", "stock", ("zram", "stored", "mem_used_total")))
    L.append(row("zram mem_used_total for the 64 MiB image <= 0.97x stock's", f"{r:.3f}x" if r else "-",
                 verdict(r <= 0.97 if r else None)))
    h = med(data, "zram", "ours", ("zram", "halved", "density"))
    L.append(row("zram, half the pages zeroed, compacted: density >= 0.975", fmt(h, "density"),
                 verdict(h >= 0.975 if h is not None else None)))
    L += instruction_targets(data) + latency_targets(data)
    key = ("zswap", "peak", "bytes_per_page")
    r = ratio(med(data, "zswap", "ours", key), med(data, "zswap", "stock", key))
    L.append(row("zswap pool bytes per stored page below stock's", f"{r:.3f}x" if r else "-",
                 verdict(r < 1 if r else None)))
    return L


def guest_kernel(out, cfg):
    """uname -r of the guest that ran cfg's first timing round."""
    try:
        m = re.search(r"zsb: alloc=.* kernel=(\S+)", open(os.path.join(out, "logs", f"timing-{cfg}-1.log"),
                                                         errors="replace").read())
    except OSError:
        return "?"
    return m.group(1) if m else "?"


def first_line(out, name):
    path = os.path.join(out, name)
    return open(path).read().strip() if os.path.exists(path) else "?"


def series_markdown(series, out, data, fails):
    """The section of a kernel series: its three peers side by side."""
    cfgs = present(data, "timing", PEERS) or PEERS
    pairs = [("ours", "stock"), ("ours", "chain16")]
    host = first_line(out, "host").splitlines()
    L = [f"# Linux {series}: the series against {series}'s own zsmalloc (`make bench KSERIES={series}`)", "",
         f"Generated by `bench/report.py --series {series}` on {datetime.date.today()} from `{out}/logs`;",
         "medians over rounds, ± half the min..max spread, ratios of medians.", "",
         "## Setup", "",
         f"- Host: `{host[0]}`"] + [f"- {h.strip()}" for h in host[1:]]
    L += [f"- Three kernels from Debian's linux-source-{series}, one config (configs/kseries.config,",
          f"  kseries-{series}.config and kseries-bench.config), zsmalloc built in:",
          f"  `stock` ({guest_kernel(out, 'stock')}), the kernel's own zsmalloc, chains of",
          "  CONFIG_ZSMALLOC_CHAIN_SIZE=8 pages (Debian's setting); `chain16`, the same with 16",
          "  (mainline's densest); `ours`, the patch series applied (`src/` at",
          f"  {first_line(out, 'ours-version')}); its longest chain is the kernel's",
          "  CONFIG_ZSMALLOC_CHAIN_SIZE.  The density and zswap steps also boot ours with",
          "  `zsmalloc.max_pages_per_zspage=16` (`ours-mpp16`), chain16's length.",
          "- zs_bench and test_zsmalloc built against each kernel; every peer boots the same",
          "  initramfs contents, the same seed, the same guest settings as the 6.1 section.",
          "- `map_wo_ns` is zs_obj_write() of the object, `map_ro_ns` zs_obj_read_begin() +",
          "  zs_obj_read_end() (local copy for objects that span pages).", "",
          "## Targets", ""] + header("target", "measured", "verdict")
    L += series_targets(data) + [""]
    L += timing_tables(data, cfgs, pairs)
    L += smp2_table(data, cfgs, pairs)
    L += zram_table(data, cfgs, pairs, f"{series}'s zram, lzo-rle, -icount")
    L += zramswap_table(data, cfgs, pairs)
    exps, dcfgs = density_cfgs(data)
    L += ["## Density, metadata and total bytes (one boot each, TCG -smp 1)", ""]
    for title, fig in (("### Density after each phase", "density"),
                       ("### Metadata: bytes per stored object outside the pool pages", "meta_per_object"),
                       ("### Total: (pool pages x 4096 + metadata) / requested bytes", "total_per_byte"),
                       ("### Held: (pool pages x 4096 + the metadata's memory) / requested bytes",
                        "held_per_byte")):
        L += sweep_table(data, exps, dcfgs, [title, ""], fig)
    L += ["Metadata (bench/guest/zsb-meta.sh): ours, its debugfs `classes` total; stock and",
          "chain16, the objects in use of their `zs_handle` and `zspage` slab caches times",
          "their sizes (booted with `slub_nomerge`).  Held counts the memory instead: the",
          "slab pages of those caches (after a shrink) and ours' handle table, whose pages",
          "stay while any entry in them is used, as a slab page with one object left does.", ""]
    L += zswap_section(data, f"{series}'s zswap", "zswap calls the kernel's zsmalloc (no zpool)")
    L += latency_section(data, PEERS)
    L += profile_section(out)
    return "\n".join(L + failures(fails))


def profile_section(out):
    """The profile step's tables (bench/profile.py --phases), if it ran."""
    path = os.path.join(out, "profile.md")
    if not os.path.exists(path):
        return []
    return ["## Instructions by function, per call (-icount, insnprof plugin)", "",
            "One more boot of each peer: zs_bench's phases on `files`, one loop, under",
            "`-icount` with bench/tools/insnprof.c, a TCG plugin that counts each kernel",
            "function's own instructions (not its callees'), split where zs_bench starts",
            "a phase; divided by the calls of the phase's zs_* function.  `[module]`:",
            "zs_bench's own loops.  A copy that gcc inlines as `rep movsq` counts one",
            "instruction per 8 bytes under -icount, a call to memcpy() its loop's.", "",
            open(path).read().rstrip("\n"), ""]


SECTION = re.compile(r"<!-- bench: ([\d.]+) -->\n(.*?)<!-- bench: \1 end -->\n\n", re.S)


def merge_sections(path, series, text, notes):
    """BENCHMARKS.md: one section per kernel series, in version order, then
    the hand-written notes; the sections of other series are kept."""
    sections = dict(SECTION.findall(open(path).read())) if os.path.exists(path) else {}
    sections[series] = text.rstrip("\n") + "\n"
    order = sorted(sections, key=lambda v: tuple(int(x) for x in v.split(".")))
    return "".join(f"<!-- bench: {v} -->\n{sections[v]}<!-- bench: {v} end -->\n\n" for v in order) + notes


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--series", default="6.1",
                    help="the kernel OUT's logs are of: 6.1 (the module) or a patch series")
    ap.add_argument("--csv")
    ap.add_argument("--md")
    ap.add_argument("--plots")
    a = ap.parse_args()
    data, fails = collect(a.out)
    if a.csv:
        write_csv(a.csv, data)
    module = a.series == "6.1"
    made = plots(data, a.plots) if a.plots and module else []
    if a.md:
        notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "BENCHMARKS.notes.md")
        text = (markdown(a.out, data, fails, made, a.plots or ".", a.md) if module
                else series_markdown(a.series, a.out, data, fails))
        text = merge_sections(a.md, a.series, text, open(notes).read() if os.path.exists(notes) else "")
        with open(a.md, "w") as f:
            f.write(text)
    for n, b in sorted(fails.items()):
        print(f"report: {n}: " + "; ".join(b), file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
