# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# megaraid_sas: QEMU's -device megasas (LSI MegaRAID SAS 1078) with a raw
# disk. Write MB of random data, sync, drop the caches, read back and
# compare; remove the PCI device, rescan, and read it back again.
MB=${MEGARAID_MB:-128}
dev=$(ls -d /sys/bus/pci/drivers/megaraid_sas/0000:* 2>/dev/null | head -n 1)
[ -n "$dev" ] || fail "megaraid_sas bound to no PCI device"
disk() { for b in /sys/block/sd*; do [ -e "$b" ] && readlink -f "$b" | grep -q "${dev##*/}" && echo "${b##*/}"; done | head -n 1; }
wait_for 30 sh -c "ls /sys/block | grep -q '^sd'" || fail "no disk behind megaraid_sas"
d=$(disk)
[ -n "$d" ] || fail "no sd disk under ${dev##*/}"
echo "disk /dev/$d under ${dev##*/}"
dd if=/dev/urandom of=/tmp/pattern bs=1M count="$MB" 2>/dev/null
want=$(md5sum < /tmp/pattern | cut -d' ' -f1)
t0=$(cut -d' ' -f1 /proc/uptime)
dd if=/tmp/pattern of=/dev/"$d" bs=1M conv=fsync 2>/dev/null
sync
t1=$(cut -d' ' -f1 /proc/uptime)
echo 3 > /proc/sys/vm/drop_caches
got=$(dd if=/dev/"$d" bs=1M count="$MB" 2>/dev/null | md5sum | cut -d' ' -f1)
t2=$(cut -d' ' -f1 /proc/uptime)
[ "$got" = "$want" ] || fail "read back $got, wrote $want"
fig written_mb "$MB"
fig write_mb_s "$(awk -v m="$MB" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", m / (b - a) }')"
fig read_mb_s "$(awk -v m="$MB" -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", m / (b - a) }')"
echo 1 > "$dev/remove"
sleep 1
[ -z "$(disk)" ] || fail "/dev/$d still there after the PCI remove"
echo 1 > /sys/bus/pci/rescan
wait_for 30 sh -c "ls -d /sys/bus/pci/drivers/megaraid_sas/0000:* && ls /sys/block | grep -q '^sd'" ||
	fail "megaraid_sas did not come back after the rescan"
dev=$(ls -d /sys/bus/pci/drivers/megaraid_sas/0000:* | head -n 1)
d=$(disk)
echo 3 > /proc/sys/vm/drop_caches
got=$(dd if=/dev/"$d" bs=1M count="$MB" 2>/dev/null | md5sum | cut -d' ' -f1)
[ "$got" = "$want" ] || fail "after remove and rescan: read back $got, wrote $want"
fig readd verified
