# SPDX-License-Identifier: GPL-2.0-only
"""convert.facts.driver_patches: loading the two forms, the prep patch first, and
a plain diff applied where its lines are."""

from __future__ import annotations

import logging
import tempfile
import unittest
from pathlib import Path

from detasklet.convert.facts import driver_patches
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
        self.assertEqual(ds[0].why, "FOO_OLD is defined nowhere.")

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
        self.assertEqual(d.why, "FOO_OLD is defined nowhere.\n\nSo it goes.")

    def test_the_drivers_name_first_is_not_in_the_message(self) -> None:
        # iosm's bullet read "- iosm: ipc_task->..." under "In iosm, ..."
        for head, want in (("/// lcs (PF): the irq_tasklet goes.", "The irq_tasklet goes."),
                           ("/// vt keyboard: kbd_tasklet goes.", "kbd_tasklet goes."),
                           ("/// foo_remove() frees it: so.", "foo_remove() frees it: so."),
                           ("/// The DROQ tasklet (x) is: so.", "The DROQ tasklet (x) is: so.")):
            (self.dir / "afoo.cocci").write_text(head + "\n" + COCCI.split("\n", 1)[1])
            with self.subTest(head=head):
                self.assertEqual(driver_patches.load(self.dir)[0].why, want)

    def test_two_prep_patches_for_one_file(self) -> None:
        (self.dir / "bar.patch").write_text(HEAD + DIFF)
        with self.assertRaises(InputError):
            driver_patches.load(self.dir)


FIX_HEAD = ("/// foo: foo_remove() kills the tasklet before free_irq().\n///\n"
            "/// Kill it after.\n// Files: drivers/foo.c\n// Fix: Kill the tasklet after free_irq()\n"
            '// Fixes: 0123456789abcdef ("foo: Add the foo driver")\n\n')


class FixLines(unittest.TestCase):
    """`// Fix:` and `// Fixes:`: a fix runs first, its message keeps its
    paragraphs, and a header that mixes the lines up is refused."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "foo.patch").write_text(HEAD + DIFF)
        (self.dir / "foo-fix.cocci").write_text(FIX_HEAD + "virtual patch\n")
        (self.dir / "afoo.cocci").write_text(COCCI)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def load_with(self, head: str) -> list[driver_patches.DriverPatch]:
        (self.dir / "foo-fix.cocci").write_text(head + "virtual patch\n")
        return driver_patches.load(self.dir)

    def test_fix_first_then_prep_then_the_others(self) -> None:
        ds = driver_patches.for_file(driver_patches.load(self.dir), "drivers/foo.c")
        self.assertEqual([(d.path.name, d.own) for d in ds],
                         [("foo-fix.cocci", "Kill the tasklet after free_irq()"),
                          ("foo.patch", "Remove FOO_OLD"), ("afoo.cocci", "")])
        fix = ds[0]
        self.assertEqual((fix.fix, fix.prep), ("Kill the tasklet after free_irq()", ""))
        self.assertEqual(fix.fixes, '0123456789abcdef ("foo: Add the foo driver")')
        self.assertEqual(fix.why, "foo_remove() kills the tasklet before free_irq()."
                                  "\n\nKill it after.")

    def test_fix_without_a_known_commit(self) -> None:
        d = self.load_with(FIX_HEAD.replace('// Fixes: 0123456789abcdef ("foo: Add the foo '
                                            'driver")\n', ""))
        self.assertEqual([x.fixes for x in d if x.fix], [""])

    def test_headers_that_are_refused(self) -> None:
        for head in (FIX_HEAD + "// Prep: Remove FOO_OLD\n",                 # both
                     FIX_HEAD.replace("// Fix: Kill the tasklet after free_irq()\n", ""),
                     FIX_HEAD.replace("0123456789abcdef", "0123456"),      # too short
                     FIX_HEAD.replace('("foo: Add the foo driver")', "foo: Add")):
            with self.subTest(head=head), self.assertRaises(InputError):
                self.load_with(head)

    def test_two_fixes_for_one_file(self) -> None:
        (self.dir / "foo-fix2.cocci").write_text(FIX_HEAD + "virtual patch\n")
        with self.assertRaises(InputError):
            driver_patches.load(self.dir)


class MappingLines(unittest.TestCase):
    """`// Mapping:` rows: what an in-place patch made of the API it
    rewrote (vt keyboard's DECLARE_TASKLET_DISABLED(), whose message said
    DECLARE_TASKLET(), the form the rules converted)."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_rows_are_read(self) -> None:
        (self.dir / "kbd.cocci").write_text(
            COCCI.replace("virtual patch\n", "// Mapping: DECLARE_TASKLET_DISABLED() -> "
                          "DECLARE_WORK() and ready\n// Mapping: tasklet_enable() -> setting "
                          "ready (init())\nvirtual patch\n"))
        self.assertEqual(driver_patches.load(self.dir)[0].rows,
                         ("DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and ready",
                          "tasklet_enable() -> setting ready (init())"))

    def test_a_row_of_no_api_is_refused(self) -> None:
        (self.dir / "kbd.cocci").write_text(
            COCCI.replace("virtual patch\n", "// Mapping: kbd_init() -> x\nvirtual patch\n"))
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
