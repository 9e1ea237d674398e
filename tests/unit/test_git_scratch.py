# SPDX-License-Identifier: GPL-2.0-only
"""The scratch repository of the series' git runs (series/gitmail.py) is
gone after a run however it ends: a signal in the middle of the git runs
removes it (proc's cleanups), and a run killed outright (SIGKILL, where
nothing of it runs) leaves a folder named after its PID, which the next
run's scratch.clean_stale() removes. And no module but scratch.py makes a
temporary folder, so every other one is made the same way (the series'
branches, check's git am)."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from detasklet import scratch

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

# A run of gitmail.mails() that a signal ends at its first git command.
CHILD = """
import os, signal, sys, time
from pathlib import Path
from detasklet import proc
from detasklet.series import gitmail
from detasklet.series.identity import Ident

def stopped(*args, **kwargs):
    os.kill(os.getpid(), int(sys.argv[1]))
    time.sleep(10)

proc.handle_signals()
proc.run = stopped
gitmail.mails(Path(sys.argv[2]), Ident("A U Thor <author@example.org>", 0), {}, [[]], [""])
"""


def run_stopped(sig: int, tmp: Path, kdir: Path) -> int:
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(SCRIPTS)}
    return subprocess.run([sys.executable, "-c", CHILD, str(int(sig)), str(kdir)],
                          env=env, capture_output=True, timeout=60).returncode


class GitScratch(unittest.TestCase):
    def test_a_signal_in_the_git_runs_leaves_nothing(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            tmp, kdir = Path(d, "tmp"), Path(d, "linux")
            tmp.mkdir()
            kdir.mkdir()
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                self.assertEqual(run_stopped(sig, tmp, kdir), 128 + sig)
                self.assertEqual(os.listdir(tmp), [], sig.name)

    def test_a_killed_runs_folder_goes_with_the_next_run(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            tmp, kdir = Path(d, "tmp"), Path(d, "linux")
            tmp.mkdir()
            kdir.mkdir()
            self.assertEqual(run_stopped(signal.SIGKILL, tmp, kdir), -signal.SIGKILL)
            self.assertEqual(len(os.listdir(tmp)), 1)     # the kill left it
            self.assertEqual(scratch.clean_stale(tmp), 1)
            self.assertEqual(os.listdir(tmp), [])

    def test_only_scratch_makes_temporary_folders(self) -> None:
        makers = {"TemporaryDirectory", "mkdtemp"}
        found = []
        for p in sorted(SCRIPTS.rglob("*.py")):
            if p.name == "scratch.py" or "__pycache__" in p.parts:
                continue
            for n in ast.walk(ast.parse(p.read_text(), str(p))):
                if isinstance(n, ast.Attribute) and n.attr in makers \
                        or isinstance(n, ast.Name) and n.id in makers:
                    found.append(f"{p.relative_to(SCRIPTS)}:{n.lineno}")
        self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()
