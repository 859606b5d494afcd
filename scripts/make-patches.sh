#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make patches`: the allocator as a patch series against a kernel source
# tree, in git format-patch form with a cover letter, into OUTDIR.
#
# The series is cut bottom-up, one commit per kseries/NN-*.msg: each adds
# the files its "# files:" line names under mm/zsmalloc/, with their part of
# the shared headers (zs_internal.h, and compat.h where there is one: a
# header's "/* FILE.c ... */" section comes with FILE.c, the part before the
# first section with the first patch).  Until the patch that names
# "Makefile", mm/zsmalloc/ is compiled (always-y) but not linked, beside
# mm/zsmalloc.c: each patch builds its own code, and the kernel keeps the
# old allocator, so it builds and boots after every patch.  That patch
# makes src/Kbuild the directory's Makefile and removes mm/zsmalloc.c; the
# one naming "Documentation" puts doc/zsmalloc.rst in place.  A file the
# kernel does not build is left out, and so is a patch left with nothing.
#
# Files come from src/, written for the newest kernel, or from
# compat/SERIES where that has them (6.12: what 6.12's callers need, and
# its Makefile).  Author and dates are those of the last commit to src/ or
# compat/, so the same sources give the same series; its base is TREE's
# files as Debian ships them (format-patch --base).  Finally the series is
# applied with git apply and with patch -p1 to copies of TREE's files.
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

# The objects the Makefile builds for this kernel, and the files they are
# made of, headers first.
objs=$(printf 'print:\n\t@echo $(zsmalloc-y)\n' |
	make -s --no-print-directory -f "$makefile" -f - \
		CONFIG_ZSMALLOC=y CONFIG_ZPOOL="$zpool" print)
headers="zs_internal.h${overlay:+ compat.h}"
built=" $headers $(echo "$objs" | sed 's/\.o\b/.c/g') "

# section_filter HEADER FILE...: HEADER with only the sections of FILEs.
section_filter() {
	h=$1
	shift
	awk -v files=" $* " '
	match($0, /^\/\* [a-z0-9_]+\.c[ ,*]/) {
		seen = 1
		keep = index(files, " " substr($0, 4, RLENGTH - 4) " ") > 0
	}
	/^#endif \/\* _[A-Z0-9_]*_H \*\/$/ { keep = 1 }
	!seen || keep { print }
	' "$h"
}

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

# The Makefile until the switch: the files so far compiled, not linked.
interim_makefile() {
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# Compiled only, until the patch that builds these files instead of"
	echo "# mm/zsmalloc.c."
	echo "always-y += $1"
	grep '^ccflags-y' "$makefile" || true
}

present=
switched=
for msg in "$msgs"/[0-9]*.msg; do
	files=$(sed -n 's/^# files: //p' "$msg")
	added=
	for f in $files; do
		case $f in Makefile | Documentation) continue ;; esac
		case $built in *" $f "*) ;; *) continue ;; esac
		mkdir -p mm/zsmalloc
		cp "$(source_of "$f")" "mm/zsmalloc/$f"
		added="$added $f"
	done
	if [ -n "$added" ]; then
		[ -n "$present" ] || {
			# The first patch: the directory is built beside the old file.
			sed -i 's|^obj-$(CONFIG_ZSMALLOC)\t+= zsmalloc\.o$|&\nobj-$(CONFIG_ZSMALLOC)\t+= zsmalloc/|' \
				mm/Makefile
			grep -q 'zsmalloc/$' mm/Makefile
			sed -i 's|^F:\tmm/zsmalloc\.c$|&\nF:\tmm/zsmalloc/|' MAINTAINERS
			grep -q '^F:.mm/zsmalloc/$' MAINTAINERS
		}
		present="$present$added"
		for h in $headers; do
			section_filter "$(source_of "$h")" $present >"mm/zsmalloc/$h"
		done
		[ -n "$switched" ] ||
			interim_makefile "$(for o in $objs; do
				case " $present " in *" ${o%.o}.c "*) printf '%s ' "$o" ;; esac
			done | sed 's/ $//')" >mm/zsmalloc/Makefile
	fi
	case " $files " in *" Makefile "*)
		switched=yes
		cp "$makefile" mm/zsmalloc/Makefile
		sed -i '/^obj-$(CONFIG_ZSMALLOC)\t+= zsmalloc\.o$/d' mm/Makefile
		sed -i '/^F:\tmm\/zsmalloc\.c$/d' MAINTAINERS
		git rm -q mm/zsmalloc.c ;;
	esac
	case " $files " in *" Documentation "*)
		cp "$top/doc/zsmalloc.rst" Documentation/mm/zsmalloc.rst ;;
	esac
	git add -A
	git diff --cached --quiet || commit "$(basename "$msg")"
done
# The series must end with the allocator built, all of it.
[ -n "$switched" ]
for f in $built; do
	[ -f "mm/zsmalloc/$f" ] ||
		{ echo "make-patches: no patch adds $f" >&2; exit 1; }
	cmp -s "$(source_of "$f")" "mm/zsmalloc/$f" ||
		{ echo "make-patches: mm/zsmalloc/$f is not $(source_of "$f") at the end" >&2; exit 1; }
done

# The cover letter: the branch description, subject first.
cover=$msgs/cover-$series.msg
git config branch.base.description \
	"$(sed -e "s/@SERIES@/$series/g" -e "s/@REV@/$rev/g" "$cover")"
base=$(git rev-list --max-parents=0 HEAD)
git format-patch -q --cover-letter --cover-from-description=subject \
	--subject-prefix="PATCH $series" --base="$base" -o "$out" "$base..HEAD"

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
