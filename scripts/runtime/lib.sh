# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by each workload of make runtime (in a subshell of /init).
# fig KEY VALUE: a figure the host collects; fail TEXT: stop with rc 1;
# ns NAME CMD...: run CMD in network namespace NAME;
# wait_for SECS CMD...: retry CMD once a second until it succeeds.
set -e
. /etc/detasklet/tools.sh
fig() { echo "@@detasklet figure $W $1 $2"; }
fail() { echo "@@detasklet fail $W $*"; exit 1; }
ns() { n=$1; shift; ip netns exec "$n" "$@"; }
wait_for() {
	s=$1; shift
	while [ "$s" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1; s=$((s - 1))
	done
	return 1
}
# in NS (- for this namespace): run CMD...
in_ns() { n=$1; shift; if [ "$n" = - ]; then "$@"; else ip netns exec "$n" "$@"; fi; }
# iperf NAME NS ADDR SECS: iperf3 TCP from NS to ADDR (a server runs there);
# "fig NAME_mbit N", the receiver's rate.
iperf() {
	name=$1 n=$2 addr=$3 secs=$4
	out=$(in_ns "$n" iperf3 -c "$addr" -t "$secs" -f m 2>&1) || { echo "$out"; fail "iperf3 to $addr"; }
	echo "$out" | tail -n 4
	rate=$(echo "$out" | awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i } END { print r }')
	[ -n "$rate" ] || fail "iperf3 printed no receiver rate"
	fig "${name}_mbit" "$rate"
}
# pingc NAME NS ADDR COUNT: "fig NAME_loss_pct P", "fig NAME_avg_ms MS" and
# "fig NAME_p99_ms MS";
# fails on any loss.
pingc() {
	name=$1 n=$2 addr=$3 count=$4
	out=$(in_ns "$n" ping -c "$count" -i 0.2 -W 2 "$addr" 2>&1) || true
	echo "$out" | tail -n 2
	loss=$(echo "$out" | sed -n 's/.* \([0-9]*\)% packet loss.*/\1/p')
	avg=$(echo "$out" | sed -n 's|.*= [0-9.]*/\([0-9.]*\)/.*|\1|p')
	fig "${name}_loss_pct" "${loss:-100}"
	[ -z "$avg" ] || fig "${name}_avg_ms" "$avg"
	# p99: the round trips sorted, the ceil(0.99 n)-th (of 20: the slowest)
	p99=$(echo "$out" | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) { i = int((NR * 99 + 99) / 100); print v[i] } }')
	[ -z "$p99" ] || fig "${name}_p99_ms" "$p99"
	[ "${loss:-100}" = 0 ] || fail "ping $addr: ${loss:-100}% loss"
}
# iperf_server NS: one iperf3 server in NS, for one client
iperf_server() { in_ns "$1" iperf3 -s -D -1; sleep 1; }
