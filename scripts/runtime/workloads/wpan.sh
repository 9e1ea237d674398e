# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# mac802154 and mac802154_hwsim: two radios on one PAN; wpan-ping from
# wpan0 to a wpan-ping daemon on wpan1. Both stay in the first network
# namespace: the kernel's 802.15.4 sockets exist only there.
wait_for 10 iwpan phy phy1 info || fail "no second 802.15.4 radio (mac802154_hwsim)"
iwpan dev wpan0 set pan_id 0xbeef
iwpan dev wpan0 set short_addr 0x0001
iwpan dev wpan1 set pan_id 0xbeef
iwpan dev wpan1 set short_addr 0x0002
ip link set wpan0 up
ip link set wpan1 up
iwpan dev | grep -E 'Interface|short_addr|pan_id'
wpan-ping -d -i wpan1 > /tmp/wpan-d.log 2>&1 &
d=$!
sleep 1
out=$(wpan-ping -a 0x0002 -c 20 -I 100 -i wpan0 2>&1) || true
kill $d 2>/dev/null || true
echo "$out" | tail -n 4
n=$(echo "$out" | sed -n 's/.* transmitted, \([0-9]*\) received.*/\1/p')
fig wpan_replies "${n:-0}"
[ "${n:-0}" -ge 20 ] || { cat /tmp/wpan-d.log; fail "wpan-ping: ${n:-0} replies of 20"; }
