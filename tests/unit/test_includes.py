# SPDX-License-Identifier: GPL-2.0-only
"""ctext.includes and check.compile_test.objects_for: which .c files a
converted header reaches."""

import tempfile
import unittest
from pathlib import Path

from detasklet.check.compile_test import objects_for
from detasklet.ctext.includes import Resolver, includers
from fixtures import KBUILD_TREE, write_tree


class Includers(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.k = write_tree(Path(cls.tmp.name), KBUILD_TREE)
        cls.rev = includers(cls.k)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_local_header_through_local_headers(self) -> None:
        by = objects_for(["drivers/foo/priv.h"], self.rev)
        self.assertEqual(sorted(by["drivers/foo/priv.h"]),
                         ["drivers/foo/a.c", "drivers/foo/b.c", "drivers/foo/sub/s.c"])

    def test_public_header_direct_includers_only(self) -> None:
        by = objects_for(["include/linux/pub.h"], self.rev)
        self.assertEqual(sorted(by["include/linux/pub.h"]), ["drivers/bar/bar.c", "drivers/foo/a.c"])

    def test_quoted_include_from_a_folder_above(self) -> None:
        self.assertEqual(sorted(self.rev["drivers/foo/sub/local.h"]), ["drivers/foo/sub/s.c"])

    def test_without_search_up_only_beside_and_include(self) -> None:
        self.assertEqual(Resolver(self.k).of("drivers/foo/sub/s.c"), [])
        self.assertEqual(Resolver(self.k).of("drivers/foo/a.c"),
                         ["drivers/foo/priv.h", "include/linux/pub.h"])


if __name__ == "__main__":
    unittest.main()
