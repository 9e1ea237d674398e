# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# scripts/kunit-lib.sh: the steps scripts/kunit.sh, scripts/tasklet-free.sh
# and scripts/bench.sh share, sourced (never run).  The caller sets PROG
# (its name, for messages) and uses "set -euo pipefail".
#
#   kl_kdir KDIR            check a kernel source tree (and KUNIT_ACCEL); sets
#                           KDIR (absolute, physical) and KVER
#   kl_scratch VAR DEFAULT  the scratch directory from $VAR or DEFAULT
#                           (relative to the project), checked to lie outside
#                           KDIR, created and locked; sets KB
#   kl_copy SRC ID [PATCH...]
#                           KDIR copied to SRC with hard links, the patches
#                           applied, remade only when ID changes
#   kl_install SRC DST_IN_SRC FILE
#                           FILE put at SRC/DST by rename, only if it differs
#   kl_add_suites SRC "obj-line"...
#                           the detasklet Kconfig sourced from lib/Kconfig.debug
#                           and the given lines appended to lib/Makefile
#   kl_kunit SRC OUTDIR KUNITCONFIG JSON LOG [kunit.py args...]
#                           kunit.py run in SRC (OUTDIR emptied first if it
#                           was built for another kernel version); sets RC
#   kl_tcg DIR              QEMU on TCG: a qemu-system-x86_64 shim first on PATH
#   kl_untouched MARK       exit 3 if anything in KDIR is newer than MARK
#   kl_summary TESTLOG SUITE
#                           the suite's own KTAP lines
#   kl_expect_one_failure JSON SUITE CASE MODE WHAT
#                           exit 0 only if CASE failed and every other case
#                           passed or was skipped (a break switch's check)
#
# Every file written in a copy is written to a temporary name and renamed over
# the old one, so a hard link shared with KDIR is replaced, never written
# through.  GNU patch does the same.

KL_PROJ=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "$PROG: error: $*" >&2; exit 2; }

kl_kdir() {
	KDIR=$1
	case ${KUNIT_ACCEL:-tcg} in tcg|auto) ;; *) die "KUNIT_ACCEL '$KUNIT_ACCEL' is not tcg or auto" ;; esac
	[ -e "$KDIR" ] || die "KDIR '$KDIR' does not exist"
	[ -d "$KDIR" ] || die "KDIR '$KDIR' is not a directory"
	KDIR=$(cd "$KDIR" && pwd -P)
	{ [ -f "$KDIR/Makefile" ] && grep -q '^VERSION = ' "$KDIR/Makefile" &&
	  grep -q '^PATCHLEVEL = ' "$KDIR/Makefile" && [ -f "$KDIR/kernel/workqueue.c" ] &&
	  [ -f "$KDIR/include/linux/workqueue.h" ] && [ -f "$KDIR/lib/Makefile" ] &&
	  [ -f "$KDIR/lib/Kconfig.debug" ]; } ||
		die "KDIR '$KDIR' is not a Linux kernel source tree (need Makefile with VERSION/PATCHLEVEL, kernel/workqueue.c, lib/Makefile, lib/Kconfig.debug)"
	[ -f "$KDIR/tools/testing/kunit/kunit.py" ] ||
		die "KDIR '$KDIR' has no tools/testing/kunit/kunit.py"
	if [ -e "$KDIR/.config" ] || [ -e "$KDIR/include/config" ]; then
		die "KDIR '$KDIR' has an in-tree build (.config or include/config); kunit.py needs a clean source tree"
	fi
	command -v python3 >/dev/null || die "python3 not found"
	# shellcheck disable=SC2034 # for the caller
	KVER=$(awk '/^VERSION = /{v=$3} /^PATCHLEVEL = /{p=$3} /^SUBLEVEL = /{s=$3} END{print v"."p"."s}' \
		"$KDIR/Makefile")
}

# The tree has BH workqueues (6.10+): the suites use them.
kl_need_bh() {
	if ! grep -q 'enable_and_queue_work' "$KDIR/include/linux/workqueue.h" ||
	   ! grep -q 'system_bh_highpri_wq' "$KDIR/include/linux/workqueue.h"; then
		die "KDIR '$KDIR' lacks system_bh_highpri_wq/enable_and_queue_work (BH workqueues need Linux >= 6.10)"
	fi
}

kl_scratch() {
	local var=$1 def=$2
	KB=${!var:-$def}
	case $KB in /*) ;; *) KB=$KL_PROJ/$KB ;; esac
	# Check the location before creating anything: KDIR must never be written.
	KB=$(realpath -m "$KB")
	case "$KB/" in "$KDIR"/*) die "$var '$KB' is inside KDIR; KDIR must not be written" ;; esac
	case "$KDIR/" in "$KB"/*) die "KDIR '$KDIR' is inside $var '$KB'" ;; esac
	mkdir -p "$KB"
	KB=$(cd "$KB" && pwd -P)
	case "$KB/" in "$KDIR"/*) die "$var '$KB' resolves inside KDIR; KDIR must not be written" ;; esac
	exec 9>"$KB/.lock"
	flock -n 9 || die "another run holds $KB/.lock"
}

kl_copy() {
	local src=$1 id=$2 p f
	shift 2
	if [ -d "$src" ] && [ "$(cat "$src.id" 2>/dev/null)" = "$id" ]; then
		return 0
	fi
	echo "$PROG: copying $KDIR -> $src (hard links)${1:+ and applying the patches}"
	rm -rf "$src.tmp"
	if ! cp -al "$KDIR" "$src.tmp" 2>/dev/null; then
		echo "$PROG: hard links not possible, making a full copy"
		rm -rf "$src.tmp"
		cp -a "$KDIR" "$src.tmp"
	fi
	for p in "$@"; do
		(cd "$src.tmp" && patch -p1 -s -N --no-backup-if-mismatch -r - < "$p") ||
			die "$p does not apply to $KDIR"
	done
	# keep the old time stamp of a patched file whose content is unchanged,
	# so that the build stays incremental
	if [ -d "$src" ] && [ $# -gt 0 ]; then
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" |
		while read -r f; do
			if [ -f "$src/$f" ] && cmp -s "$src/$f" "$src.tmp/$f"; then
				touch -r "$src/$f" "$src.tmp/$f"
			fi
		done
	fi
	rm -rf "$src"
	mv "$src.tmp" "$src"
	printf '%s\n' "$id" > "$src.id"
}

# Put temp file $2 at $1 by rename, only if the content differs.
kl_replace() {
	if [ -f "$1" ] && cmp -s "$1" "$2"; then
		rm -f "$2"
	else
		chmod 644 "$2"
		mv -f "$2" "$1"
	fi
}

kl_install() {
	local t
	t=$(mktemp "$1/$2.detasklet.XXXXXX")
	cat "$3" > "$t"
	kl_replace "$1/$2" "$t"
}

kl_add_suites() {
	local src=$1 t line
	shift
	kl_install "$src" lib/Kconfig.detasklet "$KL_PROJ/tests/kunit/Kconfig.fragment"
	t=$(mktemp "$src/lib/Kconfig.debug.detasklet.XXXXXX")
	{ cat "$KDIR/lib/Kconfig.debug"; printf '\nsource "lib/Kconfig.detasklet"\n'; } > "$t"
	kl_replace "$src/lib/Kconfig.debug" "$t"
	t=$(mktemp "$src/lib/Makefile.detasklet.XXXXXX")
	{
		cat "$KDIR/lib/Makefile"
		printf '\n# detasklet KUnit suites (added by scripts/%s)\n' "$PROG"
		for line in "$@"; do printf '%s\n' "$line"; done
	} > "$t"
	kl_replace "$src/lib/Makefile" "$t"
}

kl_kunit() {
	local src=$1 out=$2 kconfig=$3 json=$4 log=$5 rel
	shift 5
	# OUTDIR (in the scratch directory) holds one kernel version's build:
	# the generated files of another release break even olddefconfig.
	if [ -f "$out/include/config/kernel.release" ]; then
		rel=$(cat "$out/include/config/kernel.release")
		case $rel in
		"$KVER" | "$KVER"[!0-9]*) ;;
		*)	echo "$PROG: $out was built for $rel, emptied for $KVER"
			rm -rf "$out" ;;
		esac
	fi
	# never a summary of an earlier run's log
	rm -f "$json" "$out/test.log"
	set +e
	(
		cd "$src" &&
		PYTHONDONTWRITEBYTECODE=1 python3 tools/testing/kunit/kunit.py run \
			--kunitconfig="$kconfig" --build_dir="$out" \
			--jobs="${KUNIT_JOBS:-2}" --timeout="${KUNIT_TIMEOUT:-600}" --json="$json" "$@"
	) 2>&1 | tee "$log"
	# shellcheck disable=SC2034 # for the caller
	RC=${PIPESTATUS[0]}
	set -e
}

# kunit.py starts QEMU with "-accel kvm -accel hvf -accel tcg": the first
# that works wins.  Where /dev/kvm exists but does not run a guest to its
# end (nested virtualisation on this project's build machine: the guest
# stalled for minutes where TCG finished in 90 s), KUNIT_ACCEL=tcg (the
# default) puts a qemu-system-x86_64 shim first on PATH that drops the kvm
# and hvf choices and runs the real QEMU.  KUNIT_ACCEL=auto keeps kunit.py's
# order.
kl_tcg() {
	local dir=$1 q=qemu-system-x86_64 real
	[ "${KUNIT_ACCEL:-tcg}" = tcg ] || return 0	# auto (checked by kl_kdir)
	mkdir -p "$dir"
	real=$(PATH=${PATH//"$dir:"/} command -v "$q") || die "$q not found"
	# shellcheck disable=SC2016 # the shim's own variables
	{
		echo '#!/usr/bin/env bash'
		echo "# made by scripts/kunit-lib.sh (kl_tcg): $real without -accel kvm/hvf"
		echo 'args=()'
		echo 'while [ $# -gt 0 ]; do'
		echo '	if [ "$1" = -accel ] && { [ "${2-}" = kvm ] || [ "${2-}" = hvf ]; }; then shift 2; continue; fi'
		echo '	args+=("$1"); shift'
		echo 'done'
		echo "exec '$real' \"\${args[@]}\""
	} > "$dir/$q.tmp"
	chmod 755 "$dir/$q.tmp"
	mv -f "$dir/$q.tmp" "$dir/$q"
	case ":$PATH:" in *":$dir:"*) ;; *) PATH=$dir:$PATH ;; esac
	export PATH
}

kl_untouched() {
	local changed
	changed=$(find "$KDIR" -newer "$1" -print -quit 2>/dev/null)
	if [ -n "$changed" ]; then
		echo "$PROG: error: files in KDIR '$KDIR' changed during the run: $changed" >&2
		exit 3
	fi
}

kl_summary() {
	local log=$1 suite=$2
	if [ -f "$log" ]; then
		awk -v s="$suite" '
			/^[[:space:]]*# Subtest: / && $NF == s { on = 1 }
			on && /^[[:space:]]*(1\.\.[0-9]+|(not )?ok [0-9]+ )/ { print }
			/^[[:space:]]*# / && ($2 == s":" || $2 == "Totals:") && / pass:/ { print }
			on && /^(not )?ok [0-9]+ / && $0 ~ s { on = 0 }
		' "$log" | sed 's/^[[:space:]]*\[[^]]*\] //'
	else
		echo "(no $log: the kernel did not build or boot)"
	fi
}

kl_expect_one_failure() {
	[ -f "$1" ] || { echo "$PROG: $4: no results ($1); build or boot failed" >&2; return 1; }
	python3 - "$@" <<'EOF'
import json, sys
path, suite, case, mode, what = sys.argv[1:6]
prog = "kunit"
root = json.load(open(path))
def groups(g):
    yield g
    for s in g.get("sub_groups", []):
        yield from groups(s)
cases = {}
for g in groups(root):
    if g.get("name") == suite:
        for c in g.get("test_cases", []):
            cases[c["name"]] = c["status"]
if not cases:
    print(f"{prog}: {mode}: suite {suite} not found in results", file=sys.stderr)
    sys.exit(1)
st = cases.get(case)
others = {n: s for n, s in cases.items() if n != case and s not in ("PASS", "SKIP")}
skipped = sorted(n for n, s in cases.items() if n != case and s == "SKIP")
if st != "FAIL":
    print(f"{prog}: {mode}: {case} is {st}, expected FAIL: the suite did NOT catch {what}",
          file=sys.stderr)
    sys.exit(1)
if others:
    print(f"{prog}: {mode}: {case} failed, but so did {others}: inconclusive", file=sys.stderr)
    sys.exit(1)
print(f"{prog}: {mode}: OK, {case} FAILED with {what}; of the other {len(cases) - 1} "
      f"cases {len(cases) - 1 - len(skipped)} passed and {len(skipped)} were skipped"
      + (f" ({', '.join(skipped)})" if skipped else ""))
EOF
}
