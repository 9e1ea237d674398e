# SPDX-License-Identifier: GPL-2.0-only
"""check.send: a series with a driver's prep patch before its conversion
(the same file in two patches of one series) is checked as it is applied."""

import tempfile
import unittest
from pathlib import Path

from detasklet.check import send
from detasklet.ctext import gitdiff

OLD = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
PREP = OLD.replace("b\n", "B\n")                  # the prep patch: line 2
CONV = PREP.replace("d\n", "D\n")                 # the conversion: B in its context


def diffs(path: str, *texts: str) -> list[list[gitdiff.FileDiff]]:
    """One FileDiff list a step: texts[0] -> texts[1] -> ..."""
    return [gitdiff.parse(gitdiff.file_diff(path, a, b)) for a, b in zip(texts, texts[1:])]


class Series(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.k = Path(self.tmp.name)
        (self.k / "drivers/foo").mkdir(parents=True)
        (self.k / "drivers/foo/a.c").write_text(OLD)
        (self.k / "drivers/foo/b.c").write_text(OLD)
        prep, conv = diffs("drivers/foo/a.c", OLD, PREP, CONV)
        other, = diffs("drivers/foo/b.c", OLD, CONV)
        self.parsed = {"net/0001-prep.patch": prep, "net/0002-conv.patch": conv,
                       "net/0003-other.patch": other}
        self.whole = gitdiff.parse(gitdiff.file_diff("drivers/foo/a.c", OLD, CONV) +
                                   gitdiff.file_diff("drivers/foo/b.c", OLD, CONV))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_a_conversion_is_applied_on_its_prep_patch_only(self) -> None:
        folder = [Path("/o/series/net", n.split("/")[1]) for n in sorted(self.parsed)]
        self.assertEqual([p.name for p in send.base(folder, 1, self.parsed)],
                         ["0001-prep.patch", "0002-conv.patch"])
        self.assertEqual([p.name for p in send.base(folder, 2, self.parsed)], ["0003-other.patch"])

    def test_prep_then_conversion_is_all_patch(self) -> None:
        texts, bad = send.series_contents(self.k, self.parsed)
        self.assertEqual((texts["drivers/foo/a.c"], bad), (CONV, []))
        self.assertEqual(send.final_contents(self.k, texts, self.whole), [])

    def test_a_conversion_that_lost_its_prep_differs(self) -> None:
        conv_alone, = diffs("drivers/foo/a.c", OLD, OLD.replace("d\n", "D\n"))
        parsed = {**self.parsed, "net/0001-prep.patch": [], "net/0002-conv.patch": conv_alone}
        texts, bad = send.series_contents(self.k, parsed)
        self.assertEqual(bad, [])
        self.assertEqual(send.final_contents(self.k, texts, self.whole),
                         ["drivers/foo/a.c: its patches together differ from all.patch"])

    def test_patches_in_the_wrong_order_do_not_apply(self) -> None:
        prep, conv = self.parsed["net/0001-prep.patch"], self.parsed["net/0002-conv.patch"]
        parsed = {**self.parsed, "net/0001-prep.patch": conv, "net/0002-conv.patch": prep}
        _, bad = send.series_contents(self.k, parsed)
        self.assertEqual(len(bad), 1)
        self.assertIn("does not apply", bad[0])

    def test_a_file_of_two_patches_missing_from_all_patch(self) -> None:
        texts, _ = send.series_contents(self.k, self.parsed)
        self.assertEqual(send.final_contents(self.k, texts, self.whole[:1]),
                         ["drivers/foo/b.c is in the series, not in all.patch"])


if __name__ == "__main__":
    unittest.main()


class Reverse(unittest.TestCase):
    MAIL = ("Subject: [PATCH] x\n\nWhy.\n---\n a.c | 2 +-\n\n"
            "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,3 @@ f\n a\n-b\n+c\n+d\n"
            "-- \n2.39\n")

    def test_what_it_removes_is_added(self) -> None:
        self.assertEqual(send.reverse(self.MAIL),
                         "Subject: [PATCH] x\n\nWhy.\n---\n a.c | 2 +-\n\n"
                         "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,2 @@ f\n a\n"
                         "+b\n-c\n-d\n-- \n2.39\n")

    def test_twice_is_the_patch(self) -> None:
        self.assertEqual(send.reverse(send.reverse(self.MAIL)), self.MAIL)


class Inherited(unittest.TestCase):
    def test_only_what_the_replaced_lines_had_counts_as_inherited(self) -> None:
        r = send.Result("x", types={"WARNING:AVOID_BUG": 3, "WARNING:LONG_LINE": 1,
                                    "CHECK:SPACING": 2},
                        inherited={"WARNING:AVOID_BUG": 3})
        self.assertEqual((r.count("WARNING"), r.count("CHECK")), (1, 2))
        self.assertFalse(r.ok)
        kept = send.Result("y", types={"WARNING:AVOID_BUG": 3}, inherited={"WARNING:AVOID_BUG": 3})
        self.assertTrue(kept.ok)
