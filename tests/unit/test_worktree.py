# SPDX-License-Identifier: GPL-2.0-only
"""check.worktree: the converted copy, KDIR untouched, refreshed on change."""

import os
import tempfile
import unittest
from pathlib import Path

from detasklet.check import worktree
from fixtures import KBUILD_TREE, write_tree


def diff(path: str, old: str, new: str) -> str:
    return f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}+{new}"


class Prepare(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        t = Path(self.tmp.name)
        self.k = write_tree(t / "k", KBUILD_TREE)
        self.src = t / "build/src-converted"
        self.patch = t / "all.patch"
        self.patch.write_text(diff("drivers/foo/priv.h", "struct p;\n", "struct p2;\n") +
                              diff("include/linux/pub.h", "struct q;\n", "struct q2;\n"))
        worktree.prepare(self.k, self.patch, self.src)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def ino(self, root: Path, f: str) -> int:
        return os.stat(root / f).st_ino

    def test_patched_file_has_its_own_inode_and_kdir_is_unchanged(self) -> None:
        self.assertNotEqual(self.ino(self.src, "drivers/foo/priv.h"),
                            self.ino(self.k, "drivers/foo/priv.h"))
        self.assertEqual((self.k / "drivers/foo/priv.h").read_text(), "struct p;\n")

    def test_unpatched_file_is_a_hard_link(self) -> None:
        self.assertEqual(self.ino(self.src, "drivers/foo/a.c"), self.ino(self.k, "drivers/foo/a.c"))

    def test_refresh_when_the_patch_changes(self) -> None:
        old_m = 1_000_000.0
        os.utime(self.src / "include/linux/pub.h", (old_m, old_m))
        self.patch.write_text(diff("include/linux/pub.h", "struct q;\n", "struct q2;\n"))
        worktree.prepare(self.k, self.patch, self.src)
        self.assertEqual((self.src / "drivers/foo/priv.h").read_text(), "struct p;\n")
        self.assertEqual(os.stat(self.src / "include/linux/pub.h").st_mtime, old_m)
        with self.assertNoLogs("detasklet"):
            worktree.prepare(self.k, self.patch, self.src)


if __name__ == "__main__":
    unittest.main()
