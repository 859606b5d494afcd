#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the guest logs of bench/run-bench.sh.

  report.py OUT [--csv FILE] [--md FILE] [--plots DIR]

Reads OUT/logs/*.log (one guest boot each: timing-ALLOC-I, smp2-ALLOC-I,
density-stock-nN, density-ours-mppM-nN, zram-ALLOC-I).  For every figure:
the median over rounds (each round's figure is already zs_bench's median
over its loops), the spread (min..max over rounds) and the ratio
ours/stock of the medians.  Writes a CSV, BENCHMARKS.md and, when gnuplot
is installed, PNG plots.  Python 3 standard library only.
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
# Figures where a larger value is better.
HIGHER = {"density", "ops_per_s", "write_mb_per_s", "read_mb_per_s"}

KV = re.compile(r"(\w+)=(\S+)")


def parse_log(path):
    """Return (runs, failures) of one guest log: runs is a list of
    (key tuple, value) with key (workload, phase, figure)."""
    figs, fails, result = [], [], None
    text = open(path, errors="replace").read()
    for line in text.splitlines():
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
        m = re.search(r"zsb: zram (mm_stat|compacted mm_stat) (.*)", line)
        if m:
            kv = {k: float(v) for k, v in KV.findall(m.group(2))}
            ph = "stored" if m.group(1) == "mm_stat" else "compacted"
            figs.append((("zram", ph, "compr_data_size"), kv["compr"]))
            figs.append((("zram", ph, "mem_used_total"), kv["mem_used"]))
            figs.append((("zram", ph, "overhead"), kv["mem_used"] / kv["compr"] - 1))
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


def collect(out):
    """data[(experiment, config)][(workload, phase, figure)] = [values]"""
    data = collections.defaultdict(lambda: collections.defaultdict(list))
    fails = {}
    logs = sorted(f for f in os.listdir(os.path.join(out, "logs")) if f.endswith(".log"))
    for f in logs:
        name = f[:-4]
        m = re.match(r"(timing|smp2|zram)-(stock|ours)-\d+$", name)
        d = re.match(r"density-(stock|ours)(?:-mpp(\d+))?-n(\d+)$", name)
        if m:
            exp, cfg = m.group(1), m.group(2)
        elif d:
            exp = f"density-n{d.group(3)}"
            cfg = d.group(1) + (f"-mpp{d.group(2)}" if d.group(2) else "")
        else:
            continue
        figs, bad = parse_log(os.path.join(out, "logs", f))
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
    if fig in ("density", "overhead"):
        return f"{x:.4f}"
    if fig in ("pages", "compacted", "compr_data_size", "mem_used_total"):
        return f"{x:.0f}"
    if fig == "ops_per_s":
        return f"{x:.0f}"
    return f"{x:.1f}"


def spread(vals):
    """Spread over rounds as (max - min) / median, in percent."""
    med = statistics.median(vals)
    return 0.0 if not med else (max(vals) - min(vals)) / med * 100


def write_csv(path, data):
    rows = ["experiment,config,workload,phase,figure,median,min,max,rounds,ratio_ours_stock"]
    for (exp, cfg) in sorted(data):
        for key in sorted(data[(exp, cfg)]):
            med, lo, hi, n = stats(data[(exp, cfg)][key])
            ratio = ""
            stock = data.get((exp, "stock"), {}).get(key)
            if cfg.startswith("ours") and stock and statistics.median(stock):
                ratio = f"{med / statistics.median(stock):.4f}"
            rows.append(",".join([exp, cfg, *key, f"{med:.6g}", f"{lo:.6g}", f"{hi:.6g}",
                                  str(n), ratio]))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def med(data, exp, cfg, key):
    v = data.get((exp, cfg), {}).get(key)
    return statistics.median(v) if v else None


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


def verdict(ok):
    return "**met**" if ok else "**not met**" if ok is not None else "not measured"


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
    script = f"""
set terminal pngcairo size 900,500 noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key outside bottom center horizontal
set output '{pdir}/density.png'
set title 'Density (requested bytes / pool bytes), files workload, median over rounds'
set yrange [0:1.05]
plot '{dat}' using 2:xtic(1) title 'stock', '' using 3 title 'ours', 0.985 with lines dt 2 lc rgb 'black' title 'target 0.985'
set output '{pdir}/latency-ratio.png'
set title 'Latency ours / stock (median; < 1 is faster), -icount guests'
set yrange [0:*]
plot for [i=2:{len(wls) + 1}] '{lat}' using i:xtic(1) title columnheader(i), 0.8 with lines dt 2 lc rgb 'black' title 'target 0.8', 1 with lines lc rgb 'gray' notitle
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    made += ["density.png", "latency-ratio.png"]
    # 3. density sweep over max_pages_per_zspage.
    sweep = sorted({e for e, c in data if e.startswith("density-n")},
                   key=lambda e: int(e[9:]))
    if sweep:
        sd = os.path.join(pdir, "sweep.dat")
        cfgs = sorted({c for e, c in data if e.startswith("density-n")},
                      key=lambda c: (c != "stock", int(c.split("mpp")[1]) if "mpp" in c else 0))
        with open(sd, "w") as f:
            f.write("objects_phase " + " ".join(cfgs) + "\n")
            for e in sweep:
                for p in ("fill", "compact", "refill"):
                    f.write(f"{e[9:]}_{p} " + " ".join(
                        str(med(data, e, c, ("files", p, "density")) or "NaN") for c in cfgs) + "\n")
        subprocess.run(["gnuplot"], text=True, check=True, input=f"""
set terminal pngcairo size 900,500 noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key outside bottom center horizontal
set output '{pdir}/density-sweep.png'
set title 'Density, files workload, by max_pages_per_zspage (objects_phase)'
set yrange [0.5:1.02]
plot for [i=2:{len(cfgs) + 1}] '{sd}' using i:xtic(1) title columnheader(i), 0.985 with lines dt 2 lc rgb 'black' title 'target 0.985'
""")
        made.append("density-sweep.png")
    return made


def markdown(out, data, fails, made, pdir, md_path):
    L = []
    host = open(os.path.join(out, "host")).read().strip() if os.path.exists(os.path.join(out, "host")) else "?"
    ours = open(os.path.join(out, "ours-version")).read().strip() if os.path.exists(os.path.join(out, "ours-version")) else "?"
    rounds = len(data.get(("timing", "ours"), {}).get(("files", "fill", "density"), []))
    L += ["# Benchmarks: our zsmalloc.ko against Debian's", "",
          f"Generated by `bench/report.py` on {datetime.date.today()} from `{out}/logs`.",
          "Numbers below are medians over rounds (guest boots); each round's figure is",
          "zs_bench's median over its loops.  ± is half the min..max spread over rounds.",
          "Ratios are ours / stock.", "",
          "## Setup", "",
          f"- Host: `{host.splitlines()[0]}`"]
    for h in host.splitlines()[1:]:
        L.append(f"- {h.strip()}")
    L += [f"- Guest kernel: Debian's linux-image 6.1.0-57-amd64 (QEMU TCG, 2 GiB RAM, `-cpu max`)",
          f"- Stock: that kernel's `mm/zsmalloc.ko`; ours: `src/` at {ours}",
          f"- Rounds per allocator: {rounds} (alternating stock, ours), seed 1",
          "- Single-thread timings: `-icount shift=0,sleep=off -smp 1`: guest time counts",
          "  instructions (1 ns each), so they are deterministic and measure instructions",
          "  executed, not cache or TLB effects of real hardware.",
          "- Two-thread run: plain multi-threaded TCG `-smp 2` on a shared 2-core host:",
          "  wall-clock, noisy.", "",
          "Run it: `make bench` (with the top Makefile including `bench/bench.mk`) or",
          "`bench/run-bench.sh all`; `K=`, `NR=`, `BIG=`, `LOOPS=`, `MIXED_OPS=`, `MPPS=`, `BENCH_OUT=`",
          "override the defaults (3, 20000, 200000, 3, 50000, \"4 8 16\").", ""]

    # Targets.
    d_fill = med(data, "timing", "ours", ("files", "fill", "density"))
    d_comp = med(data, "timing", "ours", ("files", "compact", "density"))
    zo, zs = (med(data, "zram", c, ("zram", "stored", "overhead")) for c in ("ours", "stock"))
    L += ["## Targets", "", "| target | measured | verdict |", "|---|---|---|"]
    nr = med(data, "timing", "ours", ("_", "_", "nr_objects"))
    L.append(f"| density after fill (files, {nr and int(nr)} objects) >= 0.985 | {fmt(d_fill, 'density')} | "
             f"{verdict(d_fill >= 0.985 if d_fill is not None else None)} |")
    L.append(f"| density after free-half + zs_compact >= 0.985 | {fmt(d_comp, 'density')} | "
             f"{verdict(d_comp >= 0.985 if d_comp is not None else None)} |")
    L.append(f"| zram mem_used_total/compr_data_size - 1 <= half of stock's | ours {fmt(zo, 'overhead')}, "
             f"stock {fmt(zs, 'overhead')} | {verdict(zo <= zs / 2 if zo is not None and zs is not None else None)} |")
    for fig, ph in [("malloc_ns", "fill"), ("free_ns", "free_half"), ("map_wo_ns", "fill"), ("map_ro_ns", "verify")]:
        r = ratio(med(data, "timing", "ours", ("files", ph, fig)), med(data, "timing", "stock", ("files", ph, fig)))
        L.append(f"| {fig} (files, {ph}) <= 0.8x stock | {r and f'{r:.3f}x' or '-'} | "
                 f"{verdict(r <= 0.8 if r else None)} |")
    r2 = ratio(med(data, "smp2", "ours", ("files", "mixed_t2", "ops_per_s")),
               med(data, "smp2", "stock", ("files", "mixed_t2", "ops_per_s")))
    L.append(f"| two threads ops/s >= 1.2x stock | {r2 and f'{r2:.3f}x' or '-'} | "
             f"{verdict(r2 >= 1.2 if r2 else None)} |")
    L.append("")

    # Phase tables per workload.
    wls = sorted({k[0] for (e, c), d in data.items() if e == "timing" for k in d} - {"_"},
                 key=lambda w: ["files", "anon", "small", "halfpage"].index(w) if w in ("files", "anon", "small", "halfpage") else 9)
    for w in wls:
        L += [f"## zs_bench, workload `{w}` (single thread, -icount)", "",
              "| phase | figure | stock | ours | ours/stock |", "|---|---|---|---|---|"]
        for p in PHASES:
            for fig in ["density", "pages"] + LAT + ["compacted"]:
                key = (w, p, fig)
                s, o = med(data, "timing", "stock", key), med(data, "timing", "ours", key)
                if s is None and o is None:
                    continue
                if fig in ("density", "pages") and p not in ("fill", "free_half", "compact", "refill"):
                    continue
                r = ratio(o, s)
                L.append(f"| {p} | {fig} | {cell(data, 'timing', 'stock', key)} | "
                         f"{cell(data, 'timing', 'ours', key)} | {r and f'{r:.3f}' or '-'} |")
        key = (w, "mixed_t1", "ops_per_s")
        s, o = med(data, "timing", "stock", key), med(data, "timing", "ours", key)
        if s or o:
            L.append(f"| mixed, 1 thread | ops_per_s | {cell(data, 'timing', 'stock', key)} | "
                     f"{cell(data, 'timing', 'ours', key)} | {ratio(o, s) and f'{ratio(o, s):.3f}' or '-'} |")
        L.append("")
    L += ["Latencies are ns per call from batches of 256 calls: `malloc_ns` zs_malloc,",
          "`free_ns` zs_free, `map_wo_ns` zs_map_object(WO) + memcpy of the object +",
          "zs_unmap_object, `map_ro_ns` zs_map_object(RO) + zs_unmap_object (data untouched;",
          "every object is then compared untimed), `compact_ns_per_page` zs_compact() time",
          "per page it freed.", ""]

    # Two threads.
    L += ["## Mixed operations, one pool, TCG -smp 2 (wall clock)", "",
          "| threads | stock ops/s | ours ops/s | ours/stock |", "|---|---|---|---|"]
    for t in (1, 2):
        key = ("files", f"mixed_t{t}", "ops_per_s")
        s, o = med(data, "smp2", "stock", key), med(data, "smp2", "ours", key)
        L.append(f"| {t} | {cell(data, 'smp2', 'stock', key)} | {cell(data, 'smp2', 'ours', key)} | "
                 f"{ratio(o, s) and f'{ratio(o, s):.3f}' or '-'} |")
    L += ["", "Each operation picks a random slot: an empty one is allocated and written",
          "(WO), a full one is read back and verified (RO), then freed half of the time.", ""]

    # zram.
    L += ["## zram end to end (Debian's zram.ko, lzo-rle, -icount)", "",
          "A 64 MiB image of the `files` corpus written to /dev/zram0 and read back",
          "(O_DIRECT, 1 MiB blocks; md5 of the read-back must equal the image's).", "",
          "| figure | stock | ours | ours/stock |", "|---|---|---|---|"]
    for ph, fig in [("stored", "compr_data_size"), ("stored", "mem_used_total"), ("stored", "overhead"),
                    ("compacted", "mem_used_total"), ("compacted", "overhead"),
                    ("write", "write_mb_per_s"), ("read", "read_mb_per_s")]:
        key = ("zram", ph, fig)
        s, o = med(data, "zram", "stock", key), med(data, "zram", "ours", key)
        L.append(f"| {ph} {fig} | {cell(data, 'zram', 'stock', key)} | {cell(data, 'zram', 'ours', key)} | "
                 f"{ratio(o, s) and f'{ratio(o, s):.3f}' or '-'} |")
    L += ["", "overhead = mem_used_total / compr_data_size - 1 (from /sys/block/zram0/mm_stat);",
          "`compacted` is after `echo 1 > /sys/block/zram0/compact`.",
          "compr_data_size itself differs between the allocators: zram stores a page",
          "whole when it compresses to >= zs_huge_class_size() bytes, and that threshold",
          "is the allocator's (from the host tool's sizes: stock's is ~3257, ours 3632),",
          "so with ours fewer pages are stored whole.  Compare mem_used_total for the",
          "memory actually used for the same data.", ""]

    # Density sweep.
    sweep = sorted({e for e, c in data if e.startswith("density-n")}, key=lambda e: int(e[9:]))
    if sweep:
        cfgs = sorted({c for e, c in data if e.startswith("density-n")},
                      key=lambda c: (c != "stock", int(c.split("mpp")[1]) if "mpp" in c else 0))
        L += ["## Density by max_pages_per_zspage (workload `files`, one boot each)", "",
              "| objects | phase | " + " | ".join(cfgs) + " |", "|---|---|" + "---|" * len(cfgs)]
        for e in sweep:
            for p in ("fill", "free_half", "compact", "refill"):
                L.append(f"| {e[9:]} | {p} | " + " | ".join(
                    fmt(med(data, e, c, ("files", p, "density")), "density") for c in cfgs) + " |")
        L += ["", "Stock has no such parameter (its chains are at most 4 pages).", ""]

    if made:
        L += ["## Plots", ""] + [f"![{m}]({os.path.relpath(os.path.join(pdir, m), os.path.dirname(md_path))})" for m in made] + [""]

    L += ["## Failures", ""]
    if fails:
        for n, b in sorted(fails.items()):
            L += [f"- `{n}`: " + "; ".join(b)]
    else:
        L.append("None: every guest run passed (KTAP all ok, data verified, zram read-back identical).")
    L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--csv")
    ap.add_argument("--md")
    ap.add_argument("--plots")
    a = ap.parse_args()
    data, fails = collect(a.out)
    if a.csv:
        write_csv(a.csv, data)
    made = plots(data, a.plots) if a.plots else []
    if a.md:
        extra = os.path.join(os.path.dirname(os.path.abspath(__file__)), "BENCHMARKS.notes.md")
        text = markdown(a.out, data, fails, made, a.plots or ".", a.md)
        if os.path.exists(extra):
            text += "\n" + open(extra).read()
        with open(a.md, "w") as f:
            f.write(text)
    for n, b in sorted(fails.items()):
        print(f"report: {n}: " + "; ".join(b), file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
