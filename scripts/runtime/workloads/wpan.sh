# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# mac802154 and mac802154_hwsim: two radios on one PAN; wpan-ping from
# wpan0 to a wpan-ping daemon on wpan1. Both stay in the first network
# namespace: the kernel's 802.15.4 sockets exist only there.
#
# wpan-ping (wpan-tools 0.9) does not ask for the interface -i names: it
# dumps every 802.15.4 interface and binds the address of the last one
# dumped (wpan0, the first radio's). With both interfaces there, daemon and
# client bind the same address and no reply ever comes back. So the daemon
# is started while wpan1 is the only interface, and wpan0 is added after.
wait_for 10 iwpan phy phy1 info || fail "no second 802.15.4 radio (mac802154_hwsim)"
iwpan dev wpan0 del
iwpan dev wpan1 set pan_id 0xbeef
iwpan dev wpan1 set short_addr 0x0002
ip link set wpan1 up
wpan-ping -d -i wpan1 > /tmp/wpan-d.log 2>&1 &
d=$!
sleep 1
iwpan phy phy0 interface add wpan0 type node
iwpan dev wpan0 set pan_id 0xbeef
iwpan dev wpan0 set short_addr 0x0001
ip link set wpan0 up
iwpan dev | grep -E 'Interface|short_addr|pan_id'
rx0=$(cat /sys/class/net/wpan1/statistics/rx_packets)
out=$(wpan-ping -a 0x0002 -c 20 -I 100 -i wpan0 2>&1) || true
rx1=$(cat /sys/class/net/wpan1/statistics/rx_packets)
# (no round-trip figure: wpan-ping starts its clock after sendto(), by
# when hwsim has often delivered the reply already)
kill $d 2>/dev/null || true
echo "$out" | tail -n 4
n=$(echo "$out" | sed -n 's/.* transmitted, \([0-9]*\) received.*/\1/p')
fig wpan_replies "${n:-0}"
fig wpan1_rx_packets "$((rx1 - rx0))"
[ "${n:-0}" -ge 20 ] || { cat /tmp/wpan-d.log; fail "wpan-ping: ${n:-0} replies of 20"; }
