# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# cdc_ncm: a USB gadget with f_ncm (configfs) on dummy_hcd's UDC, bound to
# the same kernel's host side, where cdc_ncm takes it. The gadget's
# interface goes to netns "gadget"; ping and iperf3 from the host side.
udc=$(ls /sys/class/udc | head -n 1)
[ -n "$udc" ] || fail "no UDC (dummy_hcd)"
g=/sys/kernel/config/usb_gadget/dt
mkdir $g
echo 0x1d6b > $g/idVendor
echo 0x0104 > $g/idProduct
mkdir $g/strings/0x409
echo detasklet > $g/strings/0x409/manufacturer
echo ncm > $g/strings/0x409/product
mkdir $g/functions/ncm.usb0
mkdir $g/configs/c.1
ln -s $g/functions/ncm.usb0 $g/configs/c.1/
echo "$udc" > $g/UDC
gif=$(cat $g/functions/ncm.usb0/ifname)
host() { for n in /sys/class/net/*; do [ "$(basename "$(readlink -f "$n/device/driver" 2>/dev/null)")" = cdc_ncm ] && echo "${n##*/}"; done | head -n 1; }
bound() { [ -n "$(host)" ]; }
wait_for 30 bound ||
	fail "cdc_ncm did not bind the gadget"
h=$(host)
echo "gadget $gif, host side $h (cdc_ncm)"
ip netns add gadget
ip link set "$gif" netns gadget
ns gadget ip link set lo up
ns gadget ip addr add 10.0.3.1/24 dev "$gif"
ns gadget ip link set "$gif" up
ip addr add 10.0.3.2/24 dev "$h"
ip link set "$h" up
wait_for 20 ping -c 1 -W 1 10.0.3.1 || true
pingc ncm_ping - 10.0.3.1 20
iperf_server gadget
iperf ncm - 10.0.3.1 5
# teardown: the gadget unbound from the UDC; the host side sees the
# disconnect and cdc_ncm unbinds (cdc_ncm_unbind())
echo "" > $g/UDC
unbound() { [ -z "$(host)" ]; }
wait_for 20 unbound || fail "cdc_ncm still bound after the gadget left the UDC"
