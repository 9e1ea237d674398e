#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/tasklet-free.sh KDIR OUT
#
# Build and boot a kernel without tasklets (UML), and run KUnit in it:
#
#   1. KDIR is copied to $TF_BUILD/src with hard links (cp -al, through
#      scripts/kunit-lib.sh, shared with kunit.sh and bench.sh); OUT/all.patch
#      (every converted user) and OUT/tasklet-free.patch (the tasklet core
#      removed, from "python3 -m detasklet tasklet-free") are applied to the
#      copy.  GNU patch writes a new file and renames it over the old one, so
#      a link shared with KDIR is replaced, never written through (checked at
#      the end: nothing in KDIR may be newer than the run).  The patched copy
#      is remade only when KDIR or a patch changes; a file whose content did
#      not change keeps its old time stamp, so the build stays incremental.
#   2. The tasklet API left in the copy is counted, tree-wide.
#   3. The workqueue-only suite tests/kunit/detasklet_bh.c is added (the side
#      by side suite detasklet_contract.c uses tasklets, so it cannot build
#      here).
#   4. tools/testing/kunit/kunit.py run --arch=um with
#      tests/kunit/tasklet-free.kunitconfig (the suite, plus virtio crypto;
#      TF_KUNITCONFIG picks another, e.g. tasklet-free-net.kunitconfig,
#      which builds the networking users too).
#   5. What the build compiled is checked: no compiled file may still name
#      the tasklet API (exit 1 otherwise); the converted files it compiled
#      are listed in $TF_BUILD/converted-compiled.txt.
#
# TF_TREE_ONLY=1 stops after step 2 (make tasklet-free-tree): exit 1 if any
# .c, .h or .rs file of the patched tree, or a Documentation/ file, still
# names the tasklet API.
#
# Environment: TF_BUILD (default build/tf-NAME for NAME.kunitconfig), TF_KUNITCONFIG,
# KUNIT_JOBS (2),
# KUNIT_TIMEOUT (600).

set -euo pipefail

PROG=tasklet-free.sh
# shellcheck source=scripts/kunit-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/kunit-lib.sh"
SUITE_C=$KL_PROJ/tests/kunit/detasklet_bh.c
KUNITCONFIG=${TF_KUNITCONFIG:-$KL_PROJ/tests/kunit/tasklet-free.kunitconfig}
case $KUNITCONFIG in /*) ;; *) KUNITCONFIG=$PWD/$KUNITCONFIG ;; esac
SUITE_NAME=detasklet_bh
PY="env PYTHONPATH=$KL_PROJ/scripts PYTHONDONTWRITEBYTECODE=1 python3"

[ $# -eq 2 ] || { echo "usage: scripts/tasklet-free.sh KDIR OUT" >&2; exit 2; }
{ [ -d "$1" ] && [ -f "$1/kernel/softirq.c" ]; } ||
	die "KDIR '$1' is not a Linux kernel source tree with kernel/softirq.c"
kl_kdir "$1"
OUTD=$2
[ -d "$OUTD" ] || die "OUT '$OUTD' does not exist (run make convert first)"
OUTD=$(cd "$OUTD" && pwd -P)
for f in "$OUTD/all.patch" "$OUTD/tasklet-free.patch" "$OUTD/report.json"; do
	[ -f "$f" ] || die "missing $f (make convert, then python3 -m detasklet tasklet-free)"
done
for f in "$SUITE_C" "$KL_PROJ/tests/kunit/Kconfig.fragment" "$KUNITCONFIG"; do
	[ -f "$f" ] || die "missing project file $f"
done

kl_scratch TF_BUILD "build/tf-$(basename "$KUNITCONFIG" .kunitconfig)"
SRC=$KB/src
BOUT=$KB/out
START=$(date +%s)
MARK=$KB/.run-start
touch "$MARK"

# ---- 1. the patched copy ------------------------------------------------------
kl_copy "$SRC" "$KDIR $(stat -c %Y "$KDIR/Makefile") $(sha256sum "$OUTD/all.patch" "$OUTD/tasklet-free.patch" | cut -c1-64 | tr '\n' ' ')" \
	"$OUTD/all.patch" "$OUTD/tasklet-free.patch"

# TF_TREE_ONLY=1 (make tasklet-free-tree): the tree-wide check alone, no build
if [ -n "${TF_TREE_ONLY:-}" ]; then
	set +e
	$PY -m detasklet leftovers "$SRC" --tree
	CHECK=$?
	set -e
	kl_untouched "$MARK"
	exit "$CHECK"
fi

# ---- 2. the suite -------------------------------------------------------------
kl_install "$SRC" lib/detasklet_bh.c "$SUITE_C"
# shellcheck disable=SC2016 # a make variable, not a shell one
kl_add_suites "$SRC" 'obj-$(CONFIG_DETASKLET_BH_KUNIT_TEST) += detasklet_bh.o'

echo "$PROG: tasklet API left in the patched tree (before the build):"
$PY -m detasklet leftovers "$SRC" | sed 's/^/  /'

# ---- 3. build, boot, test ------------------------------------------------------
LOG=$KB/kunit.log
kl_kunit "$SRC" "$BOUT" "$KUNITCONFIG" "$KB/results.json" "$LOG" --arch=um
kl_untouched "$MARK"

# ---- 4. what the build compiled ------------------------------------------------
echo
echo "==== what this build compiled ===="
set +e
$PY -m detasklet leftovers "$SRC" --build "$BOUT" --report "$OUTD/report.json" \
	--list-out "$KB/converted-compiled.txt"
CHECK=$?
set -e
END=$(date +%s)

echo
echo "==== KUnit TAP summary ($SUITE_NAME, tasklet-free kernel, $((END - START)) s) ===="
kl_summary "$BOUT/test.log" "$SUITE_NAME"
grep -E 'Testing complete\.|Ran [0-9]+ tests' "$LOG" | tail -n 2 || true
[ "$RC" = 0 ] || exit "$RC"
[ "$CHECK" = 0 ] || { echo "$PROG: error: a compiled file still names the tasklet API" >&2; exit 1; }
echo "$PROG: OK in $((END - START)) s"
