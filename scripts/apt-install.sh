#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/apt-install.sh PACKAGE...
#
# Install the Debian packages of the list that are missing (as root), or say
# the command to run (as another user). A linux-source-X.Y that Debian 12
# does not have comes from the backports suite of Debian 13
# (trixie-backports): the suite is added through the mirror this machine's
# own apt sources already name (no host is written here), and pinned so that
# apt takes nothing but linux-source-7.* from it.
set -euo pipefail

SUITE=trixie-backports
LIST=/etc/apt/sources.list.d/detasklet-$SUITE.sources
PIN=/etc/apt/preferences.d/detasklet-$SUITE

missing=()
for p in "$@"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

backports=()
for p in "${missing[@]}"; do
	case $p in linux-source-7.*) backports+=("$p") ;; esac
done

if [ "$(id -u)" != 0 ]; then
	echo "detasklet: missing packages: ${missing[*]}" >&2
	[ ${#backports[@]} -eq 0 ] ||
		echo "detasklet: ${backports[*]} comes from Debian's $SUITE suite: run make as root once, or add it yourself" >&2
	echo "run: sudo apt-get install ${missing[*]}" >&2
	exit 2
fi

# The Debian mirror of this machine: the URI that serves its main suite,
# from deb822 .sources files or one-line .list files.
mirror() {
	local codename
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	{
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk -v c="$codename" '
				/^[[:space:]]*$/ { if (u != "" && s ~ ("(^| )" c "( |$)")) print u; u = ""; s = ""; next }
				/^URIs:/ { u = $2 }
				/^Suites:/ { $1 = ""; s = $0 " " }
				END { if (u != "" && s ~ ("(^| )" c "( |$)")) print u }' "$f"
		done
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -f "$f" ] || continue
			awk -v c="$codename" '$1 == "deb" {
				i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				if ($(i + 1) == c) print $i }' "$f"
		done
	} | grep -v -- '-security' | head -n 1
}

if [ ${#backports[@]} -gt 0 ] && [ ! -f "$LIST" ] &&
   ! apt-cache show "${backports[0]}" >/dev/null 2>&1; then
	uri=$(mirror)
	[ -n "$uri" ] || { echo "detasklet: no Debian mirror found in /etc/apt/sources.list*: cannot add $SUITE for ${backports[*]}" >&2; exit 2; }
	echo "detasklet: adding Debian's $SUITE suite ($uri), pinned to ${backports[*]}" >&2
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" "$SUITE" > "$LIST"
	printf 'Package: *\nPin: release n=%s\nPin-Priority: -1\n\nPackage: /^linux-source-7\\./\nPin: release n=%s\nPin-Priority: 500\n' \
		"$SUITE" "$SUITE" > "$PIN"
fi

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
