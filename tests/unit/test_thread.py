# SPDX-License-Identifier: GPL-2.0-only
"""convert.target.thread: TARGET=thread, the guards and what keeps a group on BH."""

import unittest
from pathlib import Path
from tempfile import TemporaryDirectory

from detasklet.convert.target import policy, reclaim
from detasklet.convert.rewrite.classify import Outcome
from detasklet.convert.target.thread import LATE, conditional, file_thread, late, queues, thread
from detasklet.ctext import blockio
from detasklet.out.files import Status
from detasklet.series.hotpaths import HotPath
from fixtures import write_tree

QS = {"system_bh_wq": "system_percpu_wq", "system_bh_highpri_wq": "system_highpri_wq"}

OLD = """static void cb(struct tasklet_struct *t)
{
}

static int probe(struct foo *f)
{
\ttasklet_setup(&f->t, cb);
\treturn 0;
}
"""
NEW = """static void cb(struct work_struct *work)
{
}

static int probe(struct foo *f)
{
\tINIT_WORK(&f->t, cb);
\treturn 0;
}

static void irq(struct foo *f)
{
\tqueue_work(system_bh_wq, &f->t);
}
"""


class Thread(unittest.TestCase):
    def test_guard_before_the_registering_function(self) -> None:
        text, guards = file_thread("a.c", OLD, NEW, QS)
        self.assertIn("static void cb_bh_off(struct work_struct *work)\n{\n"
                      "\tlocal_bh_disable();\n\tcb(work);\n\tlocal_bh_enable();\n}\n\n"
                      "static int probe", text)
        self.assertIn("INIT_WORK(&f->t, cb_bh_off);", text)
        self.assertIn("queue_work(system_percpu_wq, &f->t);", text)
        self.assertEqual([(g["callback"], g["work_function"]) for g in guards],
                         [("cb", "cb_bh_off")])

    def test_the_drivers_own_work_item_is_left_alone(self) -> None:
        old = OLD.replace("\treturn 0;", "\tINIT_WORK(&f->w, other);\n\treturn 0;")
        new = NEW.replace("\treturn 0;", "\tINIT_WORK(&f->w, other);\n\treturn 0;")
        text, guards = file_thread("a.c", old, new, QS)
        self.assertIn("INIT_WORK(&f->w, other);", text)
        self.assertEqual([g["callback"] for g in guards], ["cb"])

    def test_what_keeps_a_file_on_bh(self) -> None:
        spin = NEW.replace("\treturn 0;", "\twhile (work_busy(&f->t) & WORK_BUSY_RUNNING)\n"
                           "\t\tcpu_relax();\n\treturn 0;")
        self.assertIn("wait forever", file_thread("a.c", OLD, spin, QS))
        ptr = NEW.replace("INIT_WORK(&f->t, cb);", "INIT_WORK(&f->t, f->ops->cb);")
        self.assertIn("not a function name", file_thread("a.c", OLD, ptr, QS))
        macro = NEW.replace("static int probe", "#define SETUP(f, n) INIT_WORK(&(f)->t, n)\n\n"
                            "static int probe")
        self.assertIn("macro body", file_thread("a.c", OLD, macro, QS))
        bh = OLD + "\nstatic void x(void) { queue_work(system_bh_wq, &w); }\n"
        self.assertIn("already queues work on system_bh_wq", file_thread("a.c", bh, NEW, QS))
        taken = NEW + "\nstatic int cb_bh_off;\n"
        self.assertIn("is taken", file_thread("a.c", OLD, taken, QS))

    def test_conditional(self) -> None:
        self.assertFalse(conditional("#ifdef A\nx;\n#endif\ny"))
        self.assertTrue(conditional("x;\n#ifdef A\ny"))
        self.assertTrue(conditional("x;\n#else\ny"))
        self.assertTrue(conditional("x;\n#endif\ny"))

    def test_a_group_moves_whole_or_stays_with_the_reason(self) -> None:
        good = Outcome("a.c", Status.CONVERTED, "", ["tasklet_setup"], OLD, NEW)
        bad = Outcome("b.c", Status.CONVERTED, "", ["tasklet_setup"], OLD,
                      NEW.replace("INIT_WORK(&f->t, cb);", "INIT_WORK(&f->t, f->cb);"))
        moved = thread([good], QS)
        self.assertEqual(moved[0].target, "thread")
        kept = thread([good, bad], QS)
        self.assertEqual([o.target for o in kept], ["bh", "bh"])
        self.assertEqual([o.new for o in kept], [good.new, bad.new])
        self.assertTrue(all(o.target_why.startswith("b.c: ") for o in kept))
        why = thread([good], QS, "a policy")
        self.assertEqual((why[0].target, why[0].target_why), ("bh", "a policy"))

    def test_a_subsystem_target_choice(self) -> None:
        with TemporaryDirectory() as tmp:
            f = Path(tmp) / "p.toml"
            f.write_text('[mmc]\npaths = ["drivers/mmc/"]\ntarget = "thread"\n'
                         'why = "the MMC maintainers asked for process context"\n')
            choices = policy.targets(f)
            self.assertEqual(policy.load(f), [])
        self.assertEqual(policy.target_for(choices, ["drivers/mmc/a.c"], "bh"),
                         ("thread", "the MMC maintainers asked for process context"))
        self.assertEqual(policy.target_for(choices, ["drivers/mmc/a.c", "drivers/x.c"], "bh"),
                         ("bh", ""))

    def test_queues_follow_the_tree(self) -> None:
        with TemporaryDirectory() as tmp:
            h = Path(tmp) / "include/linux"
            h.mkdir(parents=True)
            (h / "workqueue.h").write_text("extern struct workqueue_struct *system_wq;\n")
            self.assertEqual(queues(Path(tmp))["system_bh_wq"], "system_wq")
            (h / "workqueue.h").write_text("extern struct workqueue_struct *system_percpu_wq;\n")
            self.assertEqual(queues(Path(tmp))["system_bh_wq"], "system_percpu_wq")


# A dasd shape: the tasklet is in dasd.c, the disk is registered by
# dasd_genhd.c of the same module; other.c is another module of the folder.
DASD = {
    "drivers/blk/Makefile": ("dasd_mod-y := dasd.o dasd_genhd.o\nobj-m += dasd_mod.o\n"
                             "obj-m += other.o\n"),
    "drivers/blk/dasd.c": "static void cb(struct tasklet_struct *t)\n{\n}\n",
    "drivers/blk/dasd_genhd.c": ("int g(void)\n{\n\t/* not add_disk() */\n"
                                 "\treturn device_add_disk(p, d, NULL);\n}\n"),
    "drivers/blk/other.c": "void o(void)\n{\n\tblk_mq_end_request(rq, 0);\n}\n",
    "drivers/char/tty.c": "void t(void)\n{\n\tbio_endio_count++;\n\tq->bio_endio(b);\n}\n",
}


class Reclaim(unittest.TestCase):
    def test_facts_of_each_kind_in_code_only(self) -> None:
        text = ("/* scsi_done(c) */\nvoid a(void)\n{\n\tscsi_host_alloc(t, 0);\n"
                "\tscsi_add_host(h, d);\n\tscsi_done(c);\n\tmemstick_add_host(h);\n"
                "\tfoo_add_disk(d);\n}\n")
        got = [(f.call, f.line) for f in blockio.facts("a.c", text)]
        self.assertEqual(got, [("scsi_host_alloc", 4), ("scsi_done", 6),
                               ("memstick_add_host", 7)])
        self.assertEqual(blockio.facts("t.c", DASD["drivers/char/tty.c"]), [])

    def test_a_usb_host_controller_completes_block_io(self) -> None:
        """fhci's shape: the tasklet gives URBs back (usb-storage's SCSI
        commands complete there) and fhci-hcd.c registers the HCD."""
        text = "int p(void)\n{\n\treturn usb_add_hcd(hcd, irq, 0);\n}\n"
        (fact,) = blockio.facts("drivers/usb/host/fhci-hcd.c", text)
        self.assertEqual((fact.call, fact.line), ("usb_add_hcd", 3))
        self.assertIn("USB host controller", fact.words())
        self.assertEqual(blockio.facts("g.c", "void g(void)\n{\n\tusb_add_gadget(g);\n}\n"),
                         [])

    def test_the_whole_module_is_read_not_the_folder(self) -> None:
        with TemporaryDirectory() as tmp:
            kdir = write_tree(Path(tmp), DASD)
            self.assertEqual(blockio.module_files(kdir, "drivers/blk/dasd.c"),
                             ["drivers/blk/dasd.c", "drivers/blk/dasd_genhd.c"])
            self.assertEqual(blockio.module_files(kdir, "drivers/char/tty.c"),
                             ["drivers/char/tty.c"])
            why = reclaim.why(kdir, ["drivers/blk/dasd.c", "drivers/blk/dasd_int.h"], QS)
            self.assertIn("drivers/blk/dasd_genhd.c registers a block device "
                          "(device_add_disk() at line 4)", why)
            self.assertNotIn("other.c", why)
            self.assertIn("WQ_MEM_RECLAIM", why)
            self.assertIn("system_highpri_wq and system_percpu_wq do not have", why)
            self.assertEqual(reclaim.why(kdir, ["drivers/char/tty.c"], QS), "")

    def test_late_draining_is_noted_only_where_the_work_moved(self) -> None:
        hot = [HotPath("UART", ("drivers/tty/u.c",), "tasklet", "hardirq", "the FIFO overruns.")]
        moved = Outcome("drivers/tty/u.c", Status.CONVERTED, "", [], OLD, NEW, target="thread")
        kept = Outcome("drivers/tty/u.c", Status.CONVERTED, "", [], OLD, NEW, target="bh")
        other = Outcome("drivers/tty/v.c", Status.CONVERTED, "", [], OLD, NEW, target="thread")
        got = late([moved, kept, other], hot)
        self.assertEqual(len(got[0].notes), 1)
        self.assertTrue(got[0].notes[0].startswith(LATE + " (UART): the FIFO overruns."))
        self.assertEqual((got[1].notes, got[2].notes), ([], []))

    def test_the_closest_choice_wins(self) -> None:
        with TemporaryDirectory() as tmp:
            f = Path(tmp) / "p.toml"
            f.write_text('[scsi]\npaths = ["drivers/scsi/"]\ntarget = "bh"\nwhy = "s"\n'
                         '[one]\npaths = ["drivers/scsi/one/"]\ntarget = "thread"\nwhy = "o"\n')
            choices = policy.targets(f)
        self.assertEqual(policy.target_for(choices, ["drivers/scsi/one/a.c"], "bh"),
                         ("thread", "o"))
        self.assertEqual(policy.target_for(choices, ["drivers/scsi/one/a.c",
                                                     "drivers/scsi/b.c"], "thread"),
                         ("bh", "s"))


if __name__ == "__main__":
    unittest.main()
