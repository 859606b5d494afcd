#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make the benchmark's object-size tables.

A table is a histogram of object sizes, "size<TAB>count" lines after '#'
comments, in bench/workloads/NAME.tsv.  zs_bench.ko draws sizes from it
(generated header bench/workloads.h).

  files     zram's view of real files of this Debian system: each 4 KiB page
            of the corpus in files.list compressed with the kernel's own
            lzo-rle (tool lzo-sizes, built from lib/lzo/ of linux-source),
            pages of one repeated word skipped, pages that compress to more
            than 3/4 of a page counted as 4096 (stored whole)
  small     synthetic: every size 32..1024 once (uniform)
  halfpage  synthetic: every size 2049..2500 once (uniform), just above
            PAGE_SIZE/2, where one object per page wastes the most
  anon      anonymous memory of python3, perl and gcc's cc1 stopped mid-run
            (read from /proc/PID/mem), compressed the same way; only the
            sizes are kept

Usage:
  gen-workload.py list   [--out bench/workloads/files.list]   choose the corpus
  gen-workload.py files  --lzo TOOL                              files.tsv
  gen-workload.py synth                                          small, halfpage
  gen-workload.py anon   --lzo TOOL                              anon.tsv
  gen-workload.py header [--out bench/workloads.h]               the C tables
  gen-workload.py image  --out FILE [--mib 64]    zram test image from the corpus
"""
import argparse
import collections
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WL = os.path.join(HERE, "workloads")
PAGE = 4096
MIB = 1 << 20

# Corpus: (group, roots, budget).  Per group, candidate files are taken in
# the order of sha1(path) (a fixed pseudo-random order that does not favour
# any part of the alphabet) until the budget is reached; files over MAX_FILE
# are skipped so that no single file dominates.
GROUPS = [
    ("bin", ["/usr/bin"], 24 * MIB),
    ("lib", ["/usr/lib/x86_64-linux-gnu"], 24 * MIB),
    ("text", ["/usr/share/perl", "/usr/share/doc"], 16 * MIB),
]
MAX_FILE = 4 * MIB

SYNTH = {
    "small": (32, 1024, "uniform sizes 32..1024 (small objects)"),
    "halfpage": (2049, 2500, "uniform sizes 2049..2500 (just above PAGE_SIZE/2)"),
}

ORDER = ["files", "small", "halfpage", "anon"]


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def is_text(path):
    with open(path, "rb") as f:
        head = f.read(4096)
    if head[:2] in (b"\x1f\x8b", b"BZ", b"\xfd7") or b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        # A cut multi-byte sequence at the end is fine.
        try:
            head[:-4].decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True


def candidates(group, roots):
    out = []
    for root in roots:
        if group == "text":
            walk = ((d, fs) for d, _, fs in os.walk(root))
        else:
            walk = [(root, os.listdir(root))]
        for d, names in walk:
            for n in names:
                p = os.path.join(d, n)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                if group == "lib" and ".so" not in n:
                    continue
                size = os.path.getsize(p)
                if size == 0 or size > MAX_FILE:
                    continue
                ok = is_text(p) if group == "text" else is_elf(p)
                if ok:
                    out.append((p, size))
    return out


def cmd_list(args):
    rows = []
    for group, roots, budget in GROUPS:
        cand = candidates(group, roots)
        cand.sort(key=lambda ps: hashlib.sha1(ps[0].encode()).hexdigest())
        total = 0
        for p, size in cand:
            if total + size > budget:
                continue
            rows.append((group, size, p))
            total += size
        print(f"list: {group}: {total / MIB:.1f} MiB", file=sys.stderr)
    rows.sort(key=lambda r: r[2])
    with open(args.out, "w") as f:
        f.write("# Corpus for the 'files' workload and the zram image: group, bytes, path.\n")
        f.write("# Made by bench/gen-workload.py list on Debian "
                f"{open('/etc/debian_version').read().strip()}; committed so that\n")
        f.write("# later runs read the same files (sizes are checked).\n")
        for g, s, p in rows:
            f.write(f"{g}\t{s}\t{p}\n")


def read_list(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        g, s, p = line.rstrip("\n").split("\t")
        rows.append((g, int(s), p))
    return rows


def corpus_paths(args):
    paths, drift = [], 0
    for _, size, p in read_list(args.list):
        if not os.path.isfile(p):
            print(f"warning: corpus file missing: {p}", file=sys.stderr)
            drift += 1
            continue
        if os.path.getsize(p) != size:
            print(f"warning: corpus file changed size: {p}", file=sys.stderr)
            drift += 1
        paths.append(p)
    return paths, drift


def lzo_sizes(tool, inputs, stdin=None):
    """Run lzo-sizes; return (Counter of sizes, its stats line)."""
    r = subprocess.run([tool] + inputs, stdin=stdin, capture_output=True,
                       check=True, text=True)
    sizes = collections.Counter(int(x) for x in r.stdout.split())
    return sizes, r.stderr.strip().splitlines()[-1]


def write_tsv(name, hist, comments):
    with open(os.path.join(WL, name + ".tsv"), "w") as f:
        for c in comments:
            f.write(f"# {c}\n")
        n = sum(hist.values())
        mean = sum(s * c for s, c in hist.items()) / n
        f.write(f"# objects={n} mean={mean:.1f}\n")
        for s in sorted(hist):
            f.write(f"{s}\t{hist[s]}\n")
    print(f"{name}.tsv: {len(hist)} sizes, {n} objects, mean {mean:.1f}",
          file=sys.stderr)


def cmd_files(args):
    paths, drift = corpus_paths(args)
    hist, stats = lzo_sizes(args.lzo, paths)
    write_tsv("files", hist, [
        "zram object sizes of the corpus in files.list (bin, lib, text)",
        "lzo-rle from the kernel's lib/lzo/lzo1x_compress.c, 4 KiB pages,",
        "same-filled pages skipped, > 3072 bytes stored whole as 4096",
        stats + (f" drifted_files={drift}" if drift else ""),
    ])


def cmd_synth(args):
    for name, (lo, hi, what) in SYNTH.items():
        write_tsv(name, collections.Counter(range(lo, hi + 1)), [what])


# Programs run for the anonymous-memory table: each builds up heap state
# typical of its kind and is stopped (SIGSTOP) after it has run a while.
ANON_PROGS = [
    ("python3", ["/usr/bin/python3", "-c",
                 "import json,random,collections\n"
                 "random.seed(1)\n"
                 "d={}\n"
                 "words=open('/usr/share/perl/%s/CPAN.pm' % __import__('os').listdir('/usr/share/perl')[0]).read().split()\n"
                 "for i in range(10**7):\n"
                 "  d[i%400000]=(words[i%len(words)], i*1.5, [i]*3)\n"
                 "  if i%100000==0: s=json.dumps(list(d.items())[:20000])\n"]),
    ("perl", ["/usr/bin/perl", "-e",
              "srand(1); my %h; my @w = split /\\s+/, `cat /usr/share/perl/*/CPAN.pm`;"
              " for my $i (1..10_000_000) { $h{$i % 300000} = [$w[$i % @w], $i * 1.5, \"x$i\"]; }"]),
    ("cc1", None),
]


def anon_pages_of(pid, out):
    """Copy the private anonymous pages of pid (heap, stack, anon maps) to out."""
    n = 0
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            f = line.split()
            lo, hi = (int(x, 16) for x in f[0].split("-"))
            perms, name = f[1], (f[5] if len(f) > 5 else "")
            if "w" not in perms or "p" not in perms:
                continue
            if name and name not in ("[heap]", "[stack]"):
                continue
            for a in range(lo, hi, PAGE):
                try:
                    mem.seek(a)
                    page = mem.read(PAGE)
                except OSError:
                    continue
                if len(page) == PAGE:
                    out.write(page)
                    n += 1
    return n


def find_child(pid, comm):
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            st = open(f"/proc/{p}/stat").read()
        except OSError:
            continue
        if f"({comm})" in st and int(st.rsplit(")", 1)[1].split()[1]) == pid:
            return int(p)
    return None


def cmd_anon(args):
    hist = collections.Counter()
    stats = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "big.c")
        # A translation unit that keeps cc1 busy for a few seconds at -O2.
        with open(src, "w") as f:
            f.write("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
            for i in range(3000):
                f.write(f"int f{i}(int *a, int n) {{ int s = {i}; for (int j = 0; j < n; j++) "
                        f"s += a[j] * {i % 7 + 1} ^ (s >> {i % 5 + 1}); return s; }}\n")
        for name, argv in ANON_PROGS:
            if argv is None:
                argv = ["/usr/bin/gcc", "-O2", "-c", src, "-o", os.path.join(tmp, "big.o")]
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(args.seconds)
            pid = proc.pid if name != "cc1" else find_child(proc.pid, "cc1")
            if pid is None or proc.poll() is not None:
                print(f"anon: {name} ended before it was stopped", file=sys.stderr)
                proc.kill()
                proc.wait()
                continue
            os.kill(pid, signal.SIGSTOP)
            dump = os.path.join(tmp, name + ".pages")
            try:
                with open(dump, "wb") as out:
                    n = anon_pages_of(pid, out)
            finally:
                os.kill(pid, signal.SIGKILL)
                proc.kill()
                proc.wait()
            h, st = lzo_sizes(args.lzo, [dump])
            hist.update(h)
            stats.append(f"{name}: {n} pages, {st}")
            os.unlink(dump)
    write_tsv("anon", hist, [
        "zram object sizes of anonymous memory (heap, stack, anon mappings) of",
        f"python3, perl and gcc's cc1 stopped after {args.seconds}s, lzo-rle as files.tsv;",
        "not bit-reproducible (ASLR, timing): regenerate only on purpose",
    ] + stats)


def read_tsv(name):
    rows = []
    for line in open(os.path.join(WL, name + ".tsv")):
        if line.startswith("#") or not line.strip():
            continue
        s, c = line.split()
        rows.append((int(s), int(c)))
    return rows


def cmd_header(args):
    names = [n for n in ORDER if os.path.exists(os.path.join(WL, n + ".tsv"))]
    with open(args.out, "w") as f:
        f.write("/* SPDX-License-Identifier: GPL-2.0 */\n")
        f.write("/* Generated by bench/gen-workload.py header from bench/workloads/NAME.tsv. */\n")
        f.write("#ifndef ZS_BENCH_WORKLOADS_H\n#define ZS_BENCH_WORKLOADS_H\n\n")
        f.write("struct zsb_bucket {\n\tunsigned short size;\n\tunsigned int count;\n};\n\n")
        for n in names:
            rows = read_tsv(n)
            f.write(f"static const struct zsb_bucket zsb_{n}[] = {{\n")
            for i in range(0, len(rows), 6):
                f.write("\t" + " ".join(f"{{{s}, {c}}}," for s, c in rows[i:i + 6]) + "\n")
            f.write("};\n\n")
        f.write("static const struct zsb_workload {\n\tconst char *name;\n"
                "\tconst struct zsb_bucket *b;\n\tunsigned int nr;\n} zsb_workloads[] = {\n")
        for n in names:
            f.write(f"\t{{ \"{n}\", zsb_{n}, ARRAY_SIZE(zsb_{n}) }},\n")
        f.write("};\n\n#endif\n")


def cmd_image(args):
    """Corpus files, each padded to whole pages, cut or padded to --mib."""
    want = args.mib * MIB
    paths, _ = corpus_paths(args)
    done = 0
    with open(args.out, "wb") as out:
        for p in paths:
            data = open(p, "rb").read()
            data += b"\0" * (-len(data) % PAGE)
            data = data[:want - done]
            out.write(data)
            done += len(data)
            if done == want:
                break
        out.write(b"\0" * (want - done))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["list", "files", "synth", "anon", "header", "image"])
    ap.add_argument("--lzo", help="the lzo-sizes tool")
    ap.add_argument("--list", default=os.path.join(WL, "files.list"))
    ap.add_argument("--out")
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    if args.cmd == "list" and not args.out:
        args.out = args.list
    if args.cmd == "header" and not args.out:
        args.out = os.path.join(HERE, "workloads.h")
    if args.cmd in ("files", "anon") and not args.lzo:
        ap.error("--lzo TOOL is needed")
    if args.cmd == "image" and not args.out:
        ap.error("--out FILE is needed")
    globals()["cmd_" + args.cmd](args)


if __name__ == "__main__":
    main()
