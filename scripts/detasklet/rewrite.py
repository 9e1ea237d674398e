"""Run spatch on each file, in parallel, with a per-file time limit.

The semantic patches of cocci/ are concatenated in name order (their
numbers are the pass order) into one file, so that each C file is parsed
once. Nothing is written into the kernel tree: spatch writes the new text
into a scratch folder and the diff is computed from there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .legacydata import add_fields, add_wrappers, tidy_locals
from .tracked import add_flags, mark_callbacks
from .macros import rename_kerneldoc, rename_type, rewrite_macros
from .scan import read_text

COCCI_DIR = Path(__file__).resolve().parents[2] / "cocci"
SCRIPTS_DIR = Path(__file__).resolve().parents[1]
# --quiet --verbose-parsing: no diff on stderr, but the parse errors that
# spatch could not recover from ("parse error\n = File ..., line N"), so
# that a file left unconverted by them says where.
# --macro-file: cocci/parsing-hints.h, the <linux/cleanup.h> scopes.
SPATCH_FLAGS = ["--quiet", "--verbose-parsing", "--no-includes", "--include-headers",
                "--no-show-diff", "--macro-file", str(COCCI_DIR / "parsing-hints.h")]
REPORT_RE = re.compile(r"^DETASKLET-(ATOMIC|UNINIT) (\d+) (\d+)$", re.M)
PARSE_ERROR_RE = re.compile(r'^parse error\s*\n\s*= File ".*?", line (\d+)', re.M)


@dataclass
class Result:
    path: str
    new_text: str | None       # None: spatch failed
    error: str = ""
    parse_errors: tuple[int, ...] = ()   # lines spatch could not parse (code skipped)
    timed_out: bool = False
    # Hazards printed by the report rules (cocci/15, 16): (kind, line, line2).
    reports: tuple[tuple[str, int, int], ...] = ()


def combined_cocci(dest: Path, cocci_dir: Path = COCCI_DIR) -> Path:
    """The rule files in name order, as one; their virtual rule names
    (which spatch takes only before the first rule) once, at the top."""
    parts = [p.read_text() for p in sorted(cocci_dir.glob("*.cocci"))]
    virtual = re.compile(r"^virtual\s+[^\n]*\n", re.M)
    names = sorted({v.strip() for p in parts for v in virtual.findall(p)})
    dest.write_text("".join(n + "\n" for n in names) + "\n".join(virtual.sub("", p)
                                                              for p in parts))
    return dest


def run_one(kdir: Path, rel: str, sp_file: Path, scratch: Path, timeout: int,
            env: dict[str, str], procs: set[subprocess.Popen[str]] | None = None,
            marked: str | None = None) -> Result:
    """spatch on one file: on marked (the file's text with its chosen calls
    renamed to their markers, sites.Plan.mark) when given, else on the file."""
    src = kdir / rel
    out = scratch / (rel.replace("/", "__"))
    given = src
    if marked is not None:
        given = scratch / "in" / rel
        given.parent.mkdir(parents=True, exist_ok=True)
        given.write_bytes(marked.encode("utf-8", errors="surrogateescape"))
    cmd = ["spatch", *SPATCH_FLAGS, "--timeout", str(timeout), "-D", "marked",
           "--sp-file", str(sp_file), str(given), "-o", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    if procs is not None:
        procs.add(p)
    try:
        report, err = p.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return Result(rel, None, f"timeout after {timeout} s", timed_out=True)
    finally:
        if procs is not None:
            procs.discard(p)
    bad = tuple(int(n) for n in PARSE_ERROR_RE.findall(err))
    hi = frozenset(k for k in env.get("DETASKLET_HI_KEYS", "").split(",") if k)
    hazards = tuple(sorted({(k, int(a), int(b)) for k, a, b in REPORT_RE.findall(report)}))
    if re.search(r"^timeout \(we abort\)|Common\.Timeout", err, re.M):
        return Result(rel, None, f"timeout after {timeout} s", bad, timed_out=True)
    # With -o, spatch exits 255 when no rule changed the file: not a failure.
    unchanged = "there are no modified files" in err
    if not unchanged and (p.returncode != 0 or re.search(r"^(Fatal error|EXN:)", err, re.M)):
        # The error is spatch's last word, after the parsing chatter.
        words = [ln for ln in err.splitlines() if ln.strip() and not re.match(
            r"(Warning|init_defs|HANDLING|ERROR-RECOV|parsing pass|\s)", ln)]
        first = next((ln for ln in words if re.match(r"(Fatal error|EXN:|Error)", ln)),
                     words[-1] if words else f"exit code {p.returncode}")
        return Result(rel, None, f"spatch: {first[:200]}", bad)
    orig = read_text(src)
    text = rename_kerneldoc(orig, read_text(out)) if out.exists() and not unchanged else orig
    text = rename_type(rewrite_macros(text, hi))
    fields = [f for f in env.get("DETASKLET_DATA_FIELDS", "").split(",") if f]
    text = tidy_locals(add_fields(orig, text, fields))
    text = add_wrappers(text, json.loads(env.get("DETASKLET_LEGACY_LOCAL") or "{}"))
    tracked_items = json.loads(env.get("DETASKLET_TRACKED") or "{}")
    if tracked_items:
        text = mark_callbacks(add_flags(orig, text, tracked_items, rel), tracked_items)
    return Result(rel, text, parse_errors=bad, reports=hazards)


def rewrite_all(kdir: Path, jobs: Iterable[tuple[str, dict[str, str], str | None]], workers: int,
                timeout: int, progress: Callable[[Result], None]) -> dict[str, Result]:
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="detasklet-") as tmp:
        scratch = Path(tmp)
        sp = combined_cocci(scratch / "detasklet.cocci")
        base = dict(os.environ)
        base["PYTHONPATH"] = str(SCRIPTS_DIR) + os.pathsep + base.get("PYTHONPATH", "")

        procs: set[subprocess.Popen[str]] = set()

        def one(job: tuple[str, dict[str, str], str | None]) -> Result:
            rel, extra, marked = job
            return run_one(kdir, rel, sp, scratch, timeout, {**base, **extra}, procs, marked)

        ex = ThreadPoolExecutor(max_workers=workers)
        try:
            for r in ex.map(one, list(jobs)):
                results[r.path] = r
                progress(r)
        except BaseException:
            # Ctrl-C or SIGTERM: drop the queued files, stop the running
            # spatch processes, and let the caller leave OUT as it was.
            ex.shutdown(wait=False, cancel_futures=True)
            for p in list(procs):
                p.kill()
            raise
        ex.shutdown()
    return results
