# SPDX-License-Identifier: GPL-2.0-only
"""convert.pipeline.unmatched(): a decision that matches no site is said
stale ("the decision is not applied; read the driver again"). A group
refused because it outran the time limit has no sites at all: three
engineers were told their fresh virt-dma decisions were stale when the
34-file group had only timed out."""

import unittest

from detasklet.convert import pipeline
from detasklet.convert.facts import groups
from detasklet.convert.verdicts.decisions import Decision


def _decision() -> Decision:
    return Decision(file="drivers/dma/foo.c", function="foo_remove", api="tasklet_kill",
                    item="task", replacement="flush_work", why="x",
                    source="decisions/foo.toml")


class Unmatched(unittest.TestCase):
    def test_a_decision_with_no_site_is_stale(self) -> None:
        g = groups.Group(files=["drivers/dma/foo.c"])
        lines = pipeline.unmatched([g], [_decision()], "7.3.4")
        self.assertEqual(len(lines), 1)
        self.assertIn("the decision is not applied", lines[0])

    def test_a_timed_out_group_says_nothing_of_its_decisions(self) -> None:
        g = groups.Group(files=["drivers/dma/foo.c"])
        groups.too_long(g, 120, "planning the calls")
        self.assertEqual(pipeline.unmatched([g], [_decision()], "7.3.4"), [])
        self.assertIn("took longer than the time limit", g.refusals["drivers/dma/foo.c"])


if __name__ == "__main__":
    unittest.main()
