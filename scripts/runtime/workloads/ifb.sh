# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# ifb: the ingress of a veth redirected to ifb0 with tc mirred; ping and
# iperf3 through it, ifb0's counters read before and after.
ip netns add peer
ip link add v0 type veth peer name v1
ip link set v1 netns peer
ip addr add 10.0.2.1/24 dev v0
ns peer ip addr add 10.0.2.2/24 dev v1
ip link set v0 up
ns peer ip link set v1 up
ns peer ip link set lo up
ip link add ifb0 type ifb 2>/dev/null || true
ip link set ifb0 up
tc qdisc add dev v0 handle ffff: ingress
tc filter add dev v0 parent ffff: matchall action mirred egress redirect dev ifb0
rx0=$(cat /sys/class/net/ifb0/statistics/rx_packets)
pingc ifb_ping peer 10.0.2.1 20
iperf_server -
iperf ifb peer 10.0.2.1 5
rx1=$(cat /sys/class/net/ifb0/statistics/rx_packets)
tx1=$(cat /sys/class/net/ifb0/statistics/tx_packets)
fig ifb_rx_packets "$((rx1 - rx0))"
fig ifb_tx_packets "$tx1"
[ $((rx1 - rx0)) -gt 100 ] || fail "ifb0 saw $((rx1 - rx0)) packets: mirred did not redirect"
# teardown: the redirect removed and ifb0 deleted (ifb_dev_free())
tc qdisc del dev v0 ingress
ip link del ifb0
ip link del v0
