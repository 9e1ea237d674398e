# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# mac802154 and mac802154_hwsim: two radios on one PAN, the second one in
# netns "wpan"; wpan-ping from wpan0 to a wpan-ping daemon on wpan1.
wait_for 10 iwpan phy phy1 info || fail "no second 802.15.4 radio (mac802154_hwsim)"
iwpan dev
ip netns add wpan
iwpan dev wpan0 set pan_id 0xbeef
iwpan dev wpan0 set short_addr 0x0001
iwpan dev wpan1 set pan_id 0xbeef
iwpan dev wpan1 set short_addr 0x0002
iwpan phy phy1 set netns name wpan
ip link set wpan0 up
ns wpan ip link set wpan1 up
ns wpan wpan-ping -d -i wpan1 > /tmp/wpan-d.log 2>&1 &
sleep 1
out=$(wpan-ping -a 0x0002 -c 20 -I 100 -i wpan0 2>&1) || { echo "$out"; fail "wpan-ping failed"; }
echo "$out" | tail -n 4
n=$(echo "$out" | grep -c -i 'from' || true)
fig wpan_replies "$n"
[ "$n" -ge 20 ] || fail "wpan-ping: $n replies of 20"
