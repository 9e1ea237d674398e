# SPDX-License-Identifier: GPL-2.0-only
"""A driver's fix (a cocci/drivers/ patch with a `// Fix:` line): its own
patch, first in its tree's series, with its Fixes: tag in the trailer
block; the driver's prep patch and conversion after it, each from the text
the one before left; the cover letter names the fixes branch; git am
takes the mails in order."""

from __future__ import annotations

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.convert.output import write
from detasklet.convert.rewrite.classify import Outcome
from detasklet.ctext import gitdiff
from detasklet.out.files import Status
from detasklet.series import write as series

from test_series import FILES, GROUPS, OLD_C, _new, applied, build, foo_tree

# foo.c as the driver has it: the kill comes before the interrupt is freed
BUGGY = OLD_C.replace("\treturn 0;\n", "\treturn 0;\n}\n\nstatic void foo_remove(struct foo *f)\n"
                      "{\n\ttasklet_kill(&f->task);\n\tfree_irq(f->irq, f);\n"
                      "#ifdef FOO_OLD\n\tfoo_old(f);\n#endif\n")
FIXED = BUGGY.replace("\ttasklet_kill(&f->task);\n\tfree_irq(f->irq, f);\n",
                      "\tfree_irq(f->irq, f);\n\ttasklet_kill(&f->task);\n")
PREPPED = FIXED.replace("#ifdef FOO_OLD\n\tfoo_old(f);\n#endif\n", "")
FINAL = _new(PREPPED).replace("tasklet_kill(", "cancel_work_sync(")
FIX = {"source": "cocci/drivers/foo-fix.cocci", "subject": "Kill the tasklet after freeing the IRQ",
       "message": "foo_remove() kills the tasklet before it frees the interrupt.\n\n"
                  "Free the interrupt first.",
       "fix": True, "fixes": '0123456789ab ("dmaengine: foo: Add the foo driver")'}
PREP = {"source": "cocci/drivers/foo.cocci", "subject": "Remove the unused FOO_OLD path",
        "message": "FOO_OLD is defined nowhere in the tree."}


class DriverFix(unittest.TestCase):
    BUGGY, FIXED, PREPPED, FINAL = BUGGY, FIXED, PREPPED, FINAL

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.kdir, self.out = root / "k", root / "out"
        foo_tree(self.kdir, self.out, self.BUGGY)
        o = Outcome("drivers/dma/foo.c", Status.CONVERTED, "", [], self.BUGGY, self.FINAL)
        o.steps = [(FIX, self.FIXED), (PREP, self.PREPPED)]
        groups = [[Outcome(p, Status.CONVERTED, "", [], FILES[p], _new(FILES[p]))
                   for p in GROUPS[1]], [o]]
        write.patch(self.out, groups)
        write.report(self.out, "6.12.0", [x for g in groups for x in g])
        self.patches = build(self.kdir, self.out)
        self.dir = self.out / "series" / "dmaengine"

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def mails(self) -> list[Path]:
        return sorted(m for m in self.dir.glob("0*.patch") if "cover-letter" not in m.name)

    def test_report_has_the_fix_first_each_from_the_text_before(self) -> None:
        import json
        recs = json.loads((self.out / "report.json").read_text())["driver_prep"]
        self.assertEqual([(r["subject"], r.get("fix", False)) for r in recs],
                         [(FIX["subject"], True), (PREP["subject"], False)])
        self.assertEqual(recs[0]["fixes"], FIX["fixes"])
        fix, prep = (gitdiff.parse(r["diff"])[0] for r in recs)
        self.assertEqual(gitdiff.apply(gitdiff.apply(self.BUGGY, fix), prep), self.PREPPED)

    def test_fix_first_of_its_series_prep_right_before_the_conversion(self) -> None:
        self.assertEqual([m.name[5:] for m in self.mails()], [
            "dmaengine-foo-Kill-the-tasklet-after-freeing-the-IRQ.patch",
            "dmaengine-virt-Convert-from-tasklet-to-BH-workqueue.patch",
            "dmaengine-foo-Remove-the-unused-FOO_OLD-path.patch",
            "dmaengine-foo-Convert-from-tasklet-to-BH-workqueue.patch"])

    def test_mails_in_order_make_all_patch(self) -> None:
        ms = self.mails()
        self.assertEqual(applied(self.kdir, ms[:1])["drivers/dma/foo.c"], self.FIXED)
        self.assertEqual(applied(self.kdir, ms)["drivers/dma/foo.c"], self.FINAL)

    def test_fix_message_ends_in_one_trailer_block(self) -> None:
        text = self.mails()[0].read_text()
        body = text.split("\n\n", 1)[1].split("\n---\n", 1)[0]
        self.assertEqual(body, "foo_remove() kills the tasklet before it frees the interrupt.\n"
                               "\nFree the interrupt first.\n"
                               '\nFixes: 0123456789ab ("dmaengine: foo: Add the foo driver")\n'
                               "Signed-off-by: A U Thor <author@example.org>")
        self.assertNotIn("compile", text.lower())

    def test_cover_names_the_fixes_branch_and_the_order(self) -> None:
        cover = " ".join((self.dir / "0000-cover-letter.patch").read_text().split())
        self.assertIn("Patch 1 (dmaengine: foo: Kill the tasklet after freeing the IRQ) fixes a "
                      "bug in foo, before the driver is converted: it is meant for the fixes "
                      "branch of the dmaengine tree, and applies on its own; patch 4, the "
                      "conversion of foo, applies on top of it.", cover)
        self.assertIn("except that a driver's conversion applies on top of its fix", cover)
        # each file once in the diffstat: foo.c is changed by three patches
        self.assertIn(" 4 files changed,", cover)

    def test_git_am_takes_the_series(self) -> None:
        repo = Path(self.tmp.name) / "repo"
        env = {"PATH": os.environ["PATH"], "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1",
               "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "M",
               "GIT_AUTHOR_EMAIL": "m@e.org", "GIT_COMMITTER_NAME": "M",
               "GIT_COMMITTER_EMAIL": "m@e.org"}
        subprocess.run(["cp", "-r", str(self.kdir), str(repo)], check=True)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
        r = subprocess.run(["git", "-C", str(repo), "am", "-3", *map(str, self.mails())],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual((repo / "drivers/dma/foo.c").read_text(), self.FINAL)
        log = subprocess.run(["git", "-C", str(repo), "log", "--format=%(trailers:key=Fixes)",
                              "-4"], capture_output=True, text=True, env=env).stdout
        self.assertIn('Fixes: 0123456789ab ("dmaengine: foo: Add the foo driver")', log)


def git_env(home: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "M", "GIT_AUTHOR_EMAIL": "m@e.org",
            "GIT_COMMITTER_NAME": "M", "GIT_COMMITTER_EMAIL": "m@e.org"}


class FixesApart(DriverFix):
    """A tree whose fixes branch takes fixes in a series of their own
    (net-next: net): the fix is series/net/, [PATCH net]; the net-next
    series applies on top of it and its cover letter lists it as
    prerequisite-patch-id:, as git format-patch --base does."""

    def setUp(self) -> None:
        super().setUp()
        text = (self.kdir / "MAINTAINERS").read_text().replace(
            "L:\tdmaengine@example.org\n",
            "L:\tdmaengine@example.org\nT:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/"
            "netdev/net-next.git\n")
        (self.kdir / "MAINTAINERS").write_text(text)
        self.patches = build(self.kdir, self.out)
        self.dir = self.out / "series" / "net-next"

    def test_fix_first_of_its_series_prep_right_before_the_conversion(self) -> None:
        fixes = sorted((self.out / "series" / "net").glob("0*.patch"))
        self.assertEqual([m.name for m in fixes], [
            "0000-cover-letter.patch",
            "0001-dmaengine-foo-Kill-the-tasklet-after-freeing-the-IRQ.patch"])
        self.assertIn("Subject: [PATCH net 1/1] dmaengine: foo: Kill", fixes[1].read_text())
        self.assertEqual([m.name[5:] for m in self.mails()], [
            "dmaengine-virt-Convert-from-tasklet-to-BH-workqueue.patch",
            "dmaengine-foo-Remove-the-unused-FOO_OLD-path.patch",
            "dmaengine-foo-Convert-from-tasklet-to-BH-workqueue.patch"])
        import json
        self.assertEqual(json.loads((self.out / "report.json").read_text())["series"]["needs"],
                         {"net-next": "net"})

    def fix_mail(self) -> Path:
        return next((self.out / "series" / "net").glob("0001-*.patch"))

    def test_mails_in_order_make_all_patch(self) -> None:
        ms = [self.fix_mail(), *self.mails()]
        self.assertEqual(applied(self.kdir, ms)["drivers/dma/foo.c"], self.FINAL)

    def test_fix_message_ends_in_one_trailer_block(self) -> None:
        self.assertIn('\nFixes: 0123456789ab ("dmaengine: foo: Add the foo driver")\n'
                      "Signed-off-by: A U Thor <author@example.org>\n---\n",
                      self.fix_mail().read_text())

    def test_cover_names_the_fixes_branch_and_the_order(self) -> None:
        cover = (self.dir / "0000-cover-letter.patch").read_text()
        pid = subprocess.run(["git", "patch-id", "--stable"], input=self.fix_mail().read_text(),
                             capture_output=True, text=True).stdout.split()[0]
        self.assertIn(f"\nprerequisite-patch-id: {pid}\n", cover)
        self.assertIn("The conversion of foo (patch 3) applies on top of a fix sent to net in a "
                      "series of its own (dmaengine: foo: Kill the tasklet after freeing the "
                      "IRQ)", " ".join(cover.split()))
        fixes = " ".join((self.out / "series/net/0000-cover-letter.patch").read_text().split())
        self.assertIn("Subject: [PATCH net 0/1] Driver fixes", fixes)
        self.assertIn("meant for net, the netdev tree for fixes to the current release", fixes)
        self.assertIn("This patch fixes a bug in foo, found while converting the driver", fixes)
        self.assertIn("The conversion of the driver, sent to the net-next tree in a series of "
                      "its own, applies on top of it, and waits until it reaches the net-next tree",
                      fixes)
        self.assertNotIn("no Fixes: tag", fixes)     # its one fix has its tag
        readme = (self.out / "series" / "README").read_text()
        self.assertIn("Send net (drivers' fixes", readme)

    def test_git_am_takes_the_series(self) -> None:
        repo = Path(self.tmp.name) / "repo"
        env = git_env(repo)
        subprocess.run(["cp", "-r", str(self.kdir), str(repo)], check=True)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
        r = subprocess.run(["git", "-C", str(repo), "am", "-3", str(self.fix_mail()),
                            *map(str, self.mails())], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual((repo / "drivers/dma/foo.c").read_text(), self.FINAL)


# foo.c with 40 more lines on top: tests/am3.py moves a context line of each
# file, which conflicts in a file as small as the others
PAD = "".join(f"static int pad{i};\n" for i in range(40))


class FixesBesideTheirNamesake(unittest.TestCase):
    """The fixes go to a folder of another name when a tree of their tag
    has a series of its own (mt76's tree is named wireless: the wireless
    fixes are wireless-fixes/); the cover letter names the tree the fixes
    are sent to by its tag, not by that folder."""

    BUGGY, FIXED, PREPPED, FINAL = BUGGY, FIXED, PREPPED, FINAL

    def setUp(self) -> None:
        DriverFix.setUp(self)       # its fixture, not its tests
        self.addCleanup(self.tmp.cleanup)
        text = (self.kdir / "MAINTAINERS").read_text().replace(
            "L:\tdmaengine@example.org\n",
            "L:\tdmaengine@example.org\nT:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/"
            "netdev/net-next.git\n") + (
            "\nBAR DMA DRIVER\nM:\tBar Person <bar@example.org>\nS:\tMaintained\n"
            "T:\tgit https://github.com/bar/net\nF:\tdrivers/dma/bar.c\n"
            "F:\tdrivers/dma/sub/\nF:\tdrivers/dma/virt.h\n")
        (self.kdir / "MAINTAINERS").write_text(text)
        self.patches = build(self.kdir, self.out)

    def test_the_cover_names_the_fixes_by_their_tag(self) -> None:
        folders = sorted(d.name for d in (self.out / "series").iterdir() if d.is_dir())
        self.assertEqual(folders, ["net", "net-fixes", "net-next"])
        cover = " ".join((self.out / "series/net-next/0000-cover-letter.patch").read_text()
                         .split())
        self.assertIn("applies on top of a fix sent to net in a series of its own", cover)
        self.assertIn("this series waits until net is merged here", cover)
        self.assertNotIn("net-fixes", cover)


class FixesApartChecks(FixesApart):
    """send-check's series checks and tests/am3.py take the net series
    first."""

    BUGGY, FIXED, PREPPED, FINAL = (PAD + t for t in (BUGGY, FIXED, PREPPED, FINAL))

    def test_send_check_series_and_am3(self) -> None:
        import json
        import sys
        from contextlib import redirect_stdout
        from io import StringIO
        from detasklet.check import send
        from detasklet.out import files as outfiles
        rep = json.loads((self.out / "report.json").read_text())
        parsed = send._parsed(outfiles.series_patches(self.out))
        problems = send._series_problems(self.kdir, self.out, rep, parsed)
        # the fixture's foo.c uses virt.h's item (another patch): not what is checked here
        self.assertEqual([x for x in problems if "foo.c" in x and " uses " not in x], [])
        self.assertTrue(problems)     # that one is still found: the checks ran
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import am3
        with redirect_stdout(StringIO()) as said:
            self.assertEqual(am3.main(self.kdir, self.out, ["net-next"]), 0, said.getvalue())
        self.assertIn("ok   net-next: 3 mails", said.getvalue())


class Steps(unittest.TestCase):
    """convert.facts.groups.own_step: a group's fix and prep patch in the order
    they apply; a second fix of one file refuses it, a fix of another file
    of the group is a step of its own."""

    def test_fix_before_prep_and_one_fix_per_group(self) -> None:
        from detasklet.convert.facts.driver_patches import DriverPatch
        from detasklet.convert.facts.groups import Group, own_step
        fix = DriverPatch(Path("a-fix.cocci"), ("a.c",), "w", fix="Fix it")
        prep = DriverPatch(Path("a.patch"), ("a.c",), "w", prep="Prepare it")
        g = Group(["a.c", "a.h"])
        own_step(g, prep, "a.c", "P")
        own_step(g, fix, "a.h", "F")
        self.assertEqual([(d.own, t) for d, t in g.steps],
                         [("Fix it", {"a.h": "F"}), ("Prepare it", {"a.c": "P"})])
        other = DriverPatch(Path("b-fix.cocci"), ("a.c",), "w", fix="Other")
        own_step(g, other, "a.c", "X")
        self.assertEqual([(d.own, t) for d, t in g.steps],
                         [("Fix it", {"a.h": "F"}), ("Other", {"a.c": "X"}),
                          ("Prepare it", {"a.c": "P"})])
        own_step(g, DriverPatch(Path("c-fix.cocci"), ("a.h",), "w", fix="Third"), "a.h", "Y")
        self.assertIn("two fix patches for one file", g.refusals["a.h"])


class FixesBranch(unittest.TestCase):
    def test_the_table_names_the_fixes_branch(self) -> None:
        from detasklet.series import trees
        table = trees.load_table()
        self.assertTrue(trees.make_tree("git git://x/netdev/net-next.git", table)
                        .fixes.startswith("net,"))
        # a row that sends its tree to another keeps the other's fixes branch
        self.assertEqual(trees.make_tree("git git://x/pegasus.git", table).fixes,
                         trees.make_tree("git git://x/net-next.git", table).fixes)
        self.assertEqual(trees.make_tree("git git://x/other.git", table).fixes, "")
        # Greg's USB tree takes fixes into usb-linus (fsl_qe_udc's fix)
        self.assertTrue(trees.make_tree("git git://x/gregkh/usb.git", table)
                        .fixes.startswith("usb-linus,"))

    def test_fixes_folder_beside_a_tree_of_that_name(self) -> None:
        from detasklet.series.plan import Patch
        from detasklet.series.trees import Tree
        nn = Tree("net-next", "git x/net-next.git", "net-next", fixes="net", fixes_tag="net")
        fix = Patch(["a.c"], tree=nn, driver_prep={"subject": "x", "fix": True})
        got = series.split([fix, Patch(["a.c"], tree=nn), Patch(["b.c"], tree=Tree("net"))])
        self.assertEqual([(s.folder, s.needs, s.tree.tag) for s in got],
                         [("net", "", ""), ("net-fixes", "", "net"),
                          ("net-next", "net-fixes", "net-next")])

    def test_a_part_never_ends_on_a_fix(self) -> None:
        from detasklet.series.plan import Patch
        ps = [Patch([f"f{i}.c"]) for i in range(20)]
        ps[13].driver_prep = {"subject": "x", "fix": True}
        ps[14].driver_prep = {"subject": "y"}
        self.assertEqual(series._keep_preps(ps, [(0, 15), (15, 20)]), [(0, 13), (13, 20)])



class FixesWords(unittest.TestCase):
    """The words of a net fixes cover letter and of the conversions that
    wait on it, as netdev reads them: the drivers listed with "and", no
    filler about "the driver's own terms", no folder of our output."""

    def setUp(self) -> None:
        from detasklet.series.plan import Patch
        from detasklet.series.trees import Tree
        net = Tree("net", fixes="net, the netdev tree for fixes to the current release")
        diff = gitdiff.parse("diff --git a/d/x.c b/d/x.c\n--- a/d/x.c\n+++ b/d/x.c\n"
                             "@@ -1 +1 @@\n-a\n+b\n")[0]
        def fix(f: str, name: str) -> Patch:
            return Patch([f], "net", ":", name=name, tree=net, diffs={f: diff},
                         driver_prep={"fix": True, "subject": f"Fix {name}", "files": [f]})
        self.fixes = [fix("d/lio.c", "liquidio"), fix("d/lio_vf.c", "liquidio"),
                      fix("d/wed.c", "mtk_wed"), fix("d/conn.c", "mlx5")]
        self.fixes[2].driver_prep["fixes"] = '0123456789ab ("net: ethernet: mtk_wed: add")'
        self.convs = [Patch([f], "net", ":", name=n, tree=net) for f, n in
                      (("d/a.c", "a"), ("d/lio.c", "liquidio"), ("d/wed.c", "mtk_wed"))]

    def test_fixes_cover(self) -> None:
        from detasklet.series import letter
        text = " ".join(" ".join(letter.fixes_cover(
            self.fixes, {}, "A U Thor", "", "the net-next tree",
            ["net-next-1", "net-next-2"])).split())
        self.assertIn("These patches fix bugs in liquidio, mlx5 and mtk_wed, found while "
                      "converting these drivers", text)
        self.assertIn("and wait until these fixes reach the net-next tree.", text)
        self.assertNotIn("own terms", text)
        self.assertNotIn("series/", text)
        self.assertIn("Patches 1, 2 and 4 carry no Fixes: tag: the commit that introduced "
                      "those bugs was not identified.", text)

    def test_conversions_waiting_on_fixes(self) -> None:
        from detasklet.series import letter
        said = letter.after_sentence(self.convs, self.fixes, "net")
        self.assertIn("The conversions of liquidio (patch 2) and mtk_wed (patch 3) apply on top "
                      "of fixes sent to net", said)

if __name__ == "__main__":
    unittest.main()
