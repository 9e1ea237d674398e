# SPDX-License-Identifier: GPL-2.0-only
"""Stage 3: run spatch on each file, in parallel, with a time limit.

The semantic patches of cocci/ are concatenated in name order (their
numbers are the pass order) into one file, so that each C file is parsed
once, and run in all their modes at once: -D patch (rewrite), -D report
(hazards, printed in coccilib.report's file:line:col-col: form) and
-D facts (the group's facts, convert.rewrite.protocol). Nothing is written into
the kernel tree: spatch writes the new text into a scratch folder, and
convert.rewrite.fixups does what spatch cannot.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ... import cache, proc, scratch
from ...ctext.sources import read_text
from ...errors import ToolError
from . import fixups, protocol
from ..facts.groups import Group

log = logging.getLogger("detasklet")

COCCI_DIR = Path(__file__).resolve().parents[4] / "cocci"
SCRIPTS_DIR = Path(__file__).resolve().parents[3]
# --quiet --verbose-parsing: no diff on stderr, but the parse errors that
# spatch could not recover from ("parse error\n = File ..., line N"), so
# that a file left unconverted by them says where.
# --macro-file: cocci/parsing-hints.h, the <linux/cleanup.h> scopes.
SPATCH_FLAGS = ["--quiet", "--verbose-parsing", "--no-includes", "--include-headers",
                "--no-show-diff", "--macro-file", str(COCCI_DIR / "parsing-hints.h"),
                "-D", "patch", "-D", "report", "-D", "facts"]
# coccilib.report.print_report: file:line:col-col: message
REPORT_RE = re.compile(r"^[^\n]*?:(\d+):\d+-\d+: (.*)$", re.M)
# The two hazards the report rules print (cocci/15, cocci/16), by their words.
ATOMIC_RE = re.compile(r"lock or irqs off since line (\d+)")
UNINIT_WORDS = "before its init"
PARSE_ERROR_RE = re.compile(r'^parse error\s*\n\s*= File ".*?", line (\d+)', re.M)


@dataclass
class Result:
    path: str
    new_text: str | None       # None: spatch failed
    error: str = ""
    parse_errors: tuple[int, ...] = ()   # lines spatch could not parse (code skipped)
    # the line ranges (first, last) of the input spatch skipped, unparsed
    unparsed: tuple[tuple[int, int], ...] = ()
    timed_out: bool = False
    # Hazards printed by the report rules: (ATOMIC|UNINIT, line, lock line or 0).
    reports: tuple[tuple[str, int, int], ...] = ()


def skipped(err: str, text: str) -> tuple[tuple[int, int], ...]:
    """The line ranges of text that spatch could not parse, from its
    --verbose-parsing stderr: each "parse error ... line N" is followed by
    the skipped lines ("bad: <line>"), found in text as the run of lines
    that ends nearest before line N; without them, the line N alone."""
    rows = [r.rstrip() for r in text.split("\n")]
    lines = err.split("\n")
    found = set()
    for i, ln in enumerate(lines):
        if not ln.startswith("parse error"):
            continue
        m = re.search(r"line (\d+)", lines[i + 1] if i + 1 < len(lines) else "")
        if not m:
            continue
        n = int(m.group(1))
        bad = []
        for b in lines[i + 2:]:
            if b.startswith("bad:"):
                bad.append(b[5:].rstrip())
            elif bad or b.startswith("parse error"):
                break
        span = (n, n)
        for end in range(min(n, len(rows)), len(bad) - 1, -1):
            if bad and rows[end - len(bad):end] == bad:
                span = (end - len(bad) + 1, end)
                break
        found.add(span)
    return tuple(sorted(found))


def check_spatch() -> str:
    if not shutil.which("spatch"):
        raise ToolError("spatch not found: install Coccinelle with "
                        "'apt-get install coccinelle' (Debian package, 1.1.1)")
    out = proc.run(["spatch", "--version"]).stdout
    m = re.search(r"spatch version (\d+)\.(\d+)\.(\d+)", out)
    if not m or tuple(map(int, m.groups())) < (1, 1, 1):
        raise ToolError(f"spatch is too old ({out.split(chr(10))[0] or 'unknown'}): "
                        "need 1.1.1, 'apt-get install coccinelle'")
    return ".".join(m.groups())


_VIRTUAL_RE = re.compile(r"^virtual\s+(\w+)[ \t]*\n", re.M)


def combined_cocci(dest: Path, cocci_dir: Path = COCCI_DIR) -> Path:
    """The rule files in pass order as one: their `virtual` declarations
    first, once (after a script rule, spatch would read one as Python)."""
    virtuals: list[str] = []
    parts = []
    for p in sorted(cocci_dir.glob("*.cocci")):
        text = p.read_text()
        virtuals += [v for v in _VIRTUAL_RE.findall(text) if v not in virtuals]
        parts.append(_VIRTUAL_RE.sub("", text))
    dest.write_text("".join(f"virtual {v}\n" for v in virtuals) + "\n" + "\n".join(parts))
    return dest


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def hazards(report: str) -> tuple[tuple[str, int, int], ...]:
    """The hazards of the report rules' lines, sorted."""
    found = set()
    for line, msg in REPORT_RE.findall(report):
        m = ATOMIC_RE.search(msg)
        if m:
            found.add(("ATOMIC", int(line), int(m.group(1))))
        elif UNINIT_WORDS in msg:
            found.add(("UNINIT", int(line), 0))
    return tuple(sorted(found))


def spatch_identity() -> str:
    """spatch as the cache key sees it: its path, size, time and version."""
    exe = shutil.which("spatch") or "spatch"
    real = os.path.realpath(exe)
    try:
        st = os.stat(real)
        stamp = f"{real}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        stamp = real
    out = proc.run([exe, "--version"]).stdout
    return stamp + "\n" + out.split("\n")[0]


def run_key(sp_file: Path, tool: str) -> str:
    """What every spatch run of this conversion shares, as a digest: spatch,
    its flags, the rules, the parsing hints and the tool's Python that the
    rules import (tool). The fixups run after, on every run: the cache
    keeps spatch's own output."""
    return cache.digest(spatch_identity(), *SPATCH_FLAGS, sp_file.read_text(),
                        (COCCI_DIR / "parsing-hints.h").read_text(), tool)


def _spatch(cmd: list[str], env: dict[str, str], timeout: int) -> dict | None:
    """One spatch process: {rc, stdout, stderr, seconds}, or None when it
    outran the time limit."""
    r = proc.run(cmd, env=env, timeout=timeout + 30)
    if r.timed_out:
        return None
    return {"rc": r.rc, "stdout": r.stdout, "stderr": r.stderr, "seconds": r.seconds}


def run_one(kdir: Path, rel: str, sp_file: Path, scratch: Path, timeout: int,
            group: Group, store: cache.Cache | None = None, key_base: str = "") -> Result:
    """spatch on one file of a group, then the fixups. With a store, a run
    with the same inputs (key_base: run_key()) is taken from it, unless it
    took longer than this run's time limit."""
    src = kdir / rel
    out = scratch / (rel.replace("/", "__"))
    given = src
    marked = group.marked.get(rel)
    if marked:
        # the text with its chosen calls renamed to their markers (sites.py)
        given = scratch / "in" / rel
        given.parent.mkdir(parents=True, exist_ok=True)
        given.write_bytes(marked.encode("utf-8", errors="surrogateescape"))
    cmd = ["spatch", *SPATCH_FLAGS, "--timeout", str(timeout),
           "--sp-file", str(sp_file), str(given), "-o", str(out)]
    facts = protocol.env(group)
    key = cache.digest(key_base, rel, json.dumps(facts, sort_keys=True),
                       given.read_bytes()) if store and key_base else ""
    run = store.get("spatch", key) if key and store else None
    if run is not None and run["seconds"] > timeout:
        run = None
    if run is None:
        env = {**os.environ, **facts,
               "PYTHONPATH": str(SCRIPTS_DIR) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        log.debug("%s", shlex.join(cmd))
        run = _spatch(cmd, env, timeout)
        if run is None:
            return Result(rel, None, f"timeout after {timeout} s", timed_out=True)
        timed_out = re.search(r"^timeout \(we abort\)|Common\.Timeout", run["stderr"], re.M)
        run["out"] = read_text(out) if out.exists() else None
        if key and store and run["rc"] >= 0 and not timed_out:
            store.put("spatch", key, run)
    report, err = run["stdout"], run["stderr"]
    bad = tuple(int(n) for n in PARSE_ERROR_RE.findall(err))
    if re.search(r"^timeout \(we abort\)|Common\.Timeout", err, re.M):
        return Result(rel, None, f"timeout after {timeout} s", bad, timed_out=True)
    # With -o, spatch exits 255 when no rule changed the file: not a failure.
    unchanged = "there are no modified files" in err
    if not unchanged and (run["rc"] != 0 or re.search(r"^(Fatal error|EXN:)", err, re.M)):
        # The error is spatch's last word, after the parsing chatter.
        words = [ln for ln in err.splitlines() if ln.strip() and not re.match(
            r"(Warning|init_defs|HANDLING|ERROR-RECOV|parsing pass|\s)", ln)]
        first = next((ln for ln in words if re.match(r"(Fatal error|EXN:|Error)", ln)),
                     words[-1] if words else f"exit code {run['rc']}")
        return Result(rel, None, f"spatch: {first[:200]}", bad)
    spatched = run["out"] if not unchanged else None
    text = fixups.after_spatch(read_text(src), spatched, group, rel)
    return Result(rel, text, parse_errors=bad, reports=hazards(report),
                  unparsed=skipped(err, read_text(given)) if bad else ())


def rewrite_all(kdir: Path, jobs: Iterable[tuple[str, Group]], workers: int,
                timeout: int, progress: Callable[[Result], None],
                store: cache.Cache | None = None) -> dict[str, Result]:
    """spatch on every (file, group) job, workers at a time; the largest
    files first, so that no long one starts last and leaves a core idle."""
    results: dict[str, Result] = {}
    todo = sorted(jobs, key=lambda j: -_size(kdir / j[0]))
    with scratch.folder() as tmp:
        sp = combined_cocci(tmp / "detasklet.cocci")
        key_base = run_key(sp, store.code("detasklet_cocci")) if store and store.root else ""

        def one(job: tuple[str, Group]) -> Result:
            rel, group = job
            return run_one(kdir, rel, sp, tmp, timeout, group, store, key_base)

        ex = ThreadPoolExecutor(max_workers=workers)
        try:
            for r in ex.map(one, todo):
                results[r.path] = r
                progress(r)
        except BaseException:
            # Ctrl-C or SIGTERM: drop the queued files, stop the running
            # spatch processes, and let the caller leave OUT as it was.
            ex.shutdown(wait=False, cancel_futures=True)
            proc.stop()
            raise
        ex.shutdown()
    return results
