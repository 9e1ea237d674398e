# SPDX-License-Identifier: GPL-2.0-only
"""convert.target.policy: a subsystem's workqueues in its drivers' new code, the
prep patch that adds them, and the series that starts with it."""

import re
import tempfile
import unittest
from pathlib import Path

from detasklet.convert.target import policy
from detasklet.ctext.gitdiff import file_diff, parse
from detasklet.ctext.includes import Resolver
from detasklet.series import evidence, message, plan
from detasklet.series.evidence import Evidence
from fixtures import write_tree

TREE = {
    "Makefile": "VERSION = 7\n",
    "include/linux/workqueue.h": ("enum { WQ_BH = 1, WQ_HIGHPRI = 2, WQ_PERCPU = 1 << 8,\n"
                                  "\t__WQ_BH_ALLOWS = WQ_BH | WQ_HIGHPRI | WQ_PERCPU,\n};\n"),
    "drivers/dma/core.h": "#include <linux/dmaengine.h>\n\nvoid core_fn(void);\n\n#endif\n",
    "drivers/dma/core.c": "int x;\n\nstatic int __init core_init(void)\n{\n\treturn 0;\n}\n",
    "drivers/dma/a.c": '#include "core.h"\n\nint a;\n',
    "drivers/dma/sub/b.c": '#include <linux/slab.h>\n#include "b.h"\n\nint b;\n',
    "drivers/dma/sub/b.h": "int bh;\n",
}

POLICIES = '''
[sub]
paths = ["drivers/dma/"]
header = "drivers/dma/core.h"
why = "the subsystem asked for it"
subject = "sub: Add BH workqueues"
message = """First paragraph
of the message.

Second paragraph."""
[sub.queues]
system_bh_wq = "sub_bh_wq"
system_bh_highpri_wq = "sub_bh_highpri_wq"
[[sub.edits]]
file = "drivers/dma/core.h"
after = "void core_fn(void);\\n"
text = "extern struct workqueue_struct *sub_bh_wq;\\n"
[[sub.edits]]
file = "drivers/dma/core.c"
before = "static int __init core_init(void)\\n"
text = "struct workqueue_struct *sub_bh_wq;\\nint f(void) { return WQ_BH{percpu}; }\\n\\n"
'''

NEW_A = '#include "core.h"\n\nint a;\nvoid q(struct work_struct *w)\n{\n\tqueue_work(system_bh_wq, w);\n}\n'
NEW_B = ('#include <linux/slab.h>\n#include "b.h"\n\nint b;\n'
         "void q(struct work_struct *w)\n{\n\t/* not system_bh_wq here */\n"
         "\tqueue_work(system_bh_highpri_wq, w);\n}\n")


class Policy(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.k = write_tree(Path(self.tmp.name) / "k", TREE)
        f = Path(self.tmp.name) / "policies.toml"
        f.write_text(POLICIES)
        self.pols = policy.load(f)
        self.pol = self.pols[0]

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_the_projects_policies_load_and_apply_to_both_reference_trees(self) -> None:
        pols = policy.load()
        self.assertEqual([p.name for p in pols], ["dmaengine"])
        root = Path(__file__).resolve().parents[2] / "cache"
        trees = sorted(root.glob("linux-source-*/Makefile"))
        self.assertTrue(trees, "no reference tree in cache/: make references")
        for mk in trees:
            got = policy.prep_texts(mk.parent, pols[0])
            self.assertIsInstance(got, dict, f"{mk.parent}: {got}")
            # The flag only where alloc_workqueue() accepts it with WQ_BH:
            # 7.3 allows it, 6.12 defines WQ_PERCPU but does not.
            allows = re.search(r"__WQ_BH_ALLOWS\s*=([^,]*)",
                               (mk.parent / "include/linux/workqueue.h").read_text())
            assert allows is not None
            self.assertEqual("WQ_BH | WQ_PERCPU" in got["drivers/dma/dmaengine.c"],
                             "WQ_PERCPU" in allows.group(1), mk.parent)
            if mk.parent.name == "linux-source-6.12":
                self.assertNotIn("WQ_PERCPU", got["drivers/dma/dmaengine.c"])

    def test_the_projects_target_choices(self) -> None:
        """net, storage and the core kernel stay on BH under TARGET=thread;
        other drivers follow the run's target."""
        choices = policy.targets()
        self.assertEqual([c.name for c in choices], ["kernel", "net", "storage"])
        for path, name in (("drivers/net/ethernet/jme.c", "net"),
                           ("net/mac80211/tx.c", "net"),
                           ("drivers/scsi/megaraid/megaraid_sas_base.c", "storage"),
                           ("drivers/s390/block/dasd.c", "storage"),
                           ("drivers/memstick/host/tifm_ms.c", "storage"),
                           ("kernel/irq/resend.c", "kernel")):
            want = next(c for c in choices if c.name == name)
            self.assertEqual(policy.target_for(choices, [path], "thread"),
                             ("bh", " ".join(want.why.split())), path)
        self.assertIn("resend", next(c.why for c in choices if c.name == "kernel"))
        self.assertIn("WQ_MEM_RECLAIM", next(c.why for c in choices if c.name == "storage"))
        self.assertEqual(policy.target_for(choices, ["drivers/tty/serial/timbuart.c"], "thread"),
                         ("thread", ""))
        # a driver's header under include/ goes with the driver
        self.assertEqual(policy.target_for(choices, ["drivers/net/usb/cdc_ncm.c",
                                                     "include/linux/usb/cdc_ncm.h"], "thread")[0],
                         "bh")
        # a group that crosses a choice's paths follows the run
        self.assertEqual(policy.target_for(choices, ["drivers/net/a.c", "drivers/tty/b.c"],
                                           "thread"), ("thread", ""))

    def test_queues_renamed_in_code_only(self) -> None:
        res = Resolver(self.k)
        out = policy.apply(res, self.pol, "drivers/dma/sub/b.c", TREE["drivers/dma/sub/b.c"], NEW_B)
        self.assertIn("queue_work(sub_bh_highpri_wq, w)", out)
        self.assertIn("/* not system_bh_wq here */", out)

    def test_header_included_where_not_reached(self) -> None:
        res = Resolver(self.k)
        b = policy.apply(res, self.pol, "drivers/dma/sub/b.c", TREE["drivers/dma/sub/b.c"], NEW_B)
        self.assertIn('#include "b.h"\n#include "../core.h"\n', b)
        a = policy.apply(res, self.pol, "drivers/dma/a.c", TREE["drivers/dma/a.c"], NEW_A)
        self.assertEqual(a.count("#include"), 1)
        self.assertIn("queue_work(sub_bh_wq, w)", a)

    def test_file_that_already_named_a_system_queue_is_left_alone(self) -> None:
        old = "void p(struct work_struct *w) { queue_work(system_bh_wq, w); }\n"
        new = old + NEW_A
        res = Resolver(self.k)
        self.assertEqual(policy.apply(res, self.pol, "drivers/dma/a.c", old, new), new)

    def test_group_across_the_policys_paths_keeps_the_default(self) -> None:
        old = {"drivers/dma/a.c": "", "drivers/net/n.c": "", "drivers/dma/sub/b.c": ""}
        self.assertIsNone(policy.for_group(self.pols, ["drivers/dma/a.c", "drivers/net/n.c"], old))
        self.assertIs(policy.for_group(self.pols, ["drivers/dma/a.c", "drivers/dma/sub/b.c"], old),
                      self.pol)
        old["drivers/dma/sub/b.c"] = "void f(void) { queue_work(system_bh_wq, &w); }\n"
        self.assertIsNone(policy.for_group(self.pols, ["drivers/dma/a.c", "drivers/dma/sub/b.c"],
                                           old))

    def test_prep_texts_follow_the_tree(self) -> None:
        got = policy.prep_texts(self.k, self.pol)
        assert isinstance(got, dict)
        self.assertIn("void core_fn(void);\nextern struct workqueue_struct *sub_bh_wq;\n",
                      got["drivers/dma/core.h"])
        self.assertIn("return WQ_BH | WQ_PERCPU; }\n\nstatic int __init core_init",
                      got["drivers/dma/core.c"])
        (self.k / "include/linux/workqueue.h").write_text("enum { WQ_BH = 1 };\n")
        got = policy.prep_texts(self.k, self.pol)
        assert isinstance(got, dict)
        self.assertIn("return WQ_BH; }", got["drivers/dma/core.c"])
        # WQ_PERCPU defined but not allowed with WQ_BH (6.12): not added.
        (self.k / "include/linux/workqueue.h").write_text(
            "enum {\n\tWQ_BH = 1, WQ_HIGHPRI = 2, WQ_PERCPU = 1 << 8, /* WQ_PERCPU */\n"
            "\t__WQ_BH_ALLOWS = WQ_BH | WQ_HIGHPRI,\n};\n")
        got = policy.prep_texts(self.k, self.pol)
        assert isinstance(got, dict)
        self.assertIn("return WQ_BH; }", got["drivers/dma/core.c"])

    def test_missing_or_repeated_anchor_keeps_the_default(self) -> None:
        (self.k / "drivers/dma/core.c").write_text("int x;\n")
        self.assertIn("copies of the anchor", policy.prep_texts(self.k, self.pol))
        with self.assertLogs("detasklet", "WARNING") as logs:
            self.assertEqual(policy.usable(self.k, self.pols), [])
        self.assertIn("policy sub: not used on this tree", logs.output[0])
        (self.k / "drivers/dma/core.c").write_text(2 * "static int __init core_init(void)\n")
        self.assertIn("has 2 copies", policy.prep_texts(self.k, self.pol))

    def test_missing_header_keeps_the_default(self) -> None:
        """A policy whose header the tree lacks is not used: its drivers
        would #include a file that is not there."""
        (self.k / "drivers/dma/core.h").unlink()
        self.assertIn("its header drivers/dma/core.h is not in this tree",
                      policy.prep_texts(self.k, self.pol))
        with self.assertLogs("detasklet", "WARNING"):
            self.assertEqual(policy.usable(self.k, self.pols), [])

    def test_prep_only_when_a_converted_file_queues_on_it(self) -> None:
        self.assertEqual(policy.preps(self.k, self.pols, {"drivers/dma/a.c": NEW_A}), [])
        res = Resolver(self.k)
        a = policy.apply(res, self.pol, "drivers/dma/a.c", TREE["drivers/dma/a.c"], NEW_A)
        got = policy.preps(self.k, self.pols, {"drivers/dma/a.c": a})
        self.assertEqual([sorted(p.new) for p in got], [["drivers/dma/core.c", "drivers/dma/core.h"]])
        self.assertEqual(got[0].record()["queues"]["system_bh_wq"], "sub_bh_wq")

    def test_series_prep_first_and_driver_message_names_the_queue(self) -> None:
        res = Resolver(self.k)
        a = policy.apply(res, self.pol, "drivers/dma/a.c", TREE["drivers/dma/a.c"], NEW_A)
        pr = policy.preps(self.k, self.pols, {"drivers/dma/a.c": a})[0]
        fds = {p: parse(file_diff(p, pr.old[p], pr.new[p]))[0] for p in pr.new}
        fds["drivers/dma/a.c"] = parse(file_diff("drivers/dma/a.c", TREE["drivers/dma/a.c"], a))[0]
        old = {p: TREE[p] for p in fds}
        groups = [["drivers/dma/a.c"], ["drivers/dma/core.c", "drivers/dma/core.h"]]
        ps = plan.plan(self.k, fds, old, groups, preps=[pr.record()])
        prep = [p for p in ps if p.prep]
        self.assertEqual([p.subject for p in prep], ["sub: Add BH workqueues"])
        drv = [p for p in ps if not p.prep][0]
        self.assertEqual(drv.queues, {"system_bh_wq": "sub_bh_wq"})
        # the driver's message names the prep patch by its subject, which
        # stays true once both are commits ("the first patch of this
        # series" did not)
        from detasklet.series.identity import Ident
        from detasklet.series.mbox import patch_mail
        mail = patch_mail(drv, Ident("A U Thor <author@example.org>", 0), fds,
                          Evidence({}), {})
        self.assertIn('the patch "sub: Add BH workqueues" adds', " ".join(mail.message.split()))
        self.assertNotIn("first patch", mail.message)
        body = message.prep_body(prep[0].prep, [fds["drivers/dma/core.c"]], Evidence({}))
        self.assertTrue(body.startswith("First paragraph of the message.\n\nSecond paragraph.\n"))
        from detasklet.series.write import split
        self.assertTrue(split(ps)[0].patches[0].prep)

    def test_compile_test_records_the_prep_files(self) -> None:
        import json
        from detasklet.check.compile_test import record
        from detasklet.out import files as outfiles
        out = Path(self.tmp.name) / "out"
        out.mkdir()
        rep = {"kernel": "7.3.4", "files": [{"path": "drivers/dma/a.c", "status": "converted"}],
               "prep": [{"policy": "sub", "files": ["drivers/dma/core.c", "drivers/dma/core.h"]}]}
        (out / "report.json").write_text(json.dumps(rep))
        ok = {"arch": "x86_64", "config": "allmodconfig", "pristine": "ok", "converted": "ok",
              "log": ""}
        record(out, {"drivers/dma/a.c": ok, "drivers/dma/core.c": ok}, ["## Compile test"])
        got = outfiles.builds(outfiles.load_report(out))
        self.assertEqual(sorted(got), ["drivers/dma/a.c", "drivers/dma/core.c"])
        self.assertIn("x86_64", evidence.build_sentence(["drivers/dma/core.c"], got))


if __name__ == "__main__":
    unittest.main()
