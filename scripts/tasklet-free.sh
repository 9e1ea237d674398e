#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/tasklet-free.sh KDIR OUT
#
# Build and boot a kernel without tasklets (UML), and run KUnit in it:
#
#   1. KDIR is copied to $TF_BUILD/src with hard links (cp -al); OUT/all.patch
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
#      which needs include/linux/dccp.h converted first).
#   5. What the build compiled is checked: no compiled file may still name
#      the tasklet API (exit 1 otherwise); the converted files it compiled
#      are listed in $TF_BUILD/converted-compiled.txt.
#
# Environment: TF_BUILD (default build/tf-NAME for NAME.kunitconfig), TF_KUNITCONFIG,
# KUNIT_JOBS (2),
# KUNIT_TIMEOUT (600).

set -euo pipefail

PROG=tasklet-free.sh
PROJ=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUITE_C=$PROJ/tests/kunit/detasklet_bh.c
SUITE_KCONFIG=$PROJ/tests/kunit/Kconfig.fragment
KUNITCONFIG=${TF_KUNITCONFIG:-$PROJ/tests/kunit/tasklet-free.kunitconfig}
case $KUNITCONFIG in /*) ;; *) KUNITCONFIG=$PWD/$KUNITCONFIG ;; esac
SUITE_NAME=detasklet_bh
PY="env PYTHONPATH=$PROJ/scripts PYTHONDONTWRITEBYTECODE=1 python3"

die() { echo "$PROG: error: $*" >&2; exit 2; }
[ $# -eq 2 ] || { echo "usage: scripts/tasklet-free.sh KDIR OUT" >&2; exit 2; }
KDIR=$1
OUTD=$2
[ -d "$KDIR" ] || die "KDIR '$KDIR' is not a directory"
KDIR=$(cd "$KDIR" && pwd -P)
[ -f "$KDIR/Makefile" ] && [ -f "$KDIR/kernel/softirq.c" ] &&
	[ -f "$KDIR/tools/testing/kunit/kunit.py" ] ||
	die "KDIR '$KDIR' is not a Linux kernel source tree with tools/testing/kunit"
if [ -e "$KDIR/.config" ] || [ -e "$KDIR/include/config" ]; then
	die "KDIR '$KDIR' has an in-tree build (.config or include/config); kunit.py needs a clean source tree"
fi
[ -d "$OUTD" ] || die "OUT '$OUTD' does not exist (run make convert first)"
OUTD=$(cd "$OUTD" && pwd -P)
for f in "$OUTD/all.patch" "$OUTD/tasklet-free.patch" "$OUTD/report.json"; do
	[ -f "$f" ] || die "missing $f (make convert, then python3 -m detasklet tasklet-free)"
done
for f in "$SUITE_C" "$SUITE_KCONFIG" "$KUNITCONFIG"; do
	[ -f "$f" ] || die "missing project file $f"
done

TB=${TF_BUILD:-build/tf-$(basename "$KUNITCONFIG" .kunitconfig)}
case $TB in /*) ;; *) TB=$PROJ/$TB ;; esac
TB=$(realpath -m "$TB")
case "$TB/" in "$KDIR"/*) die "TF_BUILD '$TB' is inside KDIR; KDIR must not be written" ;; esac
mkdir -p "$TB"
SRC=$TB/src
BOUT=$TB/out
exec 9>"$TB/.lock"
flock -n 9 || die "another tasklet-free run holds $TB/.lock"

START=$(date +%s)
MARK=$TB/.run-start
touch "$MARK"

# ---- 1. the patched copy ------------------------------------------------------
ID="$KDIR $(stat -c %Y "$KDIR/Makefile") $(sha256sum "$OUTD/all.patch" "$OUTD/tasklet-free.patch" | cut -c1-64 | tr '\n' ' ')"
if [ ! -d "$SRC" ] || [ "$(cat "$TB/src.id" 2>/dev/null)" != "$ID" ]; then
	echo "$PROG: copying $KDIR -> $SRC (hard links) and applying the patches"
	rm -rf "$SRC.tmp"
	cp -al "$KDIR" "$SRC.tmp" 2>/dev/null || { rm -rf "$SRC.tmp"; cp -a "$KDIR" "$SRC.tmp"; }
	for p in all.patch tasklet-free.patch; do
		(cd "$SRC.tmp" && patch -p1 -s -N --no-backup-if-mismatch -r - < "$OUTD/$p") ||
			die "$OUTD/$p does not apply to $KDIR"
	done
	# keep the old time stamp of a patched file whose content is unchanged
	if [ -d "$SRC" ]; then
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$OUTD/all.patch" "$OUTD/tasklet-free.patch" |
		while read -r f; do
			if [ -f "$SRC/$f" ] && cmp -s "$SRC/$f" "$SRC.tmp/$f"; then
				touch -r "$SRC/$f" "$SRC.tmp/$f"
			fi
		done
	fi
	rm -rf "$SRC"
	mv "$SRC.tmp" "$SRC"
	printf '%s\n' "$ID" > "$TB/src.id"
fi

# ---- 2. the suite -------------------------------------------------------------
replace_file() {	# put temp file $2 at $1 by rename, only if it differs
	if [ -f "$1" ] && cmp -s "$1" "$2"; then rm -f "$2"; else chmod 644 "$2"; mv -f "$2" "$1"; fi
}
tmpfile() { mktemp "$1.detasklet.XXXXXX"; }
t=$(tmpfile "$SRC/lib/detasklet_bh.c"); cat "$SUITE_C" > "$t"; replace_file "$SRC/lib/detasklet_bh.c" "$t"
t=$(tmpfile "$SRC/lib/Kconfig.detasklet"); cat "$SUITE_KCONFIG" > "$t"; replace_file "$SRC/lib/Kconfig.detasklet" "$t"
t=$(tmpfile "$SRC/lib/Kconfig.debug")
{ cat "$KDIR/lib/Kconfig.debug"; printf '\nsource "lib/Kconfig.detasklet"\n'; } > "$t"
replace_file "$SRC/lib/Kconfig.debug" "$t"
t=$(tmpfile "$SRC/lib/Makefile")
{
	cat "$KDIR/lib/Makefile"
	printf '\n# detasklet BH suite (added by scripts/tasklet-free.sh)\n'
	# shellcheck disable=SC2016 # a make variable, not a shell one
	printf 'obj-$(CONFIG_DETASKLET_BH_KUNIT_TEST) += detasklet_bh.o\n'
} > "$t"
replace_file "$SRC/lib/Makefile" "$t"

echo "$PROG: tasklet API left in the patched tree (before the build):"
$PY -m detasklet.builtcheck "$SRC" | sed 's/^/  /'

# ---- 3. build, boot, test ------------------------------------------------------
LOG=$TB/kunit.log
JSON=$TB/results.json
rm -f "$JSON"
set +e
(
	cd "$SRC" &&
	PYTHONDONTWRITEBYTECODE=1 python3 tools/testing/kunit/kunit.py run \
		--arch=um --kunitconfig="$KUNITCONFIG" --build_dir="$BOUT" \
		--jobs="${KUNIT_JOBS:-2}" --timeout="${KUNIT_TIMEOUT:-600}" --json="$JSON"
) 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}
set -e

if [ -n "$(find "$KDIR" -newer "$MARK" -print -quit 2>/dev/null)" ]; then
	echo "$PROG: error: files in KDIR '$KDIR' changed during the run: $(find "$KDIR" -newer "$MARK" -print -quit)" >&2
	exit 3
fi

# ---- 4. what the build compiled ------------------------------------------------
echo
echo "==== what this build compiled ===="
set +e
$PY -m detasklet.builtcheck "$SRC" --build "$BOUT" --report "$OUTD/report.json" \
	--list-out "$TB/converted-compiled.txt"
CHECK=$?
set -e
END=$(date +%s)

echo
echo "==== KUnit TAP summary ($SUITE_NAME, tasklet-free kernel, $((END - START)) s) ===="
if [ -f "$BOUT/test.log" ]; then
	awk -v s="$SUITE_NAME" '
		/^[[:space:]]*# Subtest: / && $NF == s { on = 1 }
		on && /^[[:space:]]*(1\.\.[0-9]+|(not )?ok [0-9]+ )/ { print }
		/^[[:space:]]*# / && ($2 == s":" || $2 == "Totals:") && / pass:/ { print }
		on && /^(not )?ok [0-9]+ / && $0 ~ s { on = 0 }
	' "$BOUT/test.log" | sed 's/^[[:space:]]*\[[^]]*\] //'
else
	echo "(no $BOUT/test.log: the kernel did not build or boot)"
fi
grep -E 'Testing complete\.|Ran [0-9]+ tests' "$LOG" | tail -n 2 || true
[ "$RC" = 0 ] || exit "$RC"
[ "$CHECK" = 0 ] || { echo "$PROG: error: a compiled file still names the tasklet API" >&2; exit 1; }
echo "$PROG: OK in $((END - START)) s"
