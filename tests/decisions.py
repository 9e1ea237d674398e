#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The per-driver decisions (decisions/*.toml) load, and each one still
names a real site: a call of its API on its item in its function, in every
reference tree it was made for (cache/linux-source-<KVER>), in the file as
the pipeline reads it (after the driver's own semantic patch, if it has one,
cocci/drivers/). A decision that matches nothing would be a stale reason
nobody applies. No decision says again a sentence a read found false.
And every driver patch still changes each of its files on
each reference tree it was read on (its Comments name the versions).

One line per decision file and tree; closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fixtures import Tally  # noqa: E402
from detasklet.convert.verdicts import decisions, sites  # noqa: E402
from detasklet.convert.facts import driver_patches  # noqa: E402
from detasklet.ctext.lex import mask  # noqa: E402
from detasklet.ctext.sources import read_text  # noqa: E402
from detasklet.errors import InputError  # noqa: E402


# Sentences a maintainer's read found false, which a decision must not say
# again: crypto_unregister_alg() takes an algorithm away at once and does
# not wait for the transforms that use it (sample 46: atmel-aes, -sha, -tdes).
FOUND_FALSE = ("the crypto API unregisters an algorithm only when no transform uses it",)


def tree_version(kdir: Path) -> str:
    mk = (kdir / "Makefile").read_text(errors="replace")
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)", mk, re.M))
    return f"{v['VERSION']}.{v['PATCHLEVEL']}.{v['SUBLEVEL']}"


def main() -> int:
    tally = Tally()
    try:
        decs = decisions.load()
    except InputError as e:
        tally.case("load", str(e))
        return tally.close()
    trees = sorted(p for p in (ROOT / "cache").glob("linux-source-*") if (p / "Makefile").is_file())
    if not trees:
        tally.case("trees", "no reference tree in cache/ (make references)")
        return tally.close()
    found: dict[tuple[Path, str], list[sites.Site]] = {}
    drivers = driver_patches.load()

    def text(p: Path, rel: str) -> str:
        t = read_text(p)
        for d in driver_patches.for_file(drivers, rel):
            t = driver_patches.apply(d, rel, t)
        return t
    for kdir in trees:
        version = tree_version(kdir)
        for src in sorted({d.source for d in decs}):
            mine = [d for d in decs if d.source == src and d.applies(version)]
            if not mine:
                continue
            bad = []
            for d in mine:
                if (kdir, d.file) not in found:
                    p = kdir / d.file
                    found[(kdir, d.file)] = sites.find(d.file, mask(text(p, d.file))) \
                        if p.is_file() else []
                if not any(d.matches(s.path, s.function, s.api, s.item, s.occurrence)
                           for s in found[(kdir, d.file)]):
                    bad.append(f"{d.function}() {d.api}({d.item})")
            tally.case(f"{src} on {version}" + ("" if bad else f" ({len(mine)} sites)"),
                       f"no such site: {'; '.join(bad[:3])}" if bad else "")
    said = [f"{d.source} {d.function}()" for d in decs for claim in FOUND_FALSE
            if claim in " ".join(d.why.split())]
    tally.case("no decision repeats a claim a read found false",
               f"{'; '.join(said[:3])} say it again" if said else "")
    for kdir in trees:
        version = tree_version(kdir)
        for d in drivers:
            present = [f for f in d.files if (kdir / f).is_file()]
            # a driver patch says which trees it was read on in its Comments
            if not present or version.rsplit(".", 1)[0] not in d.path.read_text():
                continue
            unchanged = [f for f in present
                         if driver_patches.apply(d, f, read_text(kdir / f)) == read_text(kdir / f)]
            tally.case(f"{d.name} on {version}" + ("" if unchanged else f" ({len(present)} files)"),
                       f"changes nothing in {unchanged[0]}" if unchanged else "")
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
