# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# ppp_async, then ppp_synctty: pppd on both ends of a pty pair (the outer
# pppd runs the inner one with "pty"; the inner one, in netns "ppp", makes
# its own pty with "notty"); ping across each link.
ip netns add ppp
ns ppp ip link set lo up
link() {
	name=$1 sync=$2
	pppd nodetach noauth local nodefaultroute nodeflate nobsdcomp novj $sync \
		10.0.5.1:10.0.5.2 lcp-echo-interval 0 \
		pty "$BIN_ip netns exec ppp $BIN_pppd nodetach noauth local notty nodeflate nobsdcomp novj $sync" \
		> /tmp/pppd-$name.log 2>&1 &
	pid=$!
	linkup() { ip -o addr show | grep -q 'inet 10.0.5.1 peer'; }
	wait_for 30 linkup ||
		{ cat /tmp/pppd-$name.log; kill $pid; fail "$name: the ppp link did not come up"; }
	pingc "$name" - 10.0.5.2 20
	kill $pid
	wait $pid || true
	sleep 1
}
link ppp_async ""
link ppp_sync sync
