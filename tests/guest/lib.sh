# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - helpers for guest suites (busybox sh). Source it from a suite:
#
#	. "$(dirname "$0")/lib.sh"
#
# The guest suite contract
# ------------------------
# * A suite is a busybox-sh script tests/guest/NN-name.sh. The guest runs the
#   selected suites one after the other in lexical order of their names, each
#   with stdin from /dev/null, as root, in the directory that holds them.
# * Environment: ZS_ALLOCATOR (ours | stock: the zsmalloc.ko this run is
#   about), ZS_BUILTIN (1: the kernel has zsmalloc built in, 6.12 on, and
#   ZS_ALLOCATOR says which one; nothing loads or unloads it), ZS_MODDIR
#   (the directory holding the project's .ko files),
#   ZS_BLOB_DEV (read-only disk with 64 MiB of mixed real data) and
#   ZS_BLOB_SHA256 (its sha256), ZS_TREE_DEV (read-only ext4 image of a
#   tree of real files), ZS_SCRATCH_DEV (writable 256 MiB disk, zeroed at
#   each boot). A disk the host did not attach has an empty variable.
# * stdout carries exactly one KTAP document: "KTAP version 1", the plan
#   "1..N", then N result lines "ok I name" / "not ok I name", where a skip is
#   "ok I name # SKIP reason", and diagnostics "# text" anywhere. Nested
#   documents (subtests) are indented by four spaces. Use the helpers below
#   instead of echo so that numbering and plan stay right; write anything
#   else to stderr, or through ktap_diag.
# * Only the top-level results count. A suite whose results fall short of
#   its plan, that prints no document, that exits non-zero, or that runs
#   longer than SUITE_TIMEOUT (make variable; it is then killed), fails.
#   Results, not the exit status, carry the verdict: exit 0 (ktap_finish).
# * Suites run in one boot and share the kernel: leave it as you found it
#   (unload what you loaded, reset zram devices) so the next suite can run.
# * In-kernel tests: run_kernel_ktap MODULE [PARAM=VALUE...] loads
#   $ZS_MODDIR/MODULE.ko, which prints its own KTAP document to the kernel
#   log with plain printk(KERN_INFO) lines (no prefix, subtests indented by
#   four spaces) from its init function and returns 0 from init; the
#   harness re-emits that document as a subtest and unloads the module.

# The helpers' own variables are named _zs_*: shell variables are global,
# and a suite's command run by ktap_test must not overwrite them.
KTAP_PLANNED=
KTAP_N=0

# ktap_plan N: start the document: version line and plan.
ktap_plan() {
	KTAP_PLANNED=$1
	echo "KTAP version 1"
	echo "1..$1"
}

# ktap_diag TEXT...: a diagnostic line, or each line of stdin if no TEXT.
ktap_diag() {
	if [ $# -gt 0 ]; then
		echo "# $*"
	else
		sed 's/^/# /'
	fi
}

# ktap_ok NAME / ktap_not_ok NAME / ktap_skip NAME REASON: one result line.
ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $*"
}

ktap_not_ok() {
	KTAP_N=$((KTAP_N + 1))
	echo "not ok $KTAP_N $*"
}

ktap_skip() {
	_zs_name=$1
	shift
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $_zs_name # SKIP $*"
}

# ktap_result STATUS NAME: ok if STATUS is 0, not ok otherwise.
ktap_result() {
	_zs_st=$1
	shift
	if [ "$_zs_st" -eq 0 ]; then
		ktap_ok "$@"
	else
		ktap_not_ok "$@"
	fi
}

# ktap_test NAME COMMAND [ARG...]: run COMMAND, report it as one result;
# its output (stdout and stderr) goes out first, as diagnostics.
# Returns COMMAND's status, so a suite can stop depending work.
ktap_test() {
	_zs_name=$1
	shift
	_zs_out=$(mktemp)
	if "$@" >"$_zs_out" 2>&1; then
		_zs_st=0
	else
		_zs_st=$?
		echo "'$*' failed with status $_zs_st" >>"$_zs_out"
	fi
	ktap_diag <"$_zs_out"
	rm -f "$_zs_out"
	ktap_result "$_zs_st" "$_zs_name"
	return "$_zs_st"
}

# ktap_step NAME COMMAND [ARG...]: ktap_test for a chain of dependent steps:
# once a step has failed, the later ones are reported "not ok" unrun.  Each
# step's wall time follows its result line.
KTAP_BROKEN=
ktap_step() {
	if [ -n "$KTAP_BROKEN" ]; then
		ktap_diag "$1: not run, '$KTAP_BROKEN' failed"
		ktap_not_ok "$1"
		return 1
	fi
	_zs_t0=$(date +%s)
	_zs_st=0
	ktap_test "$@" || _zs_st=$?
	ktap_diag "took $(($(date +%s) - _zs_t0)) s"
	[ "$_zs_st" -eq 0 ] || KTAP_BROKEN=$1
	return "$_zs_st"
}

# ktap_finish: note a mismatch between plan and results; exit 0 (the
# results, not the exit status, carry the verdict).
ktap_finish() {
	if [ -n "$KTAP_PLANNED" ] && [ "$KTAP_N" -ne "$KTAP_PLANNED" ]; then
		ktap_diag "planned $KTAP_PLANNED tests, ran $KTAP_N"
	fi
	exit 0
}

# zs_module_loaded NAME: is module NAME loaded (dashes and underscores alike)?
zs_module_loaded() {
	[ -d "/sys/module/$(echo "$1" | tr - _)" ]
}

# load_allocator: make sure the zsmalloc.ko selected by ZS_ALLOCATOR is
# loaded: ours is insmod'ed from ZS_MODDIR, stock is modprobe'd. Idempotent;
# fails (status 1, reason on stderr) if it cannot load it or if the loaded
# zsmalloc is the other one (ours is out-of-tree: taint flag O).  A built-in
# zsmalloc is only checked to be the one asked for.
load_allocator() {
	[ "${ZS_BUILTIN:-0}" = 0 ] || { builtin_allocator_is "$ZS_ALLOCATOR"; return; }
	if ! zs_module_loaded zsmalloc; then
		case $ZS_ALLOCATOR in
		ours) insmod "$ZS_MODDIR/zsmalloc.ko" || return 1 ;;
		stock) modprobe zsmalloc || return 1 ;;
		*)
			echo "load_allocator: ZS_ALLOCATOR is '$ZS_ALLOCATOR'" >&2
			return 1
			;;
		esac
	fi
	_zs_taint=$(cat /sys/module/zsmalloc/taint 2>/dev/null || true)
	case $ZS_ALLOCATOR/$_zs_taint in
	ours/*O* | stock/[!O]* | stock/) return 0 ;;
	esac
	echo "load_allocator: loaded zsmalloc (taint '$_zs_taint') is not the $ZS_ALLOCATOR one" >&2
	return 1
}

# builtin_allocator_is ours|stock: is the kernel's built-in zsmalloc that one?
# Ours has parameters (/sys/module/zsmalloc/parameters), stock has none.
builtin_allocator_is() {
	_zs_p=/sys/module/zsmalloc/parameters/max_pages_per_zspage
	case $1 in
	ours) [ -f $_zs_p ] && return 0 ;;
	stock) [ ! -e $_zs_p ] && return 0 ;;
	esac
	echo "load_allocator: the built-in zsmalloc is not the '$1' one" >&2
	return 1
}

# zs_module_steps: can this kernel load and unload zsmalloc (not built in)?
zs_module_steps() {
	[ "${ZS_BUILTIN:-0}" = 0 ]
}

# unload_allocator: rmmod zsmalloc where it is a module; a built-in one
# stays, its pools gone with their users.
unload_allocator() {
	! zs_module_steps || rmmod zsmalloc
}

# zram_mm_stat FIELD [DEVICE]: one field of /sys/block/DEVICE/mm_stat
# (default zram0), by its name in Documentation/admin-guide/blockdev/zram.rst.
zram_mm_stat() {
	set -- "$1" "$(cat "/sys/block/${2:-zram0}/mm_stat")"
	# shellcheck disable=SC2086 # split the fields
	set -- "$1" $2
	case $1 in
	orig_data_size) echo "$2" ;;
	compr_data_size) echo "$3" ;;
	mem_used_total) echo "$4" ;;
	mem_limit) echo "$5" ;;
	mem_used_max) echo "$6" ;;
	same_pages) echo "$7" ;;
	pages_compacted) echo "$8" ;;
	huge_pages) echo "$9" ;;
	*)
		echo "zram_mm_stat: unknown field $1" >&2
		return 1
		;;
	esac
}

# ktap_lines: keep only KTAP lines (version, plan, results, diagnostics) of
# stdin; kernel messages from elsewhere are dropped.
ktap_lines() {
	grep -E '^ *(K?TAP version [0-9]+|[0-9]+\.\.[0-9]+|(not )?ok [0-9]+|#)'
}

# run_kernel_ktap MODULE [PARAM=VALUE...]: insmod $ZS_MODDIR/MODULE.ko (after
# load_allocator), take the KTAP document it printed to the kernel log since
# the insmod (timestamps stripped, other kernel messages dropped), rmmod it.
# Called before ktap_plan, the module's document becomes the suite's
# document, re-emitted as it is; a module that fails to load or prints no
# plan then makes a one-test document "not ok 1 MODULE". Called after
# ktap_plan, it is one test of the suite: the module's document is re-emitted
# indented as its subtest, then "ok I MODULE", "not ok I MODULE", or a skip
# if every case of the module skipped.
# Either way, it returns 0 only if the module loaded, printed a plan and as
# many results as planned, none of them "not ok", and unloaded.
run_kernel_ktap() {
	_zs_mod=$1
	shift
	KTAP_RUNS=$((${KTAP_RUNS:-0} + 1))
	_zs_mark="zs-harness: run_kernel_ktap $_zs_mod $$.$KTAP_RUNS"
	_zs_why=
	_zs_doc=$(mktemp)
	_zs_err=$(mktemp)
	load_allocator 2>"$_zs_err" || _zs_why="load_allocator failed"
	# <14>: user.info, kept off the console by loglevel.
	echo "<14>$_zs_mark" >/dev/kmsg
	if [ -z "$_zs_why" ]; then
		insmod "$ZS_MODDIR/$_zs_mod.ko" "$@" 2>>"$_zs_err" || _zs_why="insmod failed"
	fi
	# Kernel info lines after the mark: "<6>[    1.234567] text".
	dmesg -r | sed -n "/$_zs_mark\$/,\$p" | sed -n 's/^<6>\[ *[0-9.]*\] //p' |
		ktap_lines >"$_zs_doc" || true
	if zs_module_loaded "$_zs_mod"; then
		rmmod "$_zs_mod" 2>>"$_zs_err" || _zs_why="${_zs_why:+$_zs_why, }rmmod failed"
	fi

	_zs_plan=$(sed -n 's/^[0-9]*\.\.\([0-9]*\).*/\1/p' "$_zs_doc" | head -n 1)
	_zs_results=$(grep -cE '^(not )?ok [0-9]+' "$_zs_doc" || true)
	_zs_failed=$(grep -E '^not ok [0-9]+' "$_zs_doc" | grep -cvE '# *SKIP' || true)
	if [ -z "$_zs_why" ]; then
		if [ -z "$_zs_plan" ]; then
			_zs_why="no KTAP plan in the kernel log"
		elif [ "$_zs_results" -ne "$_zs_plan" ]; then
			_zs_why="planned $_zs_plan, got $_zs_results results"
		elif [ "$_zs_failed" -ne 0 ]; then
			_zs_why="$_zs_failed failed"
		fi
	fi
	_zs_name="$_zs_mod${1:+ $*}"
	if [ -n "$KTAP_PLANNED" ]; then
		sed 's/^/    /' "$_zs_doc"
		ktap_diag <"$_zs_err"
		if [ -n "$_zs_why" ]; then
			ktap_diag "$_zs_mod: $_zs_why"
			ktap_not_ok "$_zs_name"
		elif grep -E '^ok [0-9]+' "$_zs_doc" | grep -qvE '# *SKIP'; then
			ktap_ok "$_zs_name"
		else
			ktap_skip "$_zs_name" "every case skipped"
		fi
	elif [ -n "$_zs_plan" ]; then
		cat "$_zs_doc"
		ktap_diag <"$_zs_err"
		# The document may look fine (e.g. insmod failed after it was
		# printed): the host counts this line as a failure.
		[ -z "$_zs_why" ] || ktap_diag "zs-harness: error: $_zs_mod: $_zs_why"
	else
		ktap_diag <"$_zs_err"
		ktap_plan 1
		ktap_diag "$_zs_mod: $_zs_why"
		ktap_not_ok "$_zs_name"
		KTAP_PLANNED=
	fi
	rm -f "$_zs_doc" "$_zs_err"
	[ -z "$_zs_why" ]
}

# zs_memcg DIR MIB: a cgroup v2 memory cgroup DIR (mounting cgroup2 on
# /sys/fs/cgroup if needed) whose memory.max is MIB MiB: the memory-pressure
# suites run memhog in it instead of booting a guest with little RAM.
zs_memcg() {
	mkdir -p /sys/fs/cgroup
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup || return 1
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p "$1" &&
		echo "$2M" >"$1/memory.max"
}
