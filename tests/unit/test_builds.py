# SPDX-License-Identifier: GPL-2.0-only
"""out.builds: a file's compile-test record read as one type, as report.json
holds it and as files.builds() gives it to every reader."""

from __future__ import annotations

import unittest

from detasklet.out.builds import Build


class Record(unittest.TestCase):
    def test_a_record_and_its_words(self) -> None:
        b = Build.of({"arch": "x86_64+arm64", "config": "allmodconfig", "pristine": "ok",
                      "converted": "error", "log": "a.c:1: error: x\nmore", "regression": True})
        self.assertEqual((b.builds, b.fails, b.breaks, b.built), (False, True, True, True))
        self.assertEqual(b.arches(), ["x86_64", "arm64"])
        self.assertEqual(b.first_error(), "a.c:1: error: x")
        self.assertIs(Build.of(b), b)

    def test_a_file_not_built(self) -> None:
        b = Build.of({"arch": "none", "pristine": "not-built", "converted": "not-built"})
        self.assertEqual((b.builds, b.fails, b.built, b.regression), (False, False, False, False))
        self.assertEqual(Build.of({}).first_error(), "")


if __name__ == "__main__":
    unittest.main()
