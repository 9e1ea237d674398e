#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/kunit.sh KDIR [--arch um|x86_64] [--cpus N]
#                       [--break NAME | --break-enable | --break-in-atomic]
#
# Run the detasklet_contract KUnit suite (tests/kunit/detasklet_contract.c)
# against the kernel tree KDIR, which is never written:
#
#   1. KDIR is copied to $KUNIT_BUILD/src with hard links (cp -al; plain cp -a
#      if KDIR is on another file system).  The copy is reused across runs and
#      remade only when KDIR changes.
#   2. The suite is added to the copy: lib/detasklet_contract.c,
#      lib/Kconfig.detasklet (sourced from lib/Kconfig.debug) and one obj- line
#      in lib/Makefile.  Every file touched in the copy is written to a temporary
#      name and renamed over the old one (scripts/kunit-lib.sh), so a hard link
#      shared with KDIR is replaced, never written through; unchanged files are
#      left alone so the build stays incremental.
#   3. tools/testing/kunit/kunit.py run in the copy: on UML (--arch um, the
#      default; one CPU, the cross-CPU cases skip), or on QEMU x86_64 with
#      --cpus CPUs (default 2; CONFIG_SMP=y, no KVM needed), with the build
#      directory $KUNIT_BUILD/out (UML) or $KUNIT_BUILD/out-x86_64.
#
# Normal mode exits with kunit.py's status.
# --break NAME builds the suite with -DDETASKLET_CONTRACT_BREAK_NAME (the
# switches and the case each must fail are in tests/kunit/breaks.txt) and
# exits 0 only if that case FAILED and every other case passed or was
# skipped, i.e. it proves the suite catches that broken mapping.  A switch
# marked smp needs --arch x86_64.  --break-enable and --break-in-atomic are
# --break ENABLE and --break IN_ATOMIC.
#
# Environment:
#   KUNIT_BUILD  scratch directory (default build/kunit, relative to the
#                project root)
#   KUNIT_JOBS   make jobs (default 2)
#   KUNIT_TIMEOUT  kunit.py --timeout in seconds (default 600)
#   KUNIT_ACCEL  tcg (default: QEMU on TCG even where /dev/kvm exists) or
#                auto (kunit.py's kvm, hvf, tcg order); see kl_tcg

set -euo pipefail

PROG=kunit.sh
# shellcheck source=scripts/kunit-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/kunit-lib.sh"
SUITE_C=$KL_PROJ/tests/kunit/detasklet_contract.c
KUNITCONFIG=$KL_PROJ/tests/kunit/.kunitconfig
BREAKS=$KL_PROJ/tests/kunit/breaks.txt
SUITE_NAME=detasklet_contract
USAGE="usage: scripts/kunit.sh KDIR [--arch um|x86_64] [--cpus N] [--break NAME | --break-enable | --break-in-atomic]"

usage() { echo "$USAGE" >&2; exit 2; }

KDIR=
BREAK=
ARCH=um
CPUS=2
while [ $# -gt 0 ]; do
	case $1 in
	--break-enable) BREAK=ENABLE ;;
	--break-in-atomic) BREAK=IN_ATOMIC ;;
	--break) [ $# -ge 2 ] || die "--break needs a NAME (see $BREAKS)"; BREAK=$2; shift ;;
	--break=*) BREAK=${1#--break=} ;;
	--arch) [ $# -ge 2 ] || die "--arch needs um or x86_64"; ARCH=$2; shift ;;
	--arch=*) ARCH=${1#--arch=} ;;
	--cpus) [ $# -ge 2 ] || die "--cpus needs a number"; CPUS=$2; shift ;;
	--cpus=*) CPUS=${1#--cpus=} ;;
	-h|--help) usage ;;
	-*) die "unknown option '$1' ($USAGE)" ;;
	*) [ -z "$KDIR" ] || die "more than one KDIR given ('$KDIR', '$1')"
	   KDIR=$1 ;;
	esac
	shift
done
[ -n "$KDIR" ] || usage
case $ARCH in um|x86_64) ;; *) die "--arch '$ARCH': only um and x86_64 are supported" ;; esac
case $CPUS in ''|*[!0-9]*|0) die "--cpus '$CPUS' is not a positive number" ;; esac

MODE=normal
if [ -n "$BREAK" ]; then
	row=$(awk -v n="$BREAK" '!/^#/ && $1 == n' "$BREAKS")
	[ -n "$row" ] || die "unknown break switch '$BREAK' (see $BREAKS)"
	read -r _ WHERE BROKEN_CASE BROKEN_WHAT <<< "$row"
	if [ "$WHERE" = smp ] && [ "$ARCH" = um ]; then
		die "break switch $BREAK needs 2 CPUs: add --arch x86_64"
	fi
	MODE=break-$(echo "$BREAK" | tr 'A-Z_' 'a-z-')
fi

kl_kdir "$KDIR"
kl_need_bh
for f in "$SUITE_C" "$KL_PROJ/tests/kunit/Kconfig.fragment" "$KUNITCONFIG" "$BREAKS"; do
	[ -f "$f" ] || die "missing project file $f"
done

kl_scratch KUNIT_BUILD build/kunit
SRC=$KB/src
OUT=$KB/out
[ "$ARCH" = um ] || OUT=$KB/out-$ARCH

# Identity of KDIR: path + version + mtime of its top Makefile.
kl_copy "$SRC" "$KDIR $KVER $(stat -c %Y "$KDIR/Makefile")"
kl_install "$SRC" lib/detasklet_contract.c "$SUITE_C"
# shellcheck disable=SC2016 # make variables, not shell ones
kl_add_suites "$SRC" 'obj-$(CONFIG_DETASKLET_CONTRACT_KUNIT_TEST) += detasklet_contract.o' \
	${BREAK:+"CFLAGS_detasklet_contract.o += -DDETASKLET_CONTRACT_BREAK_$BREAK"}

# ---- run -------------------------------------------------------------------
LOG=$KB/kunit-$ARCH-$MODE.log
JSON=$KB/results-$ARCH-$MODE.json
MARK=$KB/.run-start
touch "$MARK"
ARGS=(--arch="$ARCH")
if [ "$ARCH" != um ]; then
	ARGS+=(--kconfig_add CONFIG_SMP=y --qemu_args="-smp $CPUS")
	kl_tcg "$KB/bin"
fi

echo "$PROG: Linux $KVER, $ARCH$([ "$ARCH" = um ] || echo " -smp $CPUS"), mode $MODE, build dir $OUT, jobs ${KUNIT_JOBS:-2}"
START=$(date +%s)
kl_kunit "$SRC" "$OUT" "$KUNITCONFIG" "$JSON" "$LOG" "${ARGS[@]}"
END=$(date +%s)
kl_untouched "$MARK"

echo
echo "==== KUnit TAP summary ($SUITE_NAME, $ARCH, mode $MODE, $((END - START)) s) ===="
kl_summary "$OUT/test.log" "$SUITE_NAME"
grep -E 'Testing complete\.|Ran [0-9]+ tests' "$LOG" | tail -n 2 || true

if [ -z "$BREAK" ]; then
	exit "$RC"
fi
# --break: succeed only if the broken case failed and the rest passed or skipped.
kl_expect_one_failure "$JSON" "$SUITE_NAME" "$BROKEN_CASE" "$MODE ($ARCH)" "$BROKEN_WHAT"
