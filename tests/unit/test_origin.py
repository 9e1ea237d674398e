# SPDX-License-Identifier: GPL-2.0-only
"""OUT/run.json: the run's own data apart from the result, and the tree OUT
was made from, which series, send-check, compile-test and coverage use
without KDIR, refusing in one line when it is gone or changed."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from detasklet.errors import DetaskletError
from detasklet.out import origin, summary


def tree(top: Path, sublevel: int) -> Path:
    (top / "include/linux").mkdir(parents=True, exist_ok=True)
    (top / "include/linux/workqueue.h").write_text("")
    (top / "Makefile").write_text(f"VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = {sublevel}\n")
    return top


class Origin(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        t = Path(self.tmp.name)
        self.kdir = tree(t / "linux", 4)
        self.out = t / "out"
        self.out.mkdir()
        origin.write_run(self.out, self.kdir, "7.3.4", {"scan": 1.0, "spatch": 2.5},
                         {"reused": 1, "computed": 2})

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_given_kdir_wins(self) -> None:
        self.assertEqual(origin.kdir_for("/elsewhere", str(self.out)), "/elsewhere")

    def test_recorded_kdir(self) -> None:
        self.assertEqual(origin.kdir_for(None, str(self.out)), str(self.kdir.resolve()))

    def test_changed_version_is_refused(self) -> None:
        tree(self.kdir, 5)
        with self.assertRaisesRegex(DetaskletError, "at Linux 7.3.4; it is now Linux 7.3.5"):
            origin.kdir_for(None, str(self.out))

    def test_gone_is_refused(self) -> None:
        (self.kdir / "Makefile").unlink()
        with self.assertRaisesRegex(DetaskletError, "which is gone"):
            origin.kdir_for(None, str(self.out))

    def test_no_record_is_refused(self) -> None:
        (self.out / "run.json").unlink()
        with self.assertRaisesRegex(DetaskletError, "records no KDIR"):
            origin.kdir_for(None, str(self.out))

    def test_no_out_is_refused(self) -> None:
        with self.assertRaisesRegex(DetaskletError, "does not exist"):
            origin.kdir_for(None, str(self.out / "nope"))

    def test_make_report_reads_run_json(self) -> None:
        self.assertEqual(summary.run_lines(self.out), [
            "", f"made from KDIR {self.kdir.resolve()} (Linux 7.3.4) in 4 s: scan 1 s, spatch 2 s",
            "cache: 1 results reused, 2 computed"])


if __name__ == "__main__":
    unittest.main()
