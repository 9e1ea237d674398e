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


class DriverRows(unittest.TestCase):
    """A file a driver patch rewrote in place (vt keyboard): report.json
    lists the API of the text the conversion starts from, with the rows
    the patch states, not the form the rules converted (DECLARE_TASKLET())."""

    def test_keys_and_rules_of_the_tree_text(self) -> None:
        from detasklet.convert.output.write import _record
        from detasklet.convert.rewrite.classify import Outcome
        from detasklet.out.files import Status
        old = ("static DECLARE_TASKLET_DISABLED(kt, kbd_bh);\n"
               "void a(void) { tasklet_enable(&kt); tasklet_schedule(&kt); }\n")
        base = ("static DECLARE_TASKLET(kt, kbd_bh);\nstatic bool ready;\n"
                "void a(void) { ready = 1; tasklet_schedule(&kt); }\n")
        new = ("static DECLARE_WORK(kt, kbd_bh);\nstatic bool ready;\n"
               "void a(void) { ready = 1; queue_work(system_bh_wq, &kt); }\n")
        rows = ["DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and ready",
                "tasklet_enable() -> setting ready (a())"]
        o = Outcome("k.c", Status.CONVERTED, "", [], old, new, base=base, mapped=rows)
        rec = _record(o)
        self.assertEqual(rec["keys"], ["DECLARE_TASKLET_DISABLED", "tasklet_schedule",
                                       "tasklet_enable"])
        self.assertEqual(rec["mapping"], {"DECLARE_TASKLET_DISABLED": rows[0],
                                          "tasklet_enable": rows[1]})
        self.assertIn(rows[0], rec["rules"])
        self.assertFalse([r for r in rec["rules"] if r.startswith("DECLARE_TASKLET()")])
        # without a driver patch's rows: the text the rules converted, as before
        plain = _record(Outcome("k.c", Status.CONVERTED, "", [], old, new, base=base))
        self.assertIn("DECLARE_TASKLET", plain["keys"])
        self.assertNotIn("mapping", plain)


if __name__ == "__main__":
    unittest.main()
