#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit.sh KDIR [--break-enable | --break-in-atomic]
#
# Run the detasklet_contract KUnit suite (tests/kunit/detasklet_contract.c)
# on UML against the kernel tree KDIR, which is never written:
#
#   1. KDIR is copied to $KUNIT_BUILD/src with hard links (cp -al; plain cp -a
#      if KDIR is on another file system).  The copy is reused across runs and
#      remade only when KDIR changes.
#   2. The suite is added to the copy: lib/detasklet_contract.c,
#      lib/Kconfig.detasklet (sourced from lib/Kconfig.debug) and one obj- line
#      in lib/Makefile.  Every file touched in the copy is written to a temporary
#      name and renamed over the old one, so a hard link shared with KDIR is
#      replaced, never written through; unchanged files are left alone so the
#      build stays incremental.
#   3. tools/testing/kunit/kunit.py run --arch=um runs in the copy, with the
#      build directory $KUNIT_BUILD/out (kept between runs).
#
# Normal mode exits with kunit.py's status.
# --break-enable builds the suite with -DDETASKLET_CONTRACT_BREAK_ENABLE (the
# tasklet_enable mapping becomes enable_work() instead of
# enable_and_queue_work()) and exits 0 only if the case
# dt_enable_and_queue_restores_dropped_schedule FAILED and every other case
# passed, i.e. it proves the suite catches that wrong mapping.
# --break-in-atomic does the same with -DDETASKLET_CONTRACT_BREAK_IN_ATOMIC
# (tasklet_disable_in_atomic becomes disable_work_sync(), which turns
# interrupts back on) and the case dt_disable_in_atomic_irqs_off.
#
# Environment:
#   KUNIT_BUILD  scratch directory (default build/kunit, relative to the
#                project root)
#   KUNIT_JOBS   make jobs (default 2)
#   KUNIT_TIMEOUT  kunit.py --timeout in seconds (default 600)

set -euo pipefail

PROG=kunit.sh
PROJ=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUITE_C=$PROJ/tests/kunit/detasklet_contract.c
SUITE_KCONFIG=$PROJ/tests/kunit/Kconfig.fragment
KUNITCONFIG=$PROJ/tests/kunit/.kunitconfig
ENABLE_CASE=dt_enable_and_queue_restores_dropped_schedule
IN_ATOMIC_CASE=dt_disable_in_atomic_irqs_off
SUITE_NAME=detasklet_contract

die() { echo "$PROG: error: $*" >&2; exit 2; }
usage() { echo "usage: scripts/kunit.sh KDIR [--break-enable | --break-in-atomic]" >&2; exit 2; }

KDIR=
BREAK=0
MODE=normal
for arg in "$@"; do
	case $arg in
	--break-enable) BREAK=1; MODE=break-enable; DEFINE=DETASKLET_CONTRACT_BREAK_ENABLE
		BROKEN_CASE=$ENABLE_CASE; BROKEN_WHAT="tasklet_enable -> enable_work()" ;;
	--break-in-atomic) BREAK=1; MODE=break-in-atomic; DEFINE=DETASKLET_CONTRACT_BREAK_IN_ATOMIC
		BROKEN_CASE=$IN_ATOMIC_CASE
		BROKEN_WHAT="tasklet_disable_in_atomic -> disable_work_sync()" ;;
	-h|--help) usage ;;
	-*) die "unknown option '$arg' (usage: scripts/kunit.sh KDIR [--break-enable | --break-in-atomic])" ;;
	*) [ -z "$KDIR" ] || die "more than one KDIR given ('$KDIR', '$arg')"
	   KDIR=$arg ;;
	esac
done
[ -n "$KDIR" ] || usage

# ---- KDIR checks (one line each) -------------------------------------------
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
if ! grep -q 'enable_and_queue_work' "$KDIR/include/linux/workqueue.h" ||
   ! grep -q 'system_bh_highpri_wq' "$KDIR/include/linux/workqueue.h"; then
	die "KDIR '$KDIR' lacks system_bh_highpri_wq/enable_and_queue_work (BH workqueues need Linux >= 6.10)"
fi
if [ -e "$KDIR/.config" ] || [ -e "$KDIR/include/config" ]; then
	die "KDIR '$KDIR' has an in-tree build (.config or include/config); kunit.py needs a clean source tree"
fi
for f in "$SUITE_C" "$SUITE_KCONFIG" "$KUNITCONFIG"; do
	[ -f "$f" ] || die "missing project file $f"
done
command -v python3 >/dev/null || die "python3 not found"

KVER=$(awk '/^VERSION = /{v=$3} /^PATCHLEVEL = /{p=$3} /^SUBLEVEL = /{s=$3} END{print v"."p"."s}' "$KDIR/Makefile")

# ---- scratch area ----------------------------------------------------------
KB=${KUNIT_BUILD:-build/kunit}
case $KB in /*) ;; *) KB=$PROJ/$KB ;; esac
# Check the location before creating anything: KDIR must never be written.
KB=$(realpath -m "$KB")
case "$KB/" in "$KDIR"/*) die "KUNIT_BUILD '$KB' is inside KDIR; KDIR must not be written" ;; esac
case "$KDIR/" in "$KB"/*) die "KDIR '$KDIR' is inside KUNIT_BUILD '$KB'" ;; esac
mkdir -p "$KB"
KB=$(cd "$KB" && pwd -P)
case "$KB/" in "$KDIR"/*) die "KUNIT_BUILD '$KB' resolves inside KDIR; KDIR must not be written" ;; esac
SRC=$KB/src
OUT=$KB/out
JOBS=${KUNIT_JOBS:-2}

exec 9>"$KB/.lock"
flock -n 9 || die "another scripts/kunit.sh run holds $KB/.lock"

# Identity of KDIR: path + version + mtime of its top Makefile.
ID="$KDIR $KVER $(stat -c %Y "$KDIR/Makefile")"
if [ ! -d "$SRC" ] || [ "$(cat "$KB/src.id" 2>/dev/null)" != "$ID" ]; then
	echo "$PROG: copying $KDIR -> $SRC (hard links)"
	rm -rf "$SRC" "$SRC.tmp" "$OUT"
	if ! cp -al "$KDIR" "$SRC.tmp" 2>/dev/null; then
		echo "$PROG: hard links not possible, making a full copy"
		rm -rf "$SRC.tmp"
		cp -a "$KDIR" "$SRC.tmp"
	fi
	mv "$SRC.tmp" "$SRC"
	printf '%s\n' "$ID" > "$KB/src.id"
fi

# Put $2 (a temp file) at $1 by rename, only if the content differs.
# Rename replaces a hard link shared with KDIR instead of writing through it.
replace_file() {
	local dst=$1 new=$2
	if [ -f "$dst" ] && cmp -s "$dst" "$new"; then
		rm -f "$new"
	else
		chmod 644 "$new"
		mv -f "$new" "$dst"
	fi
}
tmpfile() { mktemp "$1.detasklet.XXXXXX"; }

t=$(tmpfile "$SRC/lib/detasklet_contract.c"); cat "$SUITE_C" > "$t"
replace_file "$SRC/lib/detasklet_contract.c" "$t"

t=$(tmpfile "$SRC/lib/Kconfig.detasklet"); cat "$SUITE_KCONFIG" > "$t"
replace_file "$SRC/lib/Kconfig.detasklet" "$t"

t=$(tmpfile "$SRC/lib/Kconfig.debug")
{ cat "$KDIR/lib/Kconfig.debug"; printf '\nsource "lib/Kconfig.detasklet"\n'; } > "$t"
replace_file "$SRC/lib/Kconfig.debug" "$t"

t=$(tmpfile "$SRC/lib/Makefile")
{
	cat "$KDIR/lib/Makefile"
	printf '\n# detasklet contract suite (added by scripts/kunit.sh)\n'
	# shellcheck disable=SC2016 # a make variable, not a shell one
	printf 'obj-$(CONFIG_DETASKLET_CONTRACT_KUNIT_TEST) += detasklet_contract.o\n'
	if [ "$BREAK" = 1 ]; then
		printf 'CFLAGS_detasklet_contract.o += -D%s\n' "$DEFINE"
	fi
} > "$t"
replace_file "$SRC/lib/Makefile" "$t"

# ---- run -------------------------------------------------------------------
LOG=$KB/kunit-$MODE.log
JSON=$KB/results-$MODE.json
rm -f "$JSON"
MARK=$KB/.run-start
touch "$MARK"

echo "$PROG: Linux $KVER, mode $MODE, build dir $OUT, jobs $JOBS"
START=$(date +%s)
set +e
(
	cd "$SRC" &&
	PYTHONDONTWRITEBYTECODE=1 python3 tools/testing/kunit/kunit.py run \
		--arch=um --kunitconfig="$KUNITCONFIG" --build_dir="$OUT" \
		--jobs="$JOBS" --timeout="${KUNIT_TIMEOUT:-600}" --json="$JSON"
) 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}
set -e
END=$(date +%s)

# KDIR must not have been written.
if [ -n "$(find "$KDIR" -newer "$MARK" -print -quit 2>/dev/null)" ]; then
	echo "$PROG: error: files in KDIR '$KDIR' changed during the run: $(find "$KDIR" -newer "$MARK" -print -quit)" >&2
	exit 3
fi

echo
echo "==== KUnit TAP summary ($SUITE_NAME, mode $MODE, $((END - START)) s) ===="
if [ -f "$OUT/test.log" ]; then
	# the suite's own TAP lines: its plan, case results and suite result
	awk -v s="$SUITE_NAME" '
		/^[[:space:]]*# Subtest: / && $NF == s { on = 1 }
		on && /^[[:space:]]*(1\.\.[0-9]+|(not )?ok [0-9]+ )/ { print }
		/^[[:space:]]*# / && ($2 == s":" || $2 == "Totals:") && / pass:/ { print }
		on && /^(not )?ok [0-9]+ / && $0 ~ s { on = 0 }
	' "$OUT/test.log" | sed 's/^[[:space:]]*\[[^]]*\] //'
else
	echo "(no $OUT/test.log: the kernel did not build or boot)"
fi
grep -E 'Testing complete\.|Ran [0-9]+ tests' "$LOG" | tail -n 2 || true

if [ "$BREAK" = 0 ]; then
	exit "$RC"
fi

# --break-*: succeed only if the broken case failed and the rest passed.
[ -f "$JSON" ] || { echo "$PROG: $MODE: no results ($JSON); build or boot failed" >&2; exit 1; }
python3 - "$JSON" "$SUITE_NAME" "$BROKEN_CASE" "$MODE" "$BROKEN_WHAT" <<'EOF'
import json, sys
path, suite, case, mode, what = sys.argv[1:6]
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
    print(f"kunit.sh: {mode}: suite {suite} not found in results", file=sys.stderr)
    sys.exit(1)
st = cases.get(case)
others = {n: s for n, s in cases.items() if n != case and s != "PASS"}
if st != "FAIL":
    print(f"kunit.sh: {mode}: {case} is {st}, expected FAIL: the suite did NOT catch {what}", file=sys.stderr)
    sys.exit(1)
if others:
    print(f"kunit.sh: {mode}: {case} failed, but so did {others}: inconclusive", file=sys.stderr)
    sys.exit(1)
print(f"kunit.sh: {mode}: OK, {case} FAILED with {what}; "
      f"the other {len(cases) - 1} cases passed")
EOF
