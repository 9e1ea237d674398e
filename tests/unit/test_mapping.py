# SPDX-License-Identifier: GPL-2.0-only
"""mapping: the one table, and what is made from it or checked against it."""

import re
import unittest
from pathlib import Path

from detasklet.convert.rewrite.fixups import rewrite_macros
from detasklet.mapping import MAPPING, readme_table, used

ROOT = Path(__file__).resolve().parents[2]


def _call(text: str) -> str:
    """'tasklet_kill()' -> 'tasklet_kill(', 'struct x' -> 'struct x'."""
    return text.split("(")[0] + "(" if "(" in text else text


class Mapping(unittest.TestCase):
    def test_each_one_for_one_row_is_a_rule(self) -> None:
        rules = "".join(p.read_text() for p in sorted((ROOT / "cocci").glob("*.cocci")))
        minus = {ln[1:].strip() for ln in rules.splitlines() if ln.startswith("-")}
        plus = {ln[1:].strip() for ln in rules.splitlines() if ln.startswith("+")}
        for row in MAPPING:
            if not row.macro:
                continue
            old, new = (_call(side) for side in row.new.split(" -> "))
            with self.subTest(row=row.key):
                self.assertTrue(any(m.startswith(old) for m in minus), f"no - {old} in cocci/")
                self.assertTrue(any(p.startswith(row.macro.rstrip()) for p in plus)
                                or any(new in p for p in plus), f"no + {row.macro} in cocci/")

    def test_macro_renames_are_the_rows(self) -> None:
        uses = [_call(r.new.split(" -> ")[0]) for r in MAPPING if r.macro]
        body = "#define X(p) " + " ".join(u + "p);" if u.endswith("(") else u + " *p;"
                                          for u in uses)
        got = rewrite_macros(body)
        for row in MAPPING:
            if row.macro:
                self.assertIn(row.macro, got)
        self.assertFalse(used(got.replace("struct work_struct", "")), got)

    def test_declare_tasklet_is_not_declare_tasklet_old(self) -> None:
        self.assertEqual([r.key for r in used("DECLARE_TASKLET_OLD(x, f);")],
                         ["DECLARE_TASKLET_OLD"])

    def test_readme_shows_the_table(self) -> None:
        readme = (ROOT / "README.md").read_text()
        self.assertTrue(readme_table() in readme, "README.md: paste mapping.readme_table()")

    def test_every_api_row_names_a_tasklet_identifier(self) -> None:
        for row in MAPPING:
            self.assertTrue(re.search(r"tasklet|TASKLET", row.old), row.key)


if __name__ == "__main__":
    unittest.main()
