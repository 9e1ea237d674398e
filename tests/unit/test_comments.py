# SPDX-License-Identifier: GPL-2.0-only
"""ctext.comments and convert/rewrite/comments.py: the tasklet API named in
comments and strings, and the per-site rewrites of such comments, on
made-up C and on each reference tree in cache/ (make test unpacks them)."""

import unittest
from pathlib import Path

from detasklet.ctext import comments
from detasklet.ctext.sources import read_text
from detasklet.ctext.tasklet import API_RE, find_uses
from detasklet.convert.rewrite import comments as table

ROOT = Path(__file__).resolve().parents[2]
TREES = ("7.3", "6.12")


class Named(unittest.TestCase):
    def test_comments_and_strings_not_code(self) -> None:
        text = ("/* before tasklet_schedule() */\n"
                "tasklet_kill(t); // see tasklet_enable()\n"
                'pr_info("tasklet_disable failed");\n'
                "/* the tasklet runs: a word, not the API */\n")
        self.assertEqual([(u.line, u.ident) for u in comments.named(text)],
                         [(1, "tasklet_schedule"), (2, "tasklet_enable"), (3, "tasklet_disable")])

    def test_a_prefix_is_not_an_api_name(self) -> None:
        self.assertEqual(comments.named("/* escb_tasklet_complete() */\n"), [])


class Edit(unittest.TestCase):
    TEXT = "\t/* before tasklet_schedule() */\n\ttasklet_schedule(t);\n"

    def test_a_comment_is_rewritten(self) -> None:
        new, missed = comments.edit(self.TEXT, (("before tasklet_schedule() */",
                                                 "before queue_work() */"),))
        self.assertEqual((new, missed),
                         ("\t/* before queue_work() */\n\ttasklet_schedule(t);\n", []))

    def test_an_edit_that_changes_code_is_not_applied(self) -> None:
        old = "tasklet_schedule(t);"
        new, missed = comments.edit(self.TEXT, ((old, "queue_work(system_bh_wq, t);"),))
        self.assertEqual((new, missed), (self.TEXT, [old]))

    def test_an_edit_found_twice_or_not_at_all_is_not_applied(self) -> None:
        twice = self.TEXT + self.TEXT
        for text in (twice, "int x;\n"):
            self.assertEqual(comments.edit(text, (("tasklet_schedule() */", "x */"),)),
                             (text, ["tasklet_schedule() */"]))

    def test_a_trailing_comment_can_go(self) -> None:
        text = "#include <linux/interrupt.h>\t/*  for struct tasklet_struct */\n"
        self.assertEqual(table.rewrite(
            "drivers/staging/rtl8723bs/include/osdep_service_linux.h", text),
            "#include <linux/interrupt.h>\n")


class Table(unittest.TestCase):
    """Each entry names the API in its old text (a whole comment, or lines
    of one), none in its new text, and applies to the file it is written
    for on a reference tree, leaving no API name in its comments and its
    code as it was."""

    def test_old_names_the_api_and_new_does_not(self) -> None:
        for path, edits in table.TABLE.items():
            for old, new in edits:
                self.assertTrue(API_RE.search(old), (path, old))
                self.assertIsNone(API_RE.search(new), (path, new))

    def test_each_entry_applies_on_a_reference_tree(self) -> None:
        for path, edits in table.TABLE.items():
            hits = []
            for v in TREES:
                f = ROOT / "cache" / f"linux-source-{v}" / path
                if f.is_file():
                    text = read_text(f)
                    new = table.rewrite(path, text)
                    if new != text:
                        hits.append(v)
                        self.assertEqual(comments.named(new), [], (v, path))
                        self.assertEqual([u.ident for u in find_uses(new)],
                                         [u.ident for u in find_uses(text)], (v, path))
            self.assertTrue(hits, f"{path}: no reference tree has the comments of its entry")


if __name__ == "__main__":
    unittest.main()
