# SPDX-License-Identifier: GPL-2.0-only
"""detasklet.proc: the one process runner (output, exit code, time limit
that kills the whole process group, a missing program as one line),
stop() ending every descendant, and the clean-up of killed runs' scratch
files."""

import os
import re
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from detasklet import proc, scratch
from detasklet.errors import ToolError


def running(pid: int) -> bool:
    """pid exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Run(unittest.TestCase):
    def test_output_and_code(self) -> None:
        r = proc.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        self.assertEqual((r.rc, r.stdout, r.stderr, r.timed_out), (3, "out\n", "err\n", False))
        self.assertEqual(r.first_error(), "err")

    def test_stdin_cwd_env(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            r = proc.run(["sh", "-c", "cat; pwd; echo $X"], stdin="in\n", cwd=d,
                         env={**os.environ, "X": "x"})
        self.assertEqual(r.stdout.split(), ["in", os.path.realpath(d), "x"])

    def test_missing_program_is_one_line(self) -> None:
        with self.assertRaises(ToolError) as e:
            proc.run(["detasklet-no-such-program"])
        self.assertNotIn("\n", str(e.exception))

    def test_timeout_kills_the_group(self) -> None:
        # the shell starts a grandchild; the time limit must end both
        with tempfile.TemporaryDirectory() as d:
            pidfile = Path(d) / "pid"
            start = time.monotonic()
            r = proc.run(["sh", "-c", f"sleep 30 & echo $! > {pidfile}; wait"], timeout=1)
            self.assertTrue(r.timed_out)
            self.assertLess(time.monotonic() - start, 10)
            grandchild = int(pidfile.read_text())
        time.sleep(0.2)
        self.assertFalse(running(grandchild))

    def test_child_has_its_own_group(self) -> None:
        r = proc.run(["sh", "-c", "ps -o pgid= -p $$"])
        self.assertNotEqual(int(r.stdout), os.getpgrp())

    def test_lines(self) -> None:
        with proc.lines(["sh", "-c", "echo a; echo b >&2; exit 1"]) as p:
            assert p.stdout is not None
            got = [ln.strip() for ln in p.stdout]
        self.assertEqual((sorted(got), p.returncode), (["a", "b"], 1))


class Stop(unittest.TestCase):
    def test_stop_ends_descendants(self) -> None:
        # a child that ignores SIGTERM, and a grandchild in another group
        p = subprocess.Popen(["sh", "-c", "trap '' TERM; setsid sleep 60 & sleep 60"])
        time.sleep(0.3)
        below = proc.descendants(os.getpid())
        self.assertIn(p.pid, below)
        self.assertGreaterEqual(len(below), 2)
        start = time.monotonic()
        proc.stop(grace=0.5)
        p.wait()
        self.assertLess(time.monotonic() - start, 8)
        self.assertFalse([q for q in below if running(q)])

    def test_pool_workers_ignore_sigint(self) -> None:
        with proc.pool(1) as ex:
            handler = ex.submit(_handler).result()
        self.assertEqual(handler, "SIG_IGN")


def _handler() -> str:
    import signal
    h = signal.getsignal(signal.SIGINT)
    return "SIG_IGN" if h == signal.SIG_IGN else repr(h)


class Limit(unittest.TestCase):
    def test_time_limit_stops_the_block(self) -> None:
        start = time.monotonic()
        with self.assertRaises(proc.TimeLimit):
            with proc.time_limit(0.2):
                while True:
                    pass
        self.assertLess(time.monotonic() - start, 5)

    def test_time_limit_is_gone_after(self) -> None:
        with proc.time_limit(0.2):
            pass
        time.sleep(0.4)         # no alarm left to ring

    def test_facts_over_the_limit_refuse_the_group(self) -> None:
        from detasklet.convert.facts import groups
        slow = groups.examine
        groups.examine = lambda *a: time.sleep(5)      # type: ignore[assignment]
        try:
            g = groups.Group(["a.c", "a.h"])
            groups.examine_within(0.2, Path("."), g, None, [])
        finally:
            groups.examine = slow
        self.assertTrue(g.timed_out)
        self.assertEqual(set(g.refusals), {"a.c", "a.h"})
        self.assertIn("longer than the time limit (0.2 s, TIMEOUT)", g.refusals["a.c"])


class Stale(unittest.TestCase):
    def test_scratch_of_a_dead_run_is_removed(self) -> None:
        dead = subprocess.Popen(["true"])
        dead.wait()
        with tempfile.TemporaryDirectory() as d:
            mine = Path(d, f"detasklet-{os.getpid()}-x")
            gone = Path(d, f"detasklet-{dead.pid}-y")
            other = Path(d, "detasklet-notapid")
            for p in (mine, gone, other):
                p.mkdir()
            (gone / "f").write_text("x")
            Path(d, f"detasklet-{dead.pid}-z.patch").write_text("x")
            self.assertEqual(scratch.clean_stale(Path(d)), 2)
            self.assertEqual(sorted(os.listdir(d)),
                             sorted([mine.name, other.name]))

    def test_scratch_is_named_after_the_run(self) -> None:
        with scratch.folder("k") as d:
            self.assertTrue(re.fullmatch(rf"detasklet-{os.getpid()}-k-.*", d.name))
        self.assertFalse(d.exists())


if __name__ == "__main__":
    unittest.main()
