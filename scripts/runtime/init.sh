#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the make runtime guest (built by check/runtime/initramfs.py).
# Runs each workload named in /etc/detasklet/workloads, in order, with the
# function profiler on the converted callbacks of /etc/detasklet/functions,
# and prints on the console (the serial log the host reads):
#   @@detasklet begin NAME
#   ... the workload's output, the kernel's lines in between ...
#   @@detasklet figure NAME KEY VALUE      (from the workload, through fig)
#   @@detasklet hit NAME FUNCTION COUNT    (the profiler, summed over CPUs)
#   @@detasklet end NAME rc=N secs=S
# then @@detasklet done and reboots (QEMU runs with -no-reboot: it exits).
/bin/busybox mkdir -p /bbin
/bin/busybox --install -s /bbin
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/bbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /run/netns
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t configfs configfs /sys/kernel/config
ip link set lo up
T=/sys/kernel/tracing
up() { cut -d' ' -f1 /proc/uptime; }
# the profiler: the converted callbacks this kernel has (a missing name
# is left out: it was not built, or is inlined or notrace)
: > /tmp/filter
if [ -w $T/set_ftrace_filter ]; then
	while read -r f; do
		[ -n "$f" ] && echo "$f" >> $T/set_ftrace_filter 2>/dev/null && echo "$f" >> /tmp/filter
	done < /etc/detasklet/functions
fi
echo "@@detasklet profiled $(wc -l < /tmp/filter)"
hits() {
	[ -s /tmp/filter ] || return 0
	cat $T/trace_stat/function* 2>/dev/null |
		awk -v w="$1" 'NF >= 2 && $2 ~ /^[0-9]+$/ { n[$1] += $2 }
			END { for (f in n) printf "@@detasklet hit %s %s %d\n", w, f, n[f] }'
}
for w in $(cat /etc/detasklet/workloads); do
	echo "@@detasklet begin $w"
	# (an empty filter would profile every function of the kernel)
	if [ -s /tmp/filter ]; then
		echo 0 > $T/function_profile_enabled
		echo 1 > $T/function_profile_enabled
	fi
	t0=$(up)
	( export W=$w; . /etc/detasklet/lib.sh; . /etc/detasklet/w/$w.sh ) < /dev/null 2>&1
	rc=$?
	t1=$(up)
	[ -s /tmp/filter ] && echo 0 > $T/function_profile_enabled
	hits "$w"
	echo "@@detasklet end $w rc=$rc secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
done
sync
echo "@@detasklet done"
# no ACPI in this kernel: a reboot, which QEMU (-no-reboot) turns into its exit
reboot -f
