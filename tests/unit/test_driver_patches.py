# SPDX-License-Identifier: GPL-2.0-only
"""convert.driver_patches: loading the two forms, the prep patch first, and
a plain diff applied where its lines are."""

from __future__ import annotations

import logging
import tempfile
import unittest
from pathlib import Path

from detasklet.convert import driver_patches
from detasklet.ctext.gitdiff import apply_anywhere, parse
from detasklet.errors import InputError, PatchError

HEAD = "/// foo: FOO_OLD is defined nowhere.\n// Files: drivers/foo.c\n// Prep: Remove FOO_OLD\n\n"
DIFF = """diff --git a/drivers/foo.c b/drivers/foo.c
--- a/drivers/foo.c
+++ b/drivers/foo.c
@@ -1,4 +1,2 @@
 int a;
-#ifdef FOO_OLD
-int b;
 int c;
"""
COCCI = "/// foo: a reason.\n// Files: drivers/foo.c\nvirtual patch\n"
TEXT = "int z;\nint y;\nint a;\n#ifdef FOO_OLD\nint b;\nint c;\n"


class DriverPatches(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "foo.patch").write_text(HEAD + DIFF)
        (self.dir / "afoo.cocci").write_text(COCCI)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_both_forms_load_prep_first(self) -> None:
        ds = driver_patches.for_file(driver_patches.load(self.dir), "drivers/foo.c")
        self.assertEqual([(d.path.name, d.prep) for d in ds],
                         [("foo.patch", "Remove FOO_OLD"), ("afoo.cocci", "")])
        self.assertEqual(ds[0].why, "foo: FOO_OLD is defined nowhere.")

    def test_diff_applies_at_an_offset(self) -> None:
        d = driver_patches.load(self.dir)[1]
        self.assertEqual(driver_patches.apply(d, "drivers/foo.c", TEXT),
                         "int z;\nint y;\nint a;\nint c;\n")

    def test_diff_that_does_not_fit_leaves_the_text(self) -> None:
        d = driver_patches.load(self.dir)[1]
        with self.assertLogs("detasklet", logging.WARNING):
            self.assertEqual(driver_patches.apply(d, "drivers/foo.c", "int a;\n"), "int a;\n")

    def test_an_empty_doc_line_ends_a_paragraph(self) -> None:
        (self.dir / "foo.patch").write_text(
            "/// foo: FOO_OLD is\n/// defined nowhere.\n///\n/// So it goes.\n"
            + HEAD.split("\n", 1)[1] + DIFF)
        d = driver_patches.load(self.dir)[1]
        self.assertEqual(d.why, "foo: FOO_OLD is defined nowhere.\n\nSo it goes.")

    def test_two_prep_patches_for_one_file(self) -> None:
        (self.dir / "bar.patch").write_text(HEAD + DIFF)
        with self.assertRaises(InputError):
            driver_patches.load(self.dir)


class ApplyAnywhere(unittest.TestCase):
    def test_lines_twice_is_an_error(self) -> None:
        fd = parse(DIFF)[0]
        with self.assertRaises(PatchError):
            apply_anywhere(TEXT + TEXT, fd)

    def test_hunks_in_order(self) -> None:
        fd = parse(DIFF.replace("@@ -1,4 +1,2 @@", "@@ -9,4 +9,2 @@"))[0]
        self.assertEqual(apply_anywhere(TEXT, fd), "int z;\nint y;\nint a;\nint c;\n")


if __name__ == "__main__":
    unittest.main()
