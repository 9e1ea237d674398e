# SPDX-License-Identifier: GPL-2.0-only
"""The passes of verdicts/sites.plan(), each alone: a person's refusal,
the schedules of an item queued both ways, the sync calls (sync.py,
unlock_wait.py) and
the workqueue of each queued site."""

from __future__ import annotations

import unittest

from detasklet.convert.verdicts import sites, sync, unlock_wait
from detasklet.convert.verdicts.analyses import facts_of
from detasklet.convert.verdicts.decisions import Decision
from detasklet.convert.verdicts.sites import Plan, Site


def site(api: str, item: str = "t", line: int = 1, function: str = "f",
         replacement: str = "") -> Site:
    return Site("d.c", line, function, api, f"&p->{item}", item, replacement=replacement)


def decision(api: str, replacement: str, function: str = "f") -> Decision:
    return Decision("d.c", function, api, "t", replacement, "read it", "decisions/d.toml")


class RefusedByDecision(unittest.TestCase):
    def test_a_refusal_refuses_the_file_with_its_reason(self) -> None:
        p = Plan([site("tasklet_kill")])
        self.assertTrue(sites.refused_by_decision(p, [decision("tasklet_kill", "refuse")]))
        self.assertEqual(p.refusals, {"d.c": "tasklet_kill() in f(): read it (decisions/d.toml)"})

    def test_another_decision_refuses_nothing(self) -> None:
        p = Plan([site("tasklet_kill")])
        self.assertFalse(sites.refused_by_decision(
            p, [decision("tasklet_kill", "cancel_work_sync")]))
        self.assertEqual(p.refusals, {})


class BothWays(unittest.TestCase):
    def test_normal_schedule_of_a_hi_item_needs_a_decision(self) -> None:
        ss = [site("tasklet_schedule"), site("tasklet_hi_schedule", line=2)]
        p = Plan(ss)
        self.assertEqual(sites.both_ways(p, {"t": ss}, set(), []), {"t"})
        self.assertIn("also queued with tasklet_hi_schedule()", p.refusals["d.c"])

    def test_a_decision_moves_it_to_the_hi_queue(self) -> None:
        ss = [site("tasklet_schedule"), site("tasklet_hi_schedule", line=2)]
        p = Plan(ss)
        sites.both_ways(p, {"t": ss}, set(),
                        [decision("tasklet_schedule", "system_bh_highpri_wq")])
        self.assertEqual((ss[0].replacement, ss[0].verdict), ("system_bh_highpri_wq", "decided"))
        self.assertEqual(p.refusals, {})


class Sync(unittest.TestCase):
    def test_unlock_wait_after_a_disable_is_exact(self) -> None:
        d, w = site("tasklet_disable", line=1), site("tasklet_unlock_wait", line=2)
        self.assertEqual(unlock_wait.choose(w, [d, w], facts_of({"d.c": ""})), "")
        self.assertEqual((w.replacement, w.analysis), ("flush_work", "disabled-first"))

    def test_unlock_wait_alone_is_refused(self) -> None:
        w = site("tasklet_unlock_wait")
        why = unlock_wait.choose(w, [w], facts_of({"d.c": ""}))
        self.assertIn("a decision for the driver", why)
        self.assertEqual(w.replacement, "")

    def test_disable_by_its_enables(self) -> None:
        s = site("tasklet_disable_nosync")
        self.assertEqual(sync.disable(s, []), "")
        self.assertEqual((s.replacement, s.analysis), ("disable_work", "never-enabled"))
        s = site("tasklet_disable")
        self.assertEqual(sync.disable(s, [site("tasklet_enable", replacement="tracked")]), "")
        self.assertEqual((s.replacement, s.analysis), ("disable_work_sync", "enable-requeues"))
        s = site("tasklet_disable")
        self.assertIn("not queued again", sync.disable(s, [site("tasklet_enable")]))


class Queues(unittest.TestCase):
    def test_schedule_takes_its_replacement_enable_its_items_queue(self) -> None:
        ss = [site("tasklet_hi_schedule", replacement="system_bh_highpri_wq"),
              site("tasklet_enable", replacement="tracked", line=2)]
        p = Plan(ss)
        sites.set_queues(p, set())
        self.assertEqual([s.wq for s in ss], ["system_bh_highpri_wq", "system_bh_highpri_wq"])


if __name__ == "__main__":
    unittest.main()
