"""Run spatch on each file, in parallel, with a per-file time limit.

The semantic patches of cocci/ are concatenated in name order (their
numbers are the pass order) into one file, so that each C file is parsed
once. Nothing is written into the kernel tree: spatch writes the new text
into a scratch folder and the diff is computed from there.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .macros import rewrite_macros
from .scan import read_text

COCCI_DIR = Path(__file__).resolve().parents[2] / "cocci"
SCRIPTS_DIR = Path(__file__).resolve().parents[1]
SPATCH_FLAGS = ["--very-quiet", "--no-includes", "--include-headers",
                "--no-show-diff"]


@dataclass
class Result:
    path: str
    new_text: str | None       # None: spatch failed
    error: str = ""


def combined_cocci(dest: Path, cocci_dir: Path = COCCI_DIR) -> Path:
    parts = [p.read_text() for p in sorted(cocci_dir.glob("*.cocci"))]
    dest.write_text("\n".join(parts))
    return dest


def run_one(kdir: Path, rel: str, sp_file: Path, scratch: Path, timeout: int,
            env: dict[str, str]) -> Result:
    src = kdir / rel
    out = scratch / (rel.replace("/", "__"))
    # spatch names the file in its messages; give it a copy so that a
    # misbehaving rule could never write into the tree.
    cmd = ["spatch", *SPATCH_FLAGS, "--timeout", str(timeout),
           "--sp-file", str(sp_file), str(src), "-o", str(out)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout + 30, env=env)
    except subprocess.TimeoutExpired:
        return Result(rel, None, f"timeout after {timeout} s")
    err = p.stderr
    if "there are no modified files" in err:
        return Result(rel, rewrite_macros(read_text(src)))
    if p.returncode != 0 or re.search(r"^(Fatal error|EXN:)", err, re.M):
        first = next((ln for ln in err.splitlines() if ln.strip()), "spatch failed")
        return Result(rel, None, f"spatch: {first[:200]}")
    if "timeout" in err.lower() and not out.exists():
        return Result(rel, None, f"timeout after {timeout} s")
    if not out.exists():
        return Result(rel, rewrite_macros(read_text(src)))
    return Result(rel, rewrite_macros(read_text(out)))


def rewrite_all(kdir: Path, jobs: Iterable[tuple[str, dict[str, str]]], workers: int,
                timeout: int, progress: Callable[[Result], None]) -> dict[str, Result]:
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="detasklet-") as tmp:
        scratch = Path(tmp)
        sp = combined_cocci(scratch / "detasklet.cocci")
        base = dict(os.environ)
        base["PYTHONPATH"] = str(SCRIPTS_DIR) + os.pathsep + base.get("PYTHONPATH", "")

        def one(job: tuple[str, dict[str, str]]) -> Result:
            rel, extra = job
            return run_one(kdir, rel, sp, scratch, timeout, {**base, **extra})

        with ThreadPoolExecutor(max_workers=workers) as ex:
            for r in ex.map(one, list(jobs)):
                results[r.path] = r
                progress(r)
    return results
