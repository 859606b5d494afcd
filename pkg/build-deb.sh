#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build zsmalloc-dkms_<version>_all.deb from debian/ in a copy of the sources
# (the work tree gets no build products), then run lintian on it.
# Usage: build-deb.sh OUTDIR   -> OUTDIR/zsmalloc-dkms_<version>_all.deb
set -eu

out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# Build dependencies, installed only if missing.
scripts/deps.sh --deb

# VERSION is the one place of the version; debian/changelog must name the
# same one (checked, not generated: the changelog is the release's record).
version=$(cat VERSION)
clver=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ "$version" != "$clver" ]; then
	echo "deb: VERSION says $version but debian/changelog says $clver:" >&2
	echo "deb: add a changelog entry for $version (dch -v $version)" >&2
	exit 1
fi

# The copy: what the package is built from, nothing else (no build products).
copy=$out/build/zsmalloc-dkms-$version
rm -rf "$out/build"
mkdir -p "$copy"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files --cached --others --exclude-standard -z -- Kbuild VERSION debian src compat |
		xargs -0 cp --parents -t "$copy"
else
	cp -r Kbuild VERSION debian src compat "$copy"
	find "$copy/src" "$copy/compat" -type f ! -name '*.[ch]' ! -name Kbuild -delete
fi

(cd "$copy" && dpkg-buildpackage -b -us -uc)
deb=zsmalloc-dkms_${version}_all.deb
mv "$out/build/$deb" "$out/build/zsmalloc-dkms_${version}"_*.buildinfo \
	"$out/build/zsmalloc-dkms_${version}"_*.changes "$out/"
rm -rf "$out/build"

# Errors and warnings fail the build; what remains is explained in
# debian/zsmalloc-dkms.lintian-overrides.
echo "deb: lintian $out/$deb"
lintian --fail-on error,warning --info --display-info "$out/$deb"
echo "deb: $out/$deb"
