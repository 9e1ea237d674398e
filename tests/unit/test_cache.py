# SPDX-License-Identifier: GPL-2.0-only
"""cache: whole entries or none, keyed by everything that made them."""

import logging
import os
import tempfile
import unittest
from pathlib import Path

from detasklet import cache


class Store(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.c = cache.Cache(Path(self.tmp.name))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_round_trip_and_counts(self) -> None:
        self.assertIsNone(self.c.get("spatch", "ab12"))
        self.c.put("spatch", "ab12", {"out": "text", "rc": 0})
        self.assertEqual(self.c.get("spatch", "ab12"), {"out": "text", "rc": 0})
        self.assertEqual((self.c.hits, self.c.misses), (1, 1))

    def test_torn_entry_is_a_miss(self) -> None:
        self.c.put("diff", "cd34", {"diff": "x" * 1000})
        p = next(Path(self.tmp.name).rglob("cd34*"))
        p.write_bytes(p.read_bytes()[:-8])
        self.assertIsNone(self.c.get("diff", "cd34"))

    def test_entry_under_another_key_is_a_miss(self) -> None:
        self.c.put("diff", "ef56", {"diff": "a"})
        src = next(Path(self.tmp.name).rglob("ef56*"))
        dst = src.with_name("ef57.json.gz")
        dst.write_bytes(src.read_bytes())
        self.assertIsNone(self.c.get("diff", "ef57"))

    def test_no_temporary_file_is_left(self) -> None:
        self.c.put("diff", "0a0b", {"diff": "a"})
        self.assertEqual([p.name for p in Path(self.tmp.name).rglob("*") if p.is_file()],
                         ["0a0b.json.gz"])

    def test_a_killed_runs_temporary_file_is_swept(self) -> None:
        """kill -9 between mkstemp and the rename leaves a .tmp-*: gone at the
        next write into its folder once it is older than any write; a
        young one (a run writing now) stays."""
        self.c.put("diff", "0a0b", {"diff": "a"})
        folder = next(Path(self.tmp.name).rglob("0a0b*")).parent
        old, young = folder / ".tmp-killed", folder / ".tmp-writing"
        old.write_bytes(b"half")
        young.write_bytes(b"half")
        os.utime(old, (1, 1))
        self.c.put("diff", "0a0c", {"diff": "b"})
        self.assertFalse(old.exists())
        self.assertTrue(young.exists())

    def test_unwritable_cache_warns_once_and_goes_on(self) -> None:
        blocker = Path(self.tmp.name) / "file"
        blocker.write_text("")
        c = cache.Cache(blocker / "sub")
        with self.assertLogs("detasklet", logging.WARNING) as logs:
            c.put("diff", "1234", {"diff": "a"})
            c.put("diff", "5678", {"diff": "b"})
        self.assertEqual(len(logs.output), 1)
        self.assertIsNone(c.get("diff", "1234"))

    def test_no_cache(self) -> None:
        c = cache.Cache(None)
        c.put("diff", "1234", {"diff": "a"})
        self.assertIsNone(c.get("diff", "1234"))
        self.assertEqual(c.summary(), "no cache")

    def test_sources_of_the_rules_are_what_they_import(self) -> None:
        """What spatch's rules load, no more: a change to a message or a
        test keeps the spatch results."""
        names = [str(f.relative_to(cache.SCRIPTS)) for f in cache.sources_of("detasklet_cocci")]
        self.assertEqual(names, ["detasklet/__init__.py", "detasklet/ctext/__init__.py",
                                 "detasklet/ctext/lex.py", "detasklet/ctext/tasklet.py",
                                 "detasklet/mapping.py", "detasklet_cocci.py"])

    def test_digest_parts_do_not_run_together(self) -> None:
        self.assertNotEqual(cache.digest("ab", "c"), cache.digest("a", "bc"))


if __name__ == "__main__":
    unittest.main()
