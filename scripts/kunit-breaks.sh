#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/kunit-breaks.sh KDIR [NAME...]
#
# make kunit-breaks: every break switch of tests/kunit/breaks.txt (or the
# NAMEs given), each through scripts/kunit.sh KDIR --break NAME: on UML for
# a switch marked uml, on QEMU x86_64 with $CPUS CPUs (default 2) for one
# marked smp.  Each must fail exactly its case, the others passing or
# skipping.  One line per switch, then "N passed, N failed"; exit 1 if any
# switch was not caught.  The full output of each run is in
# $KUNIT_BUILD/breaks/NAME.log.

set -euo pipefail

# shellcheck disable=SC2034 # read by die() in kunit-lib.sh
PROG=kunit-breaks.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/kunit-lib.sh
. "$HERE/kunit-lib.sh"
BREAKS=$KL_PROJ/tests/kunit/breaks.txt

[ $# -ge 1 ] || { echo "usage: scripts/kunit-breaks.sh KDIR [NAME...]" >&2; exit 2; }
KDIR_ARG=$1
shift
kl_kdir "$KDIR_ARG"
CPUS=${CPUS:-2}
LOGDIR=${KUNIT_BUILD:-build/kunit}
case $LOGDIR in /*) ;; *) LOGDIR=$KL_PROJ/$LOGDIR ;; esac
LOGDIR=$LOGDIR/breaks
mkdir -p "$LOGDIR"

mapfile -t ROWS < <(awk '!/^#/ && NF' "$BREAKS")
if [ $# -gt 0 ]; then
	for n in "$@"; do
		printf '%s\n' "${ROWS[@]}" | awk -v n="$n" '$1 == n {f = 1} END {exit !f}' ||
			die "unknown break switch '$n' (see $BREAKS)"
	done
fi

pass=0
fail=0
for row in "${ROWS[@]}"; do
	read -r name where case what <<< "$row"
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	args=(--break "$name")
	[ "$where" = smp ] && args+=(--arch x86_64 --cpus "$CPUS")
	t0=$(date +%s)
	if "$HERE/kunit.sh" "$KDIR" "${args[@]}" > "$LOGDIR/$name.log" 2>&1; then
		pass=$((pass + 1))
		echo "ok   $name ($where): $case failed with $what, the rest passed or skipped ($(( $(date +%s) - t0 )) s)"
	else
		fail=$((fail + 1))
		echo "FAIL $name ($where): $(grep -E 'kunit: |error' "$LOGDIR/$name.log" | tail -n 1) (log: $LOGDIR/$name.log)"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
