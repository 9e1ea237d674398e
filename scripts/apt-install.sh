#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/apt-install.sh [--cache DIR] [--plan] PACKAGE...
#     Install the Debian packages of the list that are missing (as root), one
#     line each; apt's own output goes to DIR/apt/install.log and is printed
#     only when apt fails. As another user: say the command to run (exit 2).
# scripts/apt-install.sh --cache DIR [--plan] [--uris] --source X.Y
#     Print the path of linux-source-X.Y's tarball: /usr/src's when the
#     package is installed, else fetched with an apt configuration of our own
#     under DIR/apt (its own sources list, lists, state and cache; no root
#     needed) and unpacked there with dpkg-deb. Nothing in /etc/apt is
#     written: for 7.* the suite is Debian 13's backports (trixie-backports)
#     through the mirror the machine's apt already uses for its own suite
#     (`apt-get indextargets`; no host is written here); other versions are
#     downloaded (not installed) from the machine's own apt sources.
#     --uris: stop after the index update and print the .deb's URI.
#     --private: fetch even when the package is installed.
# scripts/apt-install.sh --forget-old [--plan]
#     Remove the two files an earlier detasklet wrote into /etc/apt
#     (detasklet-trixie-backports.*), only if they hold exactly what it wrote.
# --plan: print the commands (one a line) instead of running them.
set -euo pipefail

BACKPORTS=trixie-backports
# DETASKLET_APT_ETC: another folder than /etc/apt (the tests)
ETC=${DETASKLET_APT_ETC:-/etc/apt}
OLD_LIST=$ETC/sources.list.d/detasklet-$BACKPORTS.sources
OLD_PIN=$ETC/preferences.d/detasklet-$BACKPORTS

cache= plan= uris= source= forget= private=
pkgs=()
while [ $# -gt 0 ]; do
	case $1 in
	--cache) cache=$2; shift ;;
	--plan) plan=1 ;;
	--uris) uris=1 ;;
	--private) private=1 ;;
	--source) source=$2; shift ;;
	--forget-old) forget=1 ;;
	*) pkgs+=("$1") ;;
	esac
	shift
done

say() { echo "detasklet: $*" >&2; }
# run CMD...: run it, or print it under --plan
run() {
	if [ -n "$plan" ]; then printf '%q ' "$@" | sed 's/ $//'; echo; else "$@"; fi
}

# The files the old script wrote, byte for byte (with its mirror $1).
old_list() {
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$1" "$BACKPORTS"
}
old_pin() {
	printf 'Package: *\nPin: release n=%s\nPin-Priority: -1\n\nPackage: /^linux-source-7\\./\nPin: release n=%s\nPin-Priority: 500\n' \
		"$BACKPORTS" "$BACKPORTS"
}

# ours: yes when both old files exist and are exactly what the old script wrote.
old_files_ours() {
	[ -f "$OLD_LIST" ] && [ -f "$OLD_PIN" ] || return 1
	local uri
	uri=$(sed -n 's/^URIs: //p' "$OLD_LIST")
	[ "$(cat "$OLD_LIST")" = "$(old_list "$uri")" ] && [ "$(cat "$OLD_PIN")" = "$(old_pin)" ]
}

forget_old() {
	if ! [ -e "$OLD_LIST" ] && ! [ -e "$OLD_PIN" ]; then
		say "no file of an earlier detasklet in /etc/apt"; return 0
	fi
	if ! old_files_ours; then
		say "$OLD_LIST or $OLD_PIN is not what an earlier detasklet wrote: left as it is"; return 2
	fi
	[ -n "$plan" ] || [ "$(id -u)" = 0 ] || { say "removing $OLD_LIST and $OLD_PIN needs root"; return 2; }
	run rm -f "$OLD_LIST" "$OLD_PIN"
	[ -n "$plan" ] || say "removed $OLD_LIST and $OLD_PIN (written by an earlier detasklet; no longer used)"
}

# A one-line notice when the old files are still there (printed only when
# this script has work to do).
notice_old() {
	if old_files_ours; then
		say "$OLD_LIST and $OLD_PIN were written by an earlier detasklet and are no longer used: 'make apt-forget' removes them"
	fi
}

codename() { (. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}"); }

# The URI of the Debian mirror that serves this machine's own suite, as apt
# sees it (deb822 or one-line sources alike, downloaded or not):
# `apt-get indextargets` lines "URI SUITE COMPONENT TARGET".
# DETASKLET_APT_TARGETS: a file holding that output instead (the tests).
mirror() {
	local c=$1
	{ if [ -n "${DETASKLET_APT_TARGETS:-}" ]; then cat "$DETASKLET_APT_TARGETS"
	  else apt-get indextargets --no-release-info --format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(IDENTIFIER)'; fi; } |
		awk -v c="$c" '$2 == c && $3 == "main" && $4 == "Packages" { sub("/$", "", $1); print $1; exit }'
}

# private_apt SUITE: the apt options of our own configuration under $apt
# (its sources list naming SUITE through the machine's mirror, its lists,
# state and cache; the machine's pins ignored), written unless --plan.
private_apt() {
	local suite=$1 uri arch
	uri=$(mirror "$(codename)")
	[ -n "$uri" ] || { say "no Debian mirror for $(codename)/main in apt's sources (apt-get indextargets): cannot fetch $pkg"; exit 2; }
	arch=$(dpkg --print-architecture)
	if [ -n "$plan" ]; then
		echo "# $apt/sources.list.d/detasklet.sources: $uri $suite main $arch"
	else
		mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d" "$apt/preferences.d"
		: > "$apt/status"
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nArchitectures: %s\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$uri" "$suite" "$arch" > "$apt/sources.list.d/detasklet.sources"
	fi
	opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt/sources.list.d"
		-o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=$apt/preferences.d"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt/cache" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
		-o "Acquire::Languages=none" -o "Debug::NoLocking=1")
}

# update: the index update the download needs (logged; printed on failure).
# Our own lists are always brought up to date; the machine's only when they
# do not know the package, and only as root.
update() {
	if [ ${#opts[@]} -eq 0 ]; then
		apt-cache show "$pkg" >/dev/null 2>&1 && return 0
		[ -n "$plan" ] || [ "$(id -u)" = 0 ] ||
			{ say "apt does not know $pkg: run 'sudo apt-get update' once"; exit 2; }
	fi
	if [ -n "$plan" ]; then run apt-get "${opts[@]}" update -q
	elif ! apt-get "${opts[@]}" update -q >> "$apt/fetch.log" 2>&1; then
		cat "$apt/fetch.log" >&2; say "apt-get update failed (above)"; exit 1
	fi
}

# fetch X.Y: linux-source-X.Y's .deb into $cache/apt (7.*: from Debian 13's
# backports, through our own apt configuration; others: from the suites the
# machine's apt already has, downloaded, not installed), unpacked with
# dpkg-deb; prints the tarball.
fetch() {
	local v=$1 pkg=linux-source-$1 apt=$cache/apt suite opts=()
	local tarball=$apt/root/usr/src/$pkg.tar.xz
	if [ -z "$plan$uris" ] && [ -f "$tarball" ]; then echo "$tarball"; return; fi
	case $v in 7.*) suite="Debian's $BACKPORTS"; private_apt "$BACKPORTS" ;; *) suite="the machine's apt sources" ;; esac
	[ -n "$plan" ] || { mkdir -p "$apt/debs" "$apt/root"; : > "$apt/fetch.log"; }
	[ -n "$plan$uris" ] || say "fetching $pkg from $suite into $apt (log: $apt/fetch.log)"
	update
	if [ -n "$uris" ]; then
		run apt-get "${opts[@]}" download --print-uris "$pkg"; return
	fi
	if [ -n "$plan" ]; then
		run apt-get "${opts[@]}" download "$pkg"
		run dpkg-deb -x "$apt/debs/${pkg}_VERSION_all.deb" "$apt/root"
		return
	fi
	rm -f "$apt/debs/${pkg}_"*.deb
	if ! (cd "$apt/debs" && apt-get "${opts[@]}" download "$pkg") >> "$apt/fetch.log" 2>&1; then
		cat "$apt/fetch.log" >&2; say "apt-get download $pkg failed (above)"; exit 1
	fi
	local deb
	deb=$(ls "$apt/debs/${pkg}_"*.deb)
	dpkg-deb -x "$deb" "$apt/root"
	[ -f "$tarball" ] || { say "$deb holds no usr/src/$pkg.tar.xz"; exit 1; }
	rm -f "$deb"
	say "fetched $(basename "$deb")"
	echo "$tarball"
}

source_tarball() {
	local v=$1
	[ -n "$cache" ] || { say "--source needs --cache DIR"; exit 2; }
	if [ -z "$plan$uris$private" ] && dpkg -s "linux-source-$v" >/dev/null 2>&1 &&
	   [ -f "/usr/src/linux-source-$v.tar.xz" ]; then
		echo "/usr/src/linux-source-$v.tar.xz"; return
	fi
	fetch "$v"
}

install() {
	local missing=() p
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	notice_old
	if [ -z "$plan" ] && [ "$(id -u)" != 0 ]; then
		say "missing packages: ${missing[*]}"
		echo "run: sudo apt-get install ${missing[*]}" >&2
		exit 2
	fi
	local log=${cache:-${TMPDIR:-/tmp}}/apt/install.log
	if [ -n "$plan" ]; then
		run apt-get update -q; run apt-get install -y -q "${missing[@]}"; return
	fi
	mkdir -p "$(dirname "$log")"
	say "installing ${missing[*]} (log: $log)"
	if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } > "$log" 2>&1; then
		cat "$log" >&2; say "apt-get install ${missing[*]} failed (above)"; exit 1
	fi
	for p in "${missing[@]}"; do
		say "installed $p $(dpkg-query -W -f '${Version}' "$p")"
	done
}

if [ -n "$forget" ]; then forget_old
elif [ -n "$source" ]; then source_tarball "$source"
else install "${pkgs[@]}"
fi
