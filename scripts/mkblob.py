#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build a reproducible blob of real, mixed data from the Debian system.

Files from a few trees (programs, libraries, text) are read in sorted order,
round-robin between the trees so code and text alternate, and concatenated.
The stream is cut into 4 KiB pages and every page that is filled with one
repeated machine word is dropped: zram keeps such pages without calling the
allocator, and the blob is meant to exercise the allocator.  Writes OUTPUT
(exactly SIZE MiB) and OUTPUT.sha256.

Usage: mkblob.py OUTPUT [SIZE_MIB [TREE...]]
"""
import hashlib
import os
import sys

PAGE = 4096
WORD = 8
TREES = ["/usr/bin", "/usr/lib/x86_64-linux-gnu", "/usr/share"]


def files(tree):
    """Regular files under tree, sorted, symlinks not followed."""
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.isfile(path) and not os.path.islink(path):
                out.append(path)
    return out


def round_robin(lists):
    iters = [iter(lst) for lst in lists]
    while iters:
        for it in list(iters):
            item = next(it, None)
            if item is None:
                iters.remove(it)
            else:
                yield item


def same_filled(page):
    return page == page[:WORD] * (PAGE // WORD)


def main():
    output = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    trees = sys.argv[3:] or TREES
    want = size * 1024 * 1024 // PAGE
    pages = 0
    pending = b""
    digest = hashlib.sha256()
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    tmp = "%s.%d.tmp" % (output, os.getpid())
    with open(tmp, "wb") as out:
        for path in round_robin([files(t) for t in trees]):
            try:
                with open(path, "rb") as f:
                    pending += f.read()
            except OSError:
                continue
            off = 0
            while len(pending) - off >= PAGE and pages < want:
                page = pending[off:off + PAGE]
                off += PAGE
                if same_filled(page):
                    continue
                out.write(page)
                digest.update(page)
                pages += 1
            pending = pending[off:]
            if pages == want:
                break
    if pages < want:
        os.unlink(tmp)
        sys.exit("mkblob: only %d of %d pages found in %s" % (pages, want, trees))
    with open(tmp + ".sha256", "w") as f:
        f.write(digest.hexdigest() + "\n")
    os.replace(tmp + ".sha256", output + ".sha256")
    os.replace(tmp, output)


if __name__ == "__main__":
    main()
