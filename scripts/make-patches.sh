#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make patches`: src/ as a patch series against a kernel source tree, in
# git format-patch form with a cover letter, into OUTDIR.
#
# The series is made in a scratch git repository holding only the files it
# touches, copied pristine from TREE (no kernel source is committed
# anywhere): one commit per kseries/NN-*.msg, each adding its src/ files
# under mm/zsmalloc/, then the commit that builds them instead of
# mm/zsmalloc.c (src/Kbuild is the directory's Makefile), then
# doc/zsmalloc.rst as Documentation/mm/zsmalloc.rst.  A src/ file the
# kernel does not build (per src/Kbuild) is left out, and so is a patch left
# with no file.  Author and dates are those of the last commit to src/, so
# the same src/ gives the same series.  Finally the series is applied with
# git apply and with patch -p1 to copies of TREE's files.
#
# Usage: make-patches.sh TREE OUTDIR
set -eu

tree=$(cd "$1" && pwd)
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/src
msgs=$top/kseries

version=$(sed -n 's/^VERSION = //p' "$tree/Makefile")
patchlevel=$(sed -n 's/^PATCHLEVEL = //p' "$tree/Makefile")
series=$version.$patchlevel
zpool=$([ -f "$tree/mm/zpool.c" ] && echo y || echo n)
# src/ is written for the newest kernel; compat/SERIES, where there is one,
# holds what an older kernel's callers need, file for file: a file there
# replaces src/'s of that name or comes in beside them, and its Kbuild is
# that kernel's Makefile.
overlay=$top/compat/$series
[ -d "$overlay" ] || overlay=
# source_of FILE: where the series takes FILE from.
source_of() {
	if [ -n "$overlay" ] && [ -f "$overlay/$1" ]; then
		echo "$overlay/$1"
	else
		echo "$src/$1"
	fi
}
makefile=$(source_of Kbuild)

# The objects the Makefile builds for this kernel.
objs=$(printf 'print:\n\t@echo $(zsmalloc-y)\n' |
	make -s --no-print-directory -f "$makefile" -f - \
		CONFIG_ZSMALLOC=y CONFIG_ZPOOL="$zpool" print)
built=" zs_internal.h ${overlay:+compat.h }$(echo "$objs" | sed 's/\.o\b/.c/g') "

ident=$(git -C "$top" log -1 --format='%an <%ae>' -- src compat)
when=$(git -C "$top" log -1 --format=%cI -- src compat)
rev=$(git -C "$top" log -1 --format=%h -- src compat)
export GIT_AUTHOR_NAME="${ident% <*}" GIT_COMMITTER_NAME="${ident% <*}"
ident=${ident##*<}
export GIT_AUTHOR_EMAIL="${ident%>}" GIT_COMMITTER_EMAIL="${ident%>}"
export GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when"

touched="MAINTAINERS mm/Makefile mm/zsmalloc.c Documentation/mm/zsmalloc.rst"
# A new directory $1 holding TREE's copies of the files the series touches.
copy_touched() {
	rm -rf "$1"
	for f in $touched; do
		mkdir -p "$1/$(dirname "$f")"
		cp "$tree/$f" "$1/$f"
	done
}

repo=$out.git
rm -rf "$out"
mkdir -p "$out"
copy_touched "$repo"
cd "$repo"
git init -q -b base
git add -A
git commit -q -m "Debian linux-source-$series, the files the series touches"

# Commits the message kseries/$1 (less its "# files:" line), its @SERIES@
# and @REV@ filled in.
commit() {
	sed -e '/^# files: /d' -e "s/@SERIES@/$series/g" -e "s/@REV@/$rev/g" \
		"$msgs/$1" | git commit -q -s -F -
}

for msg in "$msgs"/[0-9]*.msg; do
	files=$(sed -n 's/^# files: //p' "$msg")
	for f in $files; do
		case $f in MAINTAINERS | Makefile | Documentation) continue ;; esac
		case $built in *" $f "*) ;; *) continue ;; esac
		mkdir -p mm/zsmalloc
		cp "$(source_of "$f")" "mm/zsmalloc/$f"
		git add "mm/zsmalloc/$f"
	done
	case " $files " in *" MAINTAINERS "*)
		# The allocator's entry names the new directory beside the old file.
		sed -i 's|^F:\tmm/zsmalloc\.c$|&\nF:\tmm/zsmalloc/|' MAINTAINERS
		grep -q '^F:.mm/zsmalloc/$' MAINTAINERS
		git add MAINTAINERS ;;
	esac
	case " $files " in *" Makefile "*)
		cp "$makefile" mm/zsmalloc/Makefile
		sed -i 's|^\(obj-$(CONFIG_ZSMALLOC)[[:space:]]*+= \)zsmalloc\.o$|\1zsmalloc/|' \
			mm/Makefile
		grep -q 'zsmalloc/$' mm/Makefile
		sed -i '/^F:\tmm\/zsmalloc\.c$/d' MAINTAINERS
		git rm -q mm/zsmalloc.c
		git add -A ;;
	esac
	case " $files " in *" Documentation "*)
		cp "$top/doc/zsmalloc.rst" Documentation/mm/zsmalloc.rst
		git add Documentation/mm/zsmalloc.rst ;;
	esac
	git diff --cached --quiet || commit "$(basename "$msg")"
done

# The cover letter: the branch description, subject first.
git config branch.base.description \
	"$(sed -e "s/@SERIES@/$series/g" -e "s/@REV@/$rev/g" "$msgs/cover.msg")"
git format-patch -q --cover-letter --cover-from-description=subject \
	--subject-prefix="PATCH $series" -o "$out" \
	"$(git rev-list --max-parents=0 HEAD)..HEAD"

# The series applies, patch after patch, to copies of TREE's files, with
# git apply and with patch -p1, and both give the same files.  git apply
# runs in a repository of its own: in another's work tree (OUT=out/) it
# would take paths from that tree's top.
patches=$(ls "$out"/*.patch | grep -v '/0000-')
copy_touched "$out.git-apply"
copy_touched "$out.patch-p1"
git -C "$out.git-apply" init -q
for p in $patches; do
	git -C "$out.git-apply" apply <"$p"
	patch -d "$out.patch-p1" -p1 -s <"$p"
done
diff -r --exclude=.git "$out.git-apply" "$out.patch-p1"
rm -rf "$out.git-apply" "$out.patch-p1"
echo "make-patches: $(ls "$out" | wc -l) files in $out (series for $series, src/ at $rev); applies to $tree"
