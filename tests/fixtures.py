# SPDX-License-Identifier: GPL-2.0-only
"""What the command-line runners (cli, faults, safety) share: a fake kernel
tree, a driver that converts, the command line, and the closing tally."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
# run from make test, the tool would name make's variables (DETASKLET_MAKE):
# the runners check its own option names
ENV = {**{k: v for k, v in os.environ.items() if k != "DETASKLET_MAKE"},
       "PYTHONPATH": str(ROOT / "scripts")}

# The BH workqueue API a tree must have (kdir.NEEDED), and nothing else.
WORKQUEUE_H = ("#define WQ_BH 1\nextern struct workqueue_struct *system_bh_wq;\n"
               "#define from_work(a, b, c) 0\nbool disable_work_sync(void);\n"
               "bool enable_and_queue_work(void);\n")

# A driver every rule pass converts.
FOO_C = """\
struct foo { struct tasklet_struct t; int n; };

static void foo_fn(struct tasklet_struct *t)
{
\tstruct foo *p = from_tasklet(p, t, t);

\tp->n++;
}

static void foo_start(struct foo *p)
{
\ttasklet_setup(&p->t, foo_fn);
\ttasklet_schedule(&p->t);
}

static void foo_stop(struct foo *p)
{
\ttasklet_kill(&p->t);
}
"""


def kernel(k: Path, files: dict[str, str], patchlevel: int = 12, bh: bool = True) -> Path:
    """A kernel tree at k of Linux 6.<patchlevel>: a top Makefile, a
    workqueue.h (with or without BH workqueues) and files."""
    for p, text in {"Makefile": f"VERSION = 6\nPATCHLEVEL = {patchlevel}\nSUBLEVEL = 0\n",
                    "include/linux/workqueue.h": WORKQUEUE_H if bh else "/* 6.8 */\n",
                    **files}.items():
        (k / p).parent.mkdir(parents=True, exist_ok=True)
        (k / p).write_text(text)
    return k


def detasklet(args: list[str], cwd: Path, env: dict[str, str] | None = None,
              prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """python3 -m detasklet ARGS in cwd (prefix: a command to run it under)."""
    return subprocess.run([*(prefix or []), sys.executable, "-m", "detasklet", *args], cwd=cwd,
                          capture_output=True, text=True, env={**ENV, **(env or {})}, timeout=300)


def one_line_error(p: subprocess.CompletedProcess[str], words: str, code: int = 2) -> str:
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    if p.returncode != code:
        return f"exit {p.returncode}, want {code} ({p.stderr.strip()[-300:]!r})"
    if "Traceback" in p.stderr or len(lines) != 1:
        return f"want one line on stderr, got {p.stderr[-400:]!r}"
    if words.lower() not in lines[0].lower():
        return f"message {lines[0]!r} lacks {words!r}"
    return ""


class Tally:
    """One line per case, then 'N passed, N failed' (and skipped, if any)."""

    def __init__(self) -> None:
        self.passed = self.failed = self.skipped = 0

    def case(self, name: str, err: str) -> None:
        print(f"{'FAIL' if err else 'ok  '} {name}{': ' + err if err else ''}", flush=True)
        self.failed += bool(err)
        self.passed += not err

    def skip(self, name: str, why: str) -> None:
        print(f"skip {name}: {why}", flush=True)
        self.skipped += 1

    def close(self) -> int:
        print(f"{self.passed} passed, {self.failed} failed"
              + (f", {self.skipped} skipped" if self.skipped else ""))
        return 1 if self.failed or not self.passed else 0


class Skip(Exception):
    """A case that cannot run here (it needs root, say): reported as skipped."""


def run_cases(namespace: dict[str, Any], world: Callable[[Path], Any], prefix: str) -> int:
    """Every case_NAME function of namespace (or those named on the command
    line), each on world(a new scratch folder), which is then removed: one
    line per case and the tally; the exit code."""
    cases = [(n[5:].replace("_", "-"), f) for n, f in sorted(namespace.items())
             if n.startswith("case_")]
    only = sys.argv[1:]
    tally = Tally()
    for name, fn in cases:
        if only and name not in only:
            continue
        top = Path(tempfile.mkdtemp(prefix=prefix))
        try:
            err = fn(world(top))
        except Skip as s:
            tally.skip(name, str(s))
            continue
        except Exception as e:         # a broken case is a failure, with why
            err = f"{type(e).__name__}: {e}"
        finally:
            for p in [top, *top.rglob("*")]:     # a case may leave folders read-only
                if p.is_dir() and not p.is_symlink():
                    try:
                        os.chmod(p, 0o755)
                    except OSError:
                        pass
            shutil.rmtree(top, ignore_errors=True)
        tally.case(name, err)
    return tally.close()
