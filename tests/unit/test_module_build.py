# SPDX-License-Identifier: GPL-2.0-only
"""compile-test M=: how the two builds of a module are read (check/module_build.py)."""

import tempfile
import unittest
from pathlib import Path

from detasklet.check import module_build as mb
from detasklet.errors import InputError


class Diagnostics(unittest.TestCase):
    def test_paths_made_module_relative(self) -> None:
        # kbuild names the M= folder's files relative to it, others absolute
        self.assertEqual(mb.rel("xpp/x.c:3:1: error: e", Path("/c"), "drivers/dahdi"),
                         "drivers/dahdi/xpp/x.c:3:1: error: e")
        self.assertEqual(mb.rel("/c/include/k.h:9: warning: w", Path("/c"), "drivers/dahdi"),
                         "include/k.h:9: warning: w")

    def test_matched_without_line_numbers(self) -> None:
        # the converted file's lines moved: the same errors are not new; a third warning is
        got = mb.added(["a.c:1:1: error: e", "a.c:5: warning: w"],
                       ["a.c:3:1: error: e", "a.c:9: warning: w", "a.c:10: warning: w"])
        self.assertEqual(got, ["a.c:10: warning: w"])


class Status(unittest.TestCase):
    def test_object_or_not(self) -> None:
        failed, fine = mb.Built(2, [], ""), mb.Built(0, [], "")
        self.assertEqual(mb.status("d/a.c", failed, {"d/a.o"}, {}), "ok")
        self.assertEqual(mb.status("d/b.c", failed, {"d/a.o"}, {}), "error")
        self.assertEqual(mb.status("d/b.c", fine, {"d/a.o"}, {}), "not-built")

    def test_header_by_its_includers(self) -> None:
        incl = {"d/h.h": {"d/i.h"}, "d/i.h": {"d/a.c", "d/b.c"}}
        b = mb.Built(2, [], "")
        self.assertEqual(mb.status("d/h.h", b, {"d/a.o", "d/b.o"}, incl), "ok")
        self.assertEqual(mb.status("d/h.h", b, {"d/a.o"}, incl), "error")


class How(unittest.TestCase):
    def test_checked(self) -> None:
        with tempfile.TemporaryDirectory() as t:
            root = Path(t)
            (root / "drivers" / "x").mkdir(parents=True)
            (root / "drivers" / "x" / "Kbuild").write_text("obj-m := x.o\n")
            mb.How("drivers/x", ["A=1", "KCFLAGS=-DA -DB"]).check(root)
            for how, words in ((mb.How("../"), "not a folder inside"),
                               (mb.How("drivers"), "no Kbuild or Makefile"),
                               (mb.How("", ["-j8"]), "is not VAR=value")):
                with self.subTest(words=words), self.assertRaises(InputError) as e:
                    how.check(root)
                self.assertIn(words, str(e.exception))


if __name__ == "__main__":
    unittest.main()
