# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# vt keyboard: set the LEDs of tty1 (KDSETLED, which the keyboard's
# deferred LED update sends to the i8042 keyboard) and read them back.
[ -c /dev/tty1 ] || fail "no /dev/tty1"
for s in +num +caps +scroll -num -caps -scroll; do
	setleds -L $s < /dev/tty1
	sleep 0.2
done
setleds -L +caps < /dev/tty1
sleep 0.2
out=$(setleds -L < /dev/tty1 2>&1 || true)
echo "$out"
echo "$out" | grep -i 'leds' | grep -q 'CapsLock on' || fail "CapsLock LED not read back on"
setleds -L -caps < /dev/tty1
fig led_changes 7
