#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make rerun-bench: the three runs of the cache's bar, timed, on a hard-link
# copy of KDIR (KDIR itself is never written): a cold run with an empty
# cache, the same run again, and a run after one driver file changed. It
# checks that the second run's all.patch and series/ are the first's, byte
# for byte, and prints one line per run and the stages of each.
# usage: rerun-bench.sh KDIR WORK [FILE]   (FILE: the file to change)
set -eu
kdir=$(cd "$1" && pwd); work=$2; file=${3:-drivers/net/ethernet/dlink/sundance.c}
py=${PY:-python3}
case "$work" in /*) ;; *) work=$(pwd)/$work ;; esac
[ ! -e "$work" ] || { echo "rerun-bench: $work exists; give a new folder" >&2; exit 2; }
case "$(realpath -m "$work")/" in "$(realpath "$kdir")"/*)
	echo "rerun-bench: WORK $work is inside KDIR $kdir: the tree is never written" >&2; exit 2 ;;
esac
mkdir -p "$work"
echo "rerun-bench: hard-link copy of $kdir in $work/tree"
cp -al "$kdir" "$work/tree"
run() {   # name: convert the copy into $work/name with the cache $work/cache, timed
	start=$(date +%s.%N)
	PYTHONPATH="$(dirname "$0")" $py -m detasklet convert "$work/tree" -o "$work/$1" \
		--cache "$work/cache" -q
	end=$(date +%s.%N)
	PYTHONPATH="$(dirname "$0")" $py - "$work" "$1" "$start" "$end" <<'PY'
import json, sys
work, name, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
r = json.load(open(f"{work}/{name}/run.json"))
print(f"{name:6} {end - start:6.1f} s  cache {r.get('cache')}  "
      + ", ".join(f"{k} {v}" for k, v in r.get("timings", {}).items()), flush=True)
PY
}
run cold
run warm
cmp "$work/cold/all.patch" "$work/warm/all.patch"
diff -r "$work/cold/series" "$work/warm/series" >/dev/null
echo "warm: all.patch and series/ identical to cold"
# One driver file changes: a new inode with one more comment line.
cp "$work/tree/$file" "$work/changed.c"
echo "/* rerun-bench: changed */" >> "$work/changed.c"
rm "$work/tree/$file" && mv "$work/changed.c" "$work/tree/$file"
run touch
