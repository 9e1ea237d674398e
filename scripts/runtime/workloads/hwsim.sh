# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# mac80211 and mac80211_hwsim: hostapd (WPA2-PSK, CCMP) on phy0 in netns
# "ap", wpa_supplicant on phy1 in netns "sta"; associate, ping, iperf3.
wait_for 10 iw phy phy1 info || fail "mac80211_hwsim radios missing"
ip netns add ap
ip netns add sta
iw phy phy0 set netns name ap
iw phy phy1 set netns name sta
wlan() { ns "$1" iw dev | awk '$1 == "Interface" { print $2; exit }'; }
ap=$(wlan ap)
sta=$(wlan sta)
[ -n "$ap" ] && [ -n "$sta" ] || fail "no wireless interface in the namespaces"
ns ap ip link set lo up
ns sta ip link set lo up
cat > /tmp/hostapd.conf <<EOC
interface=$ap
driver=nl80211
ssid=detasklet
hw_mode=g
channel=1
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=detasklet-runtime
ctrl_interface=/run/hostapd
EOC
cat > /tmp/wpa.conf <<EOC
ctrl_interface=/run/wpa_supplicant
network={
	ssid="detasklet"
	key_mgmt=WPA-PSK
	proto=RSN
	pairwise=CCMP
	psk="detasklet-runtime"
}
EOC
ns ap hostapd -B -P /tmp/hostapd.pid /tmp/hostapd.conf
ns sta wpa_supplicant -B -D nl80211 -P /tmp/wpa.pid -i "$sta" -c /tmp/wpa.conf
t0=$(cut -d' ' -f1 /proc/uptime)
associated() { ns sta wpa_cli -i "$sta" status | grep -q wpa_state=COMPLETED; }
wait_for 60 associated ||
	{ ns sta wpa_cli -i "$sta" status || true; fail "WPA2 association did not complete"; }
t1=$(cut -d' ' -f1 /proc/uptime)
ns sta wpa_cli -i "$sta" status | grep -E '^(ssid|pairwise_cipher|key_mgmt|wpa_state)='
fig assoc_secs "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
ns ap ip addr add 10.0.1.1/24 dev "$ap"
ns sta ip addr add 10.0.1.2/24 dev "$sta"
ns ap ip link set "$ap" up
ns sta ip link set "$sta" up
pingc hwsim_ping sta 10.0.1.1 20
iperf_server ap
iperf hwsim sta 10.0.1.1 5
# teardown: both daemons stopped and both interfaces down (mac80211's
# drv_stop(), with the converted disable/enable of its BH work), so no
# beacon or frame runs into the later workloads
kill "$(cat /tmp/hostapd.pid)" "$(cat /tmp/wpa.pid)" 2>/dev/null || true
sleep 1
ns ap ip link set "$ap" down
ns sta ip link set "$sta" down
