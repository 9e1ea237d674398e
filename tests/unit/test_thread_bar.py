# SPDX-License-Identifier: GPL-2.0-only
"""check.thread_bar (tests/thread_bar.py): the TARGET=thread bar read from a
made-up OUT (report.json, all.patch) and KDIR; each check fails on the one
file that breaks it and passes on the others."""

import json
import tempfile
import unittest
from pathlib import Path

from detasklet.check import thread_bar
from detasklet.ctext import gitdiff, threadbar
from detasklet.errors import InputError

OLD = "static void f(void)\n{\n\ttasklet_schedule(&t);\n}\n"


def moved(queue: str) -> str:
    return OLD.replace("tasklet_schedule(&t)", f"queue_work({queue}, &w)")


# path -> (report.json target, the queue its patch writes, KDIR's folder code)
FILES = {
    "drivers/misc/ok.c": ("thread", "system_percpu_wq", "int x(void) { return kmalloc(1); }\n"),
    "drivers/scsi/hba/hba.c": ("thread", "system_percpu_wq",
                               "/* scsi_done() in a comment is no call */\n"),
    "drivers/foo/blk.c": ("thread", "system_highpri_wq", "void d(void) { scsi_done(c); }\n"),
    "kernel/irq/resend.c": ("thread", "system_percpu_wq", ""),
    "drivers/net/nic.c": ("bh", "system_bh_wq", ""),
    "drivers/misc/stays.c": ("bh", "system_bh_wq", ""),
}


class ThreadBarTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.out, self.kdir = Path(self.tmp.name) / "out", Path(self.tmp.name) / "k"
        self.out.mkdir()
        self.write(FILES)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def write(self, files: dict) -> None:
        report = {"target": "thread", "files": []}
        patch = ""
        for path, (target, queue, code) in files.items():
            report["files"].append({"path": path, "status": "converted", "target": target})
            patch += gitdiff.file_diff(path, OLD, moved(queue))
            (self.kdir / path).parent.mkdir(parents=True, exist_ok=True)
            (self.kdir / path).write_text(OLD)
            (self.kdir / path).with_name("other.c").write_text(code)
            # one kbuild module of the file and other.c; stray.c is in none
            (self.kdir / path).with_name("Makefile").write_text(
                f"obj-m += drv.o\ndrv-y := {Path(path).stem}.o other.o\n")
            (self.kdir / path).with_name("stray.c").write_text("void s(void) { bio_endio(b); }\n")
        (self.out / "report.json").write_text(json.dumps(report))
        (self.out / "all.patch").write_text(patch)

    def test_queues_of_added_lines(self) -> None:
        fds = gitdiff.parse(gitdiff.file_diff("a.c", moved("system_wq"), moved("system_bh_wq")))
        self.assertEqual(threadbar.process_queues(fds[0]), [])
        fds = gitdiff.parse(gitdiff.file_diff("a.c", OLD, moved("system_highpri_wq")))
        self.assertEqual(threadbar.process_queues(fds[0]), ["system_highpri_wq"])
        self.assertEqual(threadbar.block_calls("x = blk_mq_end_request(rq, 0); s->scsi_done(c);"
                                               " usb_add_hcd(h, 1, 0); // bio_endio(b)"),
                         ["blk_mq_end_request", "usb_add_hcd"])

    def test_each_check_names_its_file(self) -> None:
        got = thread_bar.check(self.out, self.kdir)
        self.assertEqual(len(got["reclaim"]), 1)
        self.assertIn("drivers/foo/blk.c queues on system_highpri_wq", got["reclaim"][0])
        self.assertIn("its driver calls drivers/foo/other.c: scsi_done()", got["reclaim"][0])
        self.assertNotIn("stray", got["reclaim"][0])
        self.assertEqual(got["kernel"], ["kernel/irq/resend.c moves to system_percpu_wq",
                                         "kernel/irq/resend.c: report.json target 'thread'"])
        self.assertEqual([b.split(" ")[0] for b in got["policies"]],
                         ["drivers/scsi/hba/hba.c", "kernel/irq/resend.c"])
        self.assertEqual(got["report"], [])

    def test_outside_the_choices(self) -> None:
        n, found = thread_bar.outside(self.out, self.kdir)
        self.assertEqual(n, 3)          # ok.c, blk.c, stays.c: not scsi/, net/, kernel/
        self.assertEqual(found, ["drivers/foo/blk.c: drivers/foo/other.c: scsi_done()"])

    def test_a_drivers_own_choice_wins(self) -> None:
        table = thread_bar.choices() + [("drivers/scsi/hba/", "thread", "hba")]
        o = thread_bar.load(self.out)
        self.assertEqual([b.split(" ")[0] for b in thread_bar.policies(o, table)],
                         ["kernel/irq/resend.c"])

    def test_report_disagreeing_with_the_patch(self) -> None:
        self.write({"drivers/misc/ok.c": ("bh", "system_percpu_wq", ""),
                    "drivers/misc/b.c": ("thread", "system_bh_wq", ""),
                    "drivers/misc/b.h": ("thread", "system_bh_wq", ""),
                    "drivers/misc/g.c": ("thread", "foo_bh_off", ""),
                    "drivers/misc/k.c": ("thread", "cancel", "")})
        got = thread_bar.check(self.out, self.kdir)
        # a header of a moved group, a file with only a guard, and one whose
        # patch names no queue (mhi's pm.c converts only kills) are right
        self.assertEqual(got["report"], [
            "drivers/misc/b.c: report.json target 'thread', but its patch queues on "
            "system_bh_wq only",
            "drivers/misc/ok.c: report.json target 'bh', but its patch queues on "
            "system_percpu_wq"])

    def test_policies_has_the_choices(self) -> None:
        names = {(p, t) for p, t, _ in thread_bar.choices()}
        for want in (("drivers/net/", "bh"), ("drivers/scsi/", "bh"), ("kernel/", "bh"),
                     ("drivers/s390/block/", "bh")):
            self.assertIn(want, names)

    def test_a_bh_run_is_refused(self) -> None:
        (self.out / "report.json").write_text(json.dumps({"target": "bh", "files": []}))
        with self.assertRaisesRegex(InputError, "TARGET=bh, not thread"):
            thread_bar.load(self.out)


if __name__ == "__main__":
    unittest.main()
