# SPDX-License-Identifier: GPL-2.0-only
"""The two kernels of make runtime: pristine and converted, one config.

Build folder (reused on a rerun): BUILD/runtime-<version>/
    pristine/            kbuild O= folder of KDIR itself (kbuild with O=
                         writes nothing into the source tree)
    converted-src/       KDIR hard-linked, all.patch + tasklet-free.patch
                         applied (check/worktree.py: KDIR never written)
    converted/           kbuild O= folder of converted-src
The config: make tinyconfig, the fragment scripts/runtime/runtime.config
and the version's runtime-<major.minor>.config appended, make
olddefconfig; every "=y" line of the fragments must be in the result (a
symbol Kconfig dropped is an error, not a quieter run). make's
output is relayed as a count of compiled files every PROGRESS_EVERY files.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from pathlib import Path

from ... import proc
from ...errors import BuildError
from .. import worktree

log = logging.getLogger("detasklet")

PROGRESS_EVERY = 50
STAMP = ".detasklet-runtime-config"


def wanted_symbols(fragment: str) -> list[str]:
    """The "CONFIG_X=y" lines of the fragment."""
    return [ln.strip() for ln in fragment.splitlines() if re.match(r"CONFIG_\w+=y\s*$", ln)]


def missing_symbols(config: str, fragment: str) -> list[str]:
    """The fragment's =y lines the final .config does not have."""
    have = set(config.splitlines())
    return [s for s in wanted_symbols(fragment) if s not in have]


def make_base(src: Path, bdir: Path, cc: str) -> list[str]:
    base = ["make", "-C", str(src), f"O={bdir}", "ARCH=x86_64"]
    return base + ([f"CC={cc}"] if cc else [])


def fragments(rt: Path, version: str) -> list[Path]:
    """runtime.config, then runtime-<major.minor>.config when there is one
    (symbols only one version has: DIBS on 7.3, SMC_LO on 6.12)."""
    mm = ".".join(version.split(".")[:2])
    own = rt / f"runtime-{mm}.config"
    return [rt / "runtime.config"] + ([own] if own.is_file() else [])


def configure(src: Path, bdir: Path, frags: list[Path], cc: str) -> None:
    """tinyconfig + the fragments + olddefconfig, again only when a fragment,
    the tree or CC changed (a stamp in bdir says what it was made from)."""
    text = "".join(f.read_text() for f in frags)
    names = " + ".join(f.name for f in frags)
    want = hashlib.sha256(f"{src}\n{cc}\n{text}".encode()).hexdigest()
    stamp = bdir / STAMP
    if (bdir / ".config").is_file() and stamp.is_file() and stamp.read_text() == want:
        return
    bdir.mkdir(parents=True, exist_ok=True)
    log.info(f"{bdir.name}: make tinyconfig + {names} + olddefconfig")
    base = make_base(src, bdir, cc)
    for step in ("tinyconfig", None, "olddefconfig"):
        if step is None:
            with open(bdir / ".config", "a") as f:
                f.write("\n" + "\n".join(ln for ln in text.splitlines()
                                         if ln.startswith("CONFIG_") or
                                         re.match(r"# CONFIG_\w+ is not set", ln)) + "\n")
            continue
        r = proc.run([*base, "-s", step])
        if r.rc:
            raise BuildError(f"{bdir.name}: make {step} failed: "
                             f"{(r.stdout + r.stderr).strip().splitlines()[-1:]}")
    miss = missing_symbols((bdir / ".config").read_text(), text)
    if miss:
        raise BuildError(f"{bdir.name}: Kconfig dropped {', '.join(miss)} of {names} "
                         f"(a dependency is missing from the fragment)")
    stamp.write_text(want)


def build(src: Path, bdir: Path, cc: str, jobs: int, label: str) -> tuple[Path, float, int]:
    """make bzImage, relaying a count of compiled files; (bzImage, seconds,
    files compiled). A failure raises BuildError with make's first error."""
    start = time.monotonic()
    cmd = [*make_base(src, bdir, cc), f"-j{jobs}", "bzImage"]
    logf = bdir.parent / f"{label}-build.log"
    n = 0
    tail: list[str] = []
    first_error = ""
    with open(logf, "w") as out, proc.lines(cmd) as p:
        assert p.stdout is not None
        for line in p.stdout:
            out.write(line)
            tail = (tail + [line.rstrip()])[-40:]
            if not first_error and re.search(r"\berror:", line):
                first_error = line.strip()
            if re.match(r"^\s+(CC|AS)\s", line):
                n += 1
                if n % PROGRESS_EVERY == 0:
                    log.info(f"  {label}: {n} files compiled, "
                             f"{time.monotonic() - start:.0f} s ({line.split()[-1]})")
    rc = p.returncode
    secs = time.monotonic() - start
    if rc:
        err = first_error or next((ln for ln in tail if "***" in ln), "")
        raise BuildError(f"{label}: make bzImage failed ({err}; log: {logf})")
    image = bdir / "arch/x86/boot/bzImage"
    log.info(f"{label}: {image} ({n} files compiled, {secs:.0f} s)")
    return image, secs, n


def converted_tree(kdir: Path, patches: list[Path], root: Path) -> Path:
    """root/converted-src: KDIR with the patches applied (one combined
    patch, so check/worktree.py refreshes only what changed)."""
    combined = root / "converted.patch"
    data = b"".join(p.read_bytes() for p in patches)
    if not combined.is_file() or combined.read_bytes() != data:
        combined.write_bytes(data)
    src = root / "converted-src"
    worktree.prepare(kdir, combined, src)
    return src
