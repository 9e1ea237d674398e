# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# net/smc: SMC-D over the loopback ISM device (7.3: DIBS_LO's "lo" dibs
# device; 6.12: SMC_LO's loopback-ism). smc-stream (tests/runtime/
# smc-stream.c) serves on an AF_SMC socket; the client makes 200 round trips
# of 64 bytes and sends 64 MiB. The SMC counters (generic netlink) before
# and after must show SMC-D carrying the bytes, not the TCP fallback.
MB=${SMC_MB:-64}
# SMC-D v2 needs an EID both ends share; outside s390 there is no system
# EID, and without a user EID the server declines (SMC_CLC_DECL_NOUEID)
smc-stream ueid DETASKLET-RUNTIME || fail "no user EID (SMC_NETLINK_ADD_UEID)"
s0=$(smc-stream stats) || fail "no SMC counters (generic netlink SMC_GEN_NETLINK)"
echo "before: $s0"
smc-stream server 7100 > /tmp/smc-server.log 2>&1 &
srv=$!
sleep 1
p=$(smc-stream ping 127.0.0.1 7100 200) || { cat /tmp/smc-server.log; fail "smc-stream ping"; }
echo "$p"
b=$(smc-stream bulk 127.0.0.1 7100 "$MB") || { cat /tmp/smc-server.log; fail "smc-stream bulk"; }
echo "$b"
s1=$(smc-stream stats)
echo "after: $s1"
kill $srv 2>/dev/null || true
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
fig smc_mbit "$(val "$b" mbit)"
fig smc_ping_avg_ms "$(awk -v u="$(val "$p" avg_us)" 'BEGIN { printf "%.3f", u / 1000 }')"
fig smc_ping_p99_ms "$(awk -v u="$(val "$p" p99_us)" 'BEGIN { printf "%.3f", u / 1000 }')"
dtx=$(( $(val "$s1" smcd_tx_bytes) - $(val "$s0" smcd_tx_bytes) ))
dconn=$(( $(val "$s1" smcd_conn) - $(val "$s0" smcd_conn) ))
fig smcd_tx_bytes "$dtx"
fig smcd_connections "$dconn"
# client and server side of each of the 2 connections
[ "$dconn" -ge 4 ] || fail "SMC-D counted $dconn connection ends of 4: the TCP fallback carried them"
[ "$dtx" -ge $((MB << 20)) ] || fail "SMC-D sent $dtx bytes, fewer than the $MB MiB moved"
