#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/bench.sh KDIR OUT
#
# make bench: the detasklet_bench KUnit suite (tests/kunit/detasklet_bench.c)
# built into KDIR's kernel and run on UML (one CPU) and on QEMU x86_64 with
# $BENCH_CPUS CPUs (default 2, TCG: no KVM needed), then read by
# "python3 -m detasklet.check.bench" into OUT/bench/bench.json,
# OUT/bench/latency.png and a table on the terminal.  docs/bench.md says
# what is measured and how to read it.
#
# KDIR is never written: it is copied with hard links to $BENCH_BUILD/src
# and the suite is added there by rename (scripts/kunit-lib.sh).  The per-CPU
# process-context workqueue is system_percpu_wq when KDIR's
# include/linux/workqueue.h declares it, else system_wq.
#
# Each arch boots BENCH_BOOTS times (default 3; the boots of the arches
# alternate), one test.log each (OUT/bench/ARCH.N.log): bench.json has the
# median of each ratio over the boots and its spread.
#
# BENCH_RT=1 builds the x86_64 kernel with CONFIG_PREEMPT_RT (UML cannot:
# it does not select ARCH_SUPPORTS_RT), in a build folder of its own.
#
# Environment: BENCH_BUILD (default build/bench), BENCH_ARCHES (default
# "um x86_64"), BENCH_CPUS (2), BENCH_BOOTS (3), BENCH_RT (0), KUNIT_JOBS (2),
# KUNIT_TIMEOUT (1800), KUNIT_ACCEL (tcg, or auto: see kl_tcg in
# scripts/kunit-lib.sh).

set -euo pipefail

PROG=bench.sh
# shellcheck source=scripts/kunit-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/kunit-lib.sh"
SUITE_C=$KL_PROJ/tests/kunit/detasklet_bench.c
KUNITCONFIG=$KL_PROJ/tests/kunit/bench.kunitconfig
SUITE_NAME=detasklet_bench
PY="env PYTHONPATH=$KL_PROJ/scripts PYTHONDONTWRITEBYTECODE=1 python3"

[ $# -eq 2 ] || { echo "usage: scripts/bench.sh KDIR OUT" >&2; exit 2; }
kl_kdir "$1"
kl_need_bh
OUTD=$2
ARCHES=${BENCH_ARCHES:-um x86_64}
CPUS=${BENCH_CPUS:-2}
case $CPUS in ''|*[!0-9]*|0|1) die "BENCH_CPUS '$CPUS' must be a number >= 2" ;; esac
BOOTS=${BENCH_BOOTS:-3}
case $BOOTS in ''|*[!0-9]*|0) die "BENCH_BOOTS '$BOOTS' must be a number >= 1" ;; esac
RT=${BENCH_RT:-0}
case $RT in 0) RT= ;; 1) ;; *) die "BENCH_RT '$RT' must be 0 or 1" ;; esac
for a in $ARCHES; do
	case $a in um|x86_64) ;; *) die "BENCH_ARCHES: '$a' is not um or x86_64" ;; esac
	[ -z "$RT" ] || [ "$a" != um ] || die "BENCH_RT=1: UML has no PREEMPT_RT; use BENCH_ARCHES=x86_64"
done
for f in "$SUITE_C" "$KL_PROJ/tests/kunit/Kconfig.fragment" "$KUNITCONFIG"; do
	[ -f "$f" ] || die "missing project file $f"
done
if [ "$ARCHES" != um ]; then
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 not found (make bench installs qemu-system-x86)"
fi

OUTD=$(realpath -m -- "$OUTD")
case "$OUTD/" in "$KDIR"/*) die "OUT '$OUTD' is inside KDIR; KDIR must not be written" ;; esac
# A new OUT gets the marker of a detasklet OUT (out/place.py), so that make
# convert may write into it later; it keeps bench/, which the cover letters
# of the series quote (series/hotpaths.py).
FRESH=
[ -n "$(ls -A "$OUTD" 2>/dev/null)" ] || FRESH=1
mkdir -p "$OUTD/bench"
if [ -n "$FRESH" ]; then
	$PY -c 'import sys; from pathlib import Path; from detasklet import __version__
from detasklet.out.staging import write_marker
write_marker(Path(sys.argv[1]), sys.argv[2], __version__)' "$OUTD" "$KVER"
fi

kl_scratch BENCH_BUILD build/bench
SRC=$KB/src
MARK=$KB/.run-start
touch "$MARK"
START=$(date +%s)

if grep -q 'extern struct workqueue_struct \*system_percpu_wq;' "$KDIR/include/linux/workqueue.h"; then
	PERCPU=-DDT_BENCH_HAVE_PERCPU_WQ
	PERCPU_WQ=system_percpu_wq
else
	PERCPU=
	PERCPU_WQ=system_wq
fi
echo "$PROG: Linux $KVER, per-CPU process-context workqueue: $PERCPU_WQ (from include/linux/workqueue.h)"

kl_copy "$SRC" "$KDIR $KVER $(stat -c %Y "$KDIR/Makefile")"
kl_install "$SRC" lib/detasklet_bench.c "$SUITE_C"
# shellcheck disable=SC2016 # make variables, not shell ones
kl_add_suites "$SRC" 'obj-$(CONFIG_DETASKLET_BENCH_KUNIT_TEST) += detasklet_bench.o' \
	${PERCPU:+"CFLAGS_detasklet_bench.o += $PERCPU"}

[ "$ARCHES" = um ] || kl_tcg "$KB/bin"
LOGS=()
for i in $(seq 1 "$BOOTS"); do
	for a in $ARCHES; do
		args=(--arch="$a")
		[ "$a" = um ] || args+=(--kconfig_add CONFIG_SMP=y --qemu_args="-smp $CPUS")
		[ -z "$RT" ] || args+=(--kconfig_add CONFIG_EXPERT=y --kconfig_add CONFIG_PREEMPT_RT=y)
		echo "$PROG: ==== $a$([ "$a" = um ] || echo " -smp $CPUS"), boot $i of $BOOTS: build and run ($(date -u +%T))"
		t0=$(date +%s)
		KUNIT_TIMEOUT=${KUNIT_TIMEOUT:-1800} \
			kl_kunit "$SRC" "$KB/out-$a${RT:+-rt}" "$KUNITCONFIG" "$KB/results-$a.json" "$KB/kunit-$a.log" "${args[@]}"
		echo "$PROG: $a boot $i done in $(( $(date +%s) - t0 )) s, kunit.py status $RC"
		kl_summary "$KB/out-$a${RT:+-rt}/test.log" "$SUITE_NAME"
		[ -f "$KB/out-$a${RT:+-rt}/test.log" ] || die "$a: no test.log; the kernel did not build or boot (see $KB/kunit-$a.log)"
		cp "$KB/out-$a${RT:+-rt}/test.log" "$OUTD/bench/$a.$i.log"
		LOGS+=(--log "$a=$OUTD/bench/$a.$i.log")
		[ "$RC" = 0 ] || die "$a: the benchmark suite failed (see $OUTD/bench/$a.$i.log)"
	done
done
kl_untouched "$MARK"

# The command that reproduces the run: the settings that differ from the
# defaults, and what QEMU ran on when it is known (KUNIT_ACCEL=tcg).
CMD="make bench KDIR=$KDIR"
[ "$ARCHES" = "um x86_64" ] || CMD+=" BENCH_ARCHES='$ARCHES'"
[ "$CPUS" = 2 ] || CMD+=" BENCH_CPUS=$CPUS"
[ "$BOOTS" = 3 ] || CMD+=" BENCH_BOOTS=$BOOTS"
[ -z "$RT" ] || CMD+=" BENCH_RT=1"
[ "${KUNIT_ACCEL:-tcg}" = tcg ] || CMD+=" KUNIT_ACCEL=$KUNIT_ACCEL"
ACCEL=()
[ "${KUNIT_ACCEL:-tcg}" != tcg ] || ACCEL=(--accel tcg)
$PY -m detasklet bench "${LOGS[@]}" -o "$OUTD/bench" \
	--command "$CMD" --kernel "$KVER" "${ACCEL[@]}"
echo "$PROG: OK in $(( $(date +%s) - START )) s (build and run: $ARCHES)"
