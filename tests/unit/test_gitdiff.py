# SPDX-License-Identifier: GPL-2.0-only
"""ctext.gitdiff: diffs in git form, read back and applied."""

import unittest

from detasklet.ctext import gitdiff


class GitDiff(unittest.TestCase):
    OLD = "int a;\n\nvoid f(void)\n{\n\tx();\n}\n"
    NEW = OLD.replace("x()", "y()")

    def test_header_and_function_context(self) -> None:
        d = gitdiff.file_diff("a.c", self.OLD, self.NEW)
        self.assertTrue(d.startswith("diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"))
        self.assertIn("@@ -2,5 +2,5 @@ int a;\n", d)

    def test_round_trip(self) -> None:
        fd = gitdiff.parse(gitdiff.file_diff("a.c", self.OLD, self.NEW))[0]
        self.assertEqual(gitdiff.apply(self.OLD, fd), self.NEW)
        self.assertEqual((fd.added, fd.removed), (1, 1))

    def test_no_change_no_diff(self) -> None:
        self.assertEqual(gitdiff.file_diff("a.c", self.OLD, self.OLD), "")

    def test_missing_newline_at_end(self) -> None:
        d = gitdiff.file_diff("a.c", "a\nb", "a\nc")
        self.assertIn("\\ No newline at end of file\n", d)
        self.assertEqual(gitdiff.apply("a\nb", gitdiff.parse(d)[0]), "a\nc")

    def test_a_hunk_that_does_not_fit_is_refused(self) -> None:
        fd = gitdiff.parse(gitdiff.file_diff("a.c", self.OLD, self.NEW))[0]
        with self.assertRaises(gitdiff.PatchError):
            gitdiff.apply(self.OLD.replace("x()", "z()"), fd)


if __name__ == "__main__":
    unittest.main()
