# SPDX-License-Identifier: GPL-2.0-only
"""convert.output.rules_got: report.json "rules" say what the file got, not the
mapping's generic row: the workqueue it queues on, its sites' choices."""

from __future__ import annotations

import unittest

from detasklet.convert.output import rules_got
from detasklet.mapping import MAPPING

ROWS = {r.key: r for r in MAPPING}


class Got(unittest.TestCase):
    def test_the_subsystem_queue(self) -> None:
        old = "tasklet_schedule(&c->task);\ntasklet_hi_schedule(&c->irq);\n"
        new = ("queue_work(dmaengine_bh_wq, &c->task);\n"
               "queue_work(dmaengine_bh_highpri_wq, &c->irq);\n")
        got = rules_got.got([ROWS["tasklet_schedule"], ROWS["tasklet_hi_schedule"]], old, new, [])
        self.assertEqual(got, ["tasklet_schedule() -> queue_work(dmaengine_bh_wq, ...)",
                               "tasklet_hi_schedule() -> queue_work(dmaengine_bh_highpri_wq, ...)"])

    def test_thread_target_queue(self) -> None:
        got = rules_got.got([ROWS["tasklet_schedule"]], "tasklet_schedule(&t);",
                            "queue_work(system_percpu_wq, &t);", [])
        self.assertEqual(got, ["tasklet_schedule() -> queue_work(system_percpu_wq, ...)"])

    def test_kill_sites_counted(self) -> None:
        sites = [{"api": "tasklet_kill", "replacement": "cancel_work_sync"},
                 {"api": "tasklet_kill", "replacement": "cancel_work_sync"},
                 {"api": "tasklet_kill", "replacement": "flush_then_cancel"}]
        got = rules_got.got([ROWS["tasklet_kill"]], "", "", sites)
        self.assertEqual(got, ["tasklet_kill() -> cancel_work_sync() (2 sites), "
                               "flush_work() then cancel_work_sync() (1 site)"])

    def test_one_for_one_rows_unchanged(self) -> None:
        self.assertEqual(rules_got.got([ROWS["tasklet_setup"]], "", "", []),
                         [ROWS["tasklet_setup"].new])


if __name__ == "__main__":
    unittest.main()
