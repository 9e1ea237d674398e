# SPDX-License-Identifier: GPL-2.0-only
"""series: drivers, subjects and the mail files, on a fixture tree with its
own MAINTAINERS and Makefiles (no get_maintainer.pl: To/Cc stay empty);
one driver's patch is compared byte for byte with tests/data/0002-foo.patch
(DETASKLET_UPDATE_GOLDEN=1 writes it), but for git's version in the
signature. The cover letter of the dmaengine
series (a hot path) quotes a made-up OUT/bench/bench.json; the other
series' cover, and every cover without that file, say nothing of latency."""

import json
import logging
import os
import re
import subprocess
import shutil
import tempfile
import unittest
from pathlib import Path

from detasklet.convert.output import write
from detasklet.convert.rewrite.classify import Outcome
from detasklet.ctext import gitdiff
from detasklet.out.files import Status
from detasklet.series import gitmail, write as series
from detasklet.series.identity import Ident
from fixtures import write_tree

DATA = Path(__file__).resolve().parents[1] / "data"

MAINTAINERS = """\
List of maintainers
===================

DMA GENERIC OFFLOAD ENGINE SUBSYSTEM
M:	Dma Maintainer <dma@example.org>
L:	dmaengine@example.org
S:	Maintained
F:	drivers/dma/

FOO DMA DRIVER
M:	Foo Person <foo@example.org>
S:	Maintained
F:	drivers/dma/foo.c

ATH9K WIRELESS DRIVER
M:	Ath Person <ath@example.org>
S:	Maintained
F:	drivers/net/wireless/ath/ath9k/
"""

OLD_C = """\
#include "virt.h"

static void foo_task(struct tasklet_struct *t)
{
	struct foo *f = from_tasklet(f, t, task);
}

static int foo_probe(struct foo *f)
{
	tasklet_setup(&f->task, foo_task);
	tasklet_schedule(&f->task);
	return 0;
}
"""

OLD_H = "struct virt {\n\tstruct tasklet_struct task;\n};\n"

FILES = {
    "drivers/dma/foo.c": OLD_C,
    "drivers/dma/bar.c": OLD_C.replace("foo", "bar"),
    "drivers/dma/virt.h": OLD_H,
    "drivers/dma/sub/baz.c": OLD_C.replace("foo", "baz"),
    "drivers/net/wireless/ath/ath9k/main.c": OLD_C.replace('"virt.h"', '"ath9k.h"'),
}
GROUPS = [["drivers/dma/foo.c"],
          ["drivers/dma/bar.c", "drivers/dma/sub/baz.c", "drivers/dma/virt.h"],
          ["drivers/net/wireless/ath/ath9k/main.c"]]


def _new(text: str) -> str:
    for a, b in (("struct tasklet_struct", "struct work_struct"),
                 ("from_tasklet", "from_work"), ("tasklet_setup", "INIT_WORK"),
                 ("tasklet_schedule(", "queue_work(system_bh_wq, ")):
        text = text.replace(a, b)
    return text


def fixture(root: Path) -> tuple[Path, Path]:
    kdir, out = root / "k", root / "out"
    for p, t in FILES.items():
        (kdir / p).parent.mkdir(parents=True, exist_ok=True)
        (kdir / p).write_text(t)
    (kdir / "MAINTAINERS").write_text(MAINTAINERS)
    (kdir / "Makefile").write_text("VERSION = 6\n")
    (kdir / "drivers/dma/Makefile").write_text("obj-y += foo.o bar.o\nobj-y += sub/\n")
    (kdir / "drivers/dma/sub/Makefile").write_text("obj-y += baz.o\n")
    os.utime(kdir / "Makefile", (1700000000, 1700000000))
    out.mkdir()
    groups = [[Outcome(p, Status.CONVERTED, "", [], FILES[p], _new(FILES[p])) for p in g]
              for g in GROUPS]
    write.patch(out, groups)
    write.report(out, "6.12.0", [o for g in groups for o in g])
    return kdir, out


def applied(kdir: Path, patches: list[Path]) -> dict[str, str]:
    """Each file the patches (mails, in this order; a cover letter has no
    diff) change, as they leave it, from its text in kdir."""
    texts: dict[str, str] = {}
    for m in patches:
        for fd in gitdiff.parse(m.read_text()):
            before = texts.get(fd.path)
            if before is None:
                before = (kdir / fd.path).read_text() if (kdir / fd.path).is_file() else ""
            texts[fd.path] = gitdiff.apply(before, fd)
    return texts


def build(kdir: Path, out: Path) -> list:
    with unittest.TestCase().assertLogs("detasklet", logging.WARNING):   # no get_maintainer.pl
        return series.build(kdir, out, Ident("A U Thor <author@example.org>", 1700000000), 1, "out")


class Series(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.kdir, self.out = fixture(Path(self.tmp.name))
        self.patches = build(self.kdir, self.out)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_one_patch_per_driver_groups_kept_whole(self) -> None:
        self.assertEqual([p.files for p in self.patches],
                         [["drivers/dma/bar.c", "drivers/dma/sub/baz.c", "drivers/dma/virt.h"],
                          ["drivers/dma/foo.c"], ["drivers/net/wireless/ath/ath9k/main.c"]])

    def test_subjects(self) -> None:
        self.assertEqual([p.subject for p in self.patches],
                         ["dmaengine: virt: Convert from tasklet to BH workqueue",
                          "dmaengine: foo: Convert from tasklet to BH workqueue",
                          "wifi: ath9k: Convert from tasklet to BH workqueue"])

    def test_one_series_per_tree(self) -> None:
        sdir = self.out / "series"
        self.assertEqual(sorted(p.name for p in sdir.iterdir()), ["README", "dmaengine", "misc"])
        self.assertEqual(sorted(p.name for p in (sdir / "misc").iterdir()),
                         ["0000-cover-letter.patch", "0001-wifi-ath9k-Convert-from-tasklet-to-BH-workqueue.patch"])
        readme = (sdir / "README").read_text()
        self.assertIn("dmaengine                      2  (list dmaengine@example.org)", readme)
        self.assertIn("misc                           1  (no tree or list in MAINTAINERS)", readme)

    def test_golden_patch_file(self) -> None:
        names = sorted(p.name for p in (self.out / "series" / "dmaengine").iterdir())
        self.assertEqual(len(names), 3)
        self.assertEqual(names[0], "0000-cover-letter.patch")
        text = (self.out / "series" / "dmaengine" / names[2]).read_text()
        # git format-patch signs with the version of the git that ran
        self.assertTrue(text.endswith(f"\n-- \n{gitmail.git_version()}\n\n"))
        text = text.rpartition("\n-- \n")[0] + "\n-- \nGIT-VERSION\n\n"
        if os.environ.get("DETASKLET_UPDATE_GOLDEN"):
            (DATA / "0002-foo.patch").write_text(text)
        self.assertEqual(text, (DATA / "0002-foo.patch").read_text())

    def test_says_only_what_was_measured(self) -> None:
        """Without a build record, no mail speaks of building, and none
        tells the reader to run something; with one, the patch of that
        file and its cover letter say how it built."""
        mails = {m: m.read_text() for m in sorted((self.out / "series").glob("*/0*.patch"))}
        for m, text in mails.items():
            for word in ("compile", r"\bbuil", "make ", "reproduce", "detasklet "):
                self.assertNotRegex(text.split("\n---\n")[0].lower(), word, (m.name, word))
        rep = json.loads((self.out / "report.json").read_text())
        for f in rep["files"]:
            if f["path"] == "drivers/dma/foo.c":
                f["build"] = {"converted": "ok", "arch": "x86_64+arm64", "config": "allmodconfig"}
        (self.out / "report.json").write_text(json.dumps(rep))
        build(self.kdir, self.out)
        dma = self.out / "series" / "dmaengine"
        foo = " ".join((dma / "0002-dmaengine-foo-Convert-from-tasklet-to-BH-workqueue.patch")
                       .read_text().split())
        self.assertIn("Compile-tested with allmodconfig on arm64, x86_64: all the changed "
                      "files build.", foo)
        cover = " ".join((dma / "0000-cover-letter.patch").read_text().split())
        self.assertIn("Compile-tested: 1 of the 4 changed files built", cover)
        virt = (dma / "0001-dmaengine-virt-Convert-from-tasklet-to-BH-workqueue.patch").read_text()
        self.assertNotIn("ompile", virt)

    def test_patches_together_are_all_patch(self) -> None:
        self.assertEqual(applied(self.kdir, sorted((self.out / "series").glob("*/0*.patch"))),
                         applied(self.kdir, [self.out / "all.patch"]))

    def test_same_bytes_twice_and_again_in_the_same_out(self) -> None:
        def files() -> dict[str, bytes]:
            return {str(p.relative_to(self.out)): p.read_bytes()
                    for p in sorted((self.out / "series").rglob("*")) if p.is_file()}
        first = files()
        build(self.kdir, self.out)
        self.assertEqual(files(), first)
        for p in Path(self.tmp.name).iterdir():
            shutil.rmtree(p)
        self.kdir, self.out = fixture(Path(self.tmp.name))
        build(self.kdir, self.out)
        self.assertEqual(files(), first)


# A made-up make bench result, in the shape check/bench.py writes: the
# tasklet and BH work latency (ns) from a hardirq, QEMU and UML.
def _lat(p50: int, p99: int) -> dict:
    return {"n": 10000, "p50": p50, "p99": p99, "max": p99 * 4}


BENCH = {
    "kernel": "7.3.4", "command": "make bench KDIR=/home/me/src/linux", "accel": "tcg",
    "base": "tasklet",
    "runs": {
        "um": {"meta": {"cpus": 1, "machine": "x86_64", "release": "7.3.4"},
               "latency": {"hardirq": {"tasklet": _lat(800, 9500), "bh": _lat(1000, 9700)}}},
        "x86_64": {"meta": {"cpus": 2, "machine": "x86_64", "release": "7.3.4"},
                   "latency": {"hardirq": {"tasklet": _lat(14600, 25600),
                                           "bh": _lat(16400, 36100)}}}},
    "ratios": {"um": {"latency": {"hardirq": {"bh": {"p99": 1.021}}}},
               "x86_64": {"latency": {"hardirq": {"bh": {"p99": 1.41}}}}},
    "verdict": {"bar": 1.1, "within_bar": False, "worst": 1.41}}


class Latency(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.kdir, self.out = fixture(Path(self.tmp.name))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def covers(self) -> dict[str, str]:
        return {d.name: (d / "0000-cover-letter.patch").read_text()
                for d in (self.out / "series").iterdir() if d.is_dir()}

    def test_hot_path_cover_quotes_the_bench(self) -> None:
        (self.out / "bench").mkdir()
        (self.out / "bench/bench.json").write_text(json.dumps(BENCH))
        build(self.kdir, self.out)
        dma = " ".join(self.covers()["dmaengine"].split())     # unwrapped
        self.assertIn("Latency on the hot path this series touches:", dma)
        self.assertIn("interleaved in one boot per run of Linux 7.3.4.", dma)
        self.assertIn("DMA engine completion: tasklet_schedule() against "
                      "queue_work(system_bh_wq, ...), called from a hardirq:", dma)
        self.assertIn("- QEMU x86_64 (TCG, no KVM), 2 CPUs, 10000 events each: BH work "
                      "p50 16.4us, p99 36.1us; tasklet p50 14.6us, p99 25.6us. BH work's "
                      "p99 is 1.41 times the tasklet's: this misses the series' aim of at "
                      "most 1.1 times.", dma)
        self.assertIn("- UML, 1 CPU, 10000 events each: BH work p50 1.0us, p99 9.7us; "
                      "tasklet p50 0.8us, p99 9.5us. BH work's p99 is 1.02 times the "
                      "tasklet's: within the series' aim of at most 1.1 times.", dma)
        self.assertIn("UML and QEMU without KVM do not run at the speed of hardware", dma)
        self.assertIn("To reproduce the measurement: make bench KDIR=<linux-7.3.4>", dma)
        self.assertNotIn("/home/me", dma)
        self.assertNotIn("Latency", self.covers()["misc"])     # ath9k: no hot path
        self.assertNotIn("make bench", self.covers()["misc"])

    def test_no_bench_no_latency(self) -> None:
        build(self.kdir, self.out)
        for name, text in self.covers().items():
            self.assertNotIn("Latency", text, name)
            self.assertNotIn("make bench", text, name)

    def test_damaged_bench_warns_and_says_nothing(self) -> None:
        (self.out / "bench").mkdir()
        (self.out / "bench/bench.json").write_text("{oops")
        with self.assertLogs("detasklet", logging.WARNING) as logs:
            series.build(self.kdir, self.out, Ident("A U Thor <author@example.org>",
                                                    1700000000), 1, "out")
        self.assertTrue(any("bench.json" in m and "nothing of latency" in m
                            for m in logs.output))
        self.assertNotIn("Latency", self.covers()["dmaengine"])

    def test_bench_without_the_hot_path_figures_says_nothing(self) -> None:
        (self.out / "bench").mkdir()
        other = {**BENCH, "runs": {"um": {"meta": {}, "latency": {"process": {
            "tasklet": _lat(1, 2), "bh": _lat(1, 2)}}}}}
        (self.out / "bench/bench.json").write_text(json.dumps(other))
        build(self.kdir, self.out)
        self.assertNotIn("Latency", self.covers()["dmaengine"])


if __name__ == "__main__":
    unittest.main()


def foo_tree(kdir: Path, out: Path, foo: str) -> None:
    """The files of FILES in kdir with foo as drivers/dma/foo.c (no
    drivers/dma/sub/Makefile), and an empty out."""
    for p, t in {**FILES, "drivers/dma/foo.c": foo}.items():
        (kdir / p).parent.mkdir(parents=True, exist_ok=True)
        (kdir / p).write_text(t)
    (kdir / "MAINTAINERS").write_text(MAINTAINERS)
    (kdir / "Makefile").write_text("VERSION = 6\n")
    (kdir / "drivers/dma/Makefile").write_text("obj-y += foo.o bar.o\nobj-y += sub/\n")
    out.mkdir()


class DriverPrep(unittest.TestCase):
    """A driver's own prep patch (a cocci/drivers/ patch with a Prep: line)
    comes right before the driver's conversion, with its subject and
    reason; the conversion starts from the text after it, so the two
    applied in order are all.patch."""

    MID = OLD_C.replace("\treturn 0;\n", "\tfoo_dead(f);\n\treturn 0;\n")

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.kdir, self.out = root / "k", root / "out"
        old = OLD_C.replace("\treturn 0;\n", "#ifdef FOO_OLD\n\tfoo_old(f);\n#endif\n"
                                               "\tfoo_dead(f);\n\treturn 0;\n")
        self.old = old
        foo_tree(self.kdir, self.out, old)
        o = Outcome("drivers/dma/foo.c", Status.CONVERTED, "", [], old, _new(self.MID))
        o.steps = [({"source": "cocci/drivers/foo.cocci",
                     "subject": "Remove the unused FOO_OLD path",
                     "message": "FOO_OLD is defined nowhere in the tree."}, self.MID)]
        groups = [[o], [Outcome(p, Status.CONVERTED, "", [], FILES[p], _new(FILES[p]))
                        for p in GROUPS[1]]]
        write.patch(self.out, groups)
        write.report(self.out, "6.12.0", [x for g in groups for x in g])
        self.patches = build(self.kdir, self.out)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_prep_right_before_its_conversion(self) -> None:
        self.assertEqual([p.subject for p in self.patches],
                         ["dmaengine: virt: Convert from tasklet to BH workqueue",
                          "dmaengine: foo: Remove the unused FOO_OLD path",
                          "dmaengine: foo: Convert from tasklet to BH workqueue"])

    def test_mails_apply_in_order_to_all_patch(self) -> None:
        mails = sorted((self.out / "series" / "dmaengine").glob("0*-foo-*.patch"))
        self.assertEqual([m.name[5:] for m in mails],
                         ["dmaengine-foo-Remove-the-unused-FOO_OLD-path.patch",
                          "dmaengine-foo-Convert-from-tasklet-to-BH-workqueue.patch"])
        prep, conv = (gitdiff.parse(m.read_text())[0] for m in mails)
        mid = gitdiff.apply(self.old, prep)
        self.assertEqual(mid, self.MID)
        self.assertEqual(gitdiff.apply(mid, conv), _new(self.MID))
        text = mails[0].read_text()
        self.assertIn("\nFOO_OLD is defined nowhere in the tree.\n", text)
        self.assertNotIn("compile", text.lower())
        self.assertNotIn("tasklet", conv.text.split("@@", 1)[0] + "".join(prep.lines("+")))

    def test_cover_says_the_order(self) -> None:
        cover = (self.out / "series" / "dmaengine" / "0000-cover-letter.patch").read_text()
        self.assertIn("patch 3 applies on top of patch 2", " ".join(cover.split()))


class PartCuts(unittest.TestCase):
    def test_no_part_ends_on_a_driver_prep(self) -> None:
        from detasklet.series.plan import Patch
        ps = [Patch([f"f{i}.c"]) for i in range(20)]
        ps[14].driver_prep = {"subject": "x"}
        self.assertEqual(series._keep_preps(ps, [(0, 15), (15, 20)]), [(0, 14), (14, 20)])
        self.assertEqual(series._keep_preps(ps, [(0, 10), (10, 20)]), [(0, 10), (10, 20)])


REF = Path(__file__).resolve().parents[2] / "cache" / "linux-source-6.12"


@unittest.skipUnless((REF / "kernel/softirq.c").is_file(), "no reference tree (make references)")
class CoreLast(unittest.TestCase):
    """When a convert leaves no user (whole tree, every file converted), the
    core removal is written and is the last patch; otherwise it is not."""

    def setUp(self) -> None:
        from detasklet.convert.output.tasklet_free import FILES as CORE, SYMBOL_STRINGS
        self.tmp = tempfile.TemporaryDirectory()
        self.kdir, self.out = fixture(Path(self.tmp.name))
        for p in (*CORE, *SYMBOL_STRINGS):
            (self.kdir / p).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REF / p, self.kdir / p)
        self.outcomes = [Outcome(p, Status.CONVERTED, "", [], FILES[p], _new(FILES[p]))
                         for g in GROUPS for p in g]

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_last_patch_when_no_user_is_left(self) -> None:
        core = write.core_removal(self.out, self.kdir, self.outcomes, [], [])
        self.assertEqual(core[:1], ["include/linux/interrupt.h"])
        write.report(self.out, "6.12.0", self.outcomes, core=core)
        patches = build(self.kdir, self.out)
        self.assertEqual(patches[-1].subject, "softirq: Remove the tasklet API")
        self.assertEqual(patches[-1].files, core)
        sdir = self.out / "series"
        mails = sorted(sdir.glob("*/0*.patch"))
        last = [m for m in mails if "Remove-the-tasklet-API" in m.name]
        self.assertEqual(len(last), 1)
        self.assertEqual(last[0], sorted(last[0].parent.glob("0*.patch"))[-1])
        text = last[0].read_text()
        self.assertIn("applies once every other patch of the conversion is in", text)
        self.assertIn("the last patch of", (sdir / "README").read_text())
        self.assertEqual(applied(self.kdir, mails), applied(
            self.kdir, [self.out / "all.patch", self.out / "tasklet-free.patch"]))

    def test_the_irq_tree_takes_it(self) -> None:
        """MAINTAINERS has no section for kernel/softirq.c: the removal goes
        to the IRQ subsystem's tree, not to the tree of another of its files."""
        from detasklet.series import plan
        files = ["include/linux/interrupt.h", "kernel/softirq.c", "drivers/misc/lkdtm/core.c"]
        self.assertEqual(plan.core_tree(files, plan.index_of(REF)).name, "tip-irq-core")

    def test_not_with_a_user_left_or_paths(self) -> None:
        left = self.outcomes[:-1] + [Outcome(self.outcomes[-1].path, Status.UNCONVERTED,
                                             "why", [], "", "")]
        self.assertEqual(write.core_removal(self.out, self.kdir, left, [], []), [])
        self.assertEqual(write.core_removal(self.out, self.kdir, self.outcomes,
                                            ["drivers/dma"], []), [])
        self.assertFalse((self.out / "tasklet-free.patch").exists())


# The shapes of three drivers of Linux 7.3.4 that an older series joined
# with drivers they share nothing with: two headers under include/ (the
# Input patch took cdc_ncm), a MAINTAINERS glob (drivers/dma/tegra* took
# tegra20-apb-dma into the virt-dma group of tegra186-gpc-dma) and one
# section for a whole folder (HSI: omap_ssi rode in the nokia-modem patch).
JOIN_MAINTAINERS = """\
List of maintainers
===================

DMA GENERIC OFFLOAD ENGINE SUBSYSTEM
M:	Dma Maintainer <dma@example.org>
L:	dmaengine@example.org
S:	Maintained
F:	drivers/dma/

HSI SUBSYSTEM
M:	Hsi Maintainer <hsi@example.org>
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/sre/linux-hsi.git
F:	drivers/hsi/

INPUT (KEYBOARD, MOUSE, JOYSTICK, TOUCHSCREEN) DRIVERS
M:	Input Maintainer <input@example.org>
L:	linux-input@example.org
S:	Maintained
F:	drivers/input/

TEGRA DMA DRIVERS
M:	Tegra Person <tegra@example.org>
S:	Supported
F:	drivers/dma/tegra*

USB NETWORKING DRIVERS
L:	netdev@vger.kernel.org
S:	Odd Fixes
F:	drivers/net/usb/

USB SUBSYSTEM
M:	Usb Maintainer <usb@example.org>
L:	linux-usb@example.org
S:	Supported
F:	drivers/usb/
F:	include/linux/usb/
"""


def _user(name: str, member: str, include: str) -> str:
    """A driver file that sets up, queues and kills the tasklet member of
    a header's structure."""
    return (f'#include "{include}"\n\nstatic void {name}_task(struct tasklet_struct *t)\n{{\n'
            f'\tstruct {name} *p = from_tasklet(p, t, {member});\n}}\n\n'
            f'static int {name}_probe(struct {name} *p)\n{{\n'
            f'\ttasklet_setup(&p->{member}, {name}_task);\n'
            f'\ttasklet_schedule(&p->{member});\n\treturn 0;\n}}\n')


JOIN_FILES = {
    "include/Kbuild": "# the uapi headers\n",
    "include/linux/hil_mlc.h": "struct hil_mlc {\n\tstruct tasklet_struct *tasklet;\n};\n",
    "include/linux/usb/cdc_ncm.h": "struct cdc_ncm_ctx {\n\tstruct tasklet_struct bh;\n};\n",
    "drivers/input/serio/Makefile": "obj-$(CONFIG_HIL_MLC) += hp_sdc_mlc.o hil_mlc.o\n",
    "drivers/input/serio/hil_mlc.c": (
        "#include <linux/hil_mlc.h>\n\nstatic void hil_mlcs_process(unsigned long unused)\n{\n}\n\n"
        "static DECLARE_TASKLET_OLD(hil_mlcs_tasklet, hil_mlcs_process);\n\n"
        "int hil_mlc_register(struct hil_mlc *mlc)\n{\n\tmlc->tasklet = &hil_mlcs_tasklet;\n"
        "\treturn 0;\n}\n"),
    "drivers/input/serio/hp_sdc_mlc.c": (
        "#include <linux/hil_mlc.h>\n\nstatic void hp_sdc_mlc_isr(struct hil_mlc *mlc)\n{\n"
        "\ttasklet_schedule(mlc->tasklet);\n}\n"),
    "drivers/net/usb/Makefile": "obj-$(CONFIG_USB_NET_CDC_NCM) += cdc_ncm.o\n",
    "drivers/net/usb/cdc_ncm.c": _user("cdc_ncm_ctx", "bh", "linux/usb/cdc_ncm.h")
    .replace('#include "linux/usb/cdc_ncm.h"', "#include <linux/usb/cdc_ncm.h>"),
    "drivers/dma/Makefile": ("obj-$(CONFIG_DMA_VIRTUAL_CHANNELS) += virt-dma.o\n"
                             "obj-$(CONFIG_TEGRA186_GPC_DMA) += tegra186-gpc-dma.o\n"
                             "obj-$(CONFIG_TEGRA20_APB_DMA) += tegra20-apb-dma.o\n"),
    "drivers/dma/virt-dma.h": "struct virt_dma_chan {\n\tstruct tasklet_struct task;\n};\n",
    "drivers/dma/virt-dma.c": _user("virt_dma_chan", "task", "virt-dma.h"),
    "drivers/dma/tegra186-gpc-dma.c": (
        '#include "virt-dma.h"\n\nstatic void tegra_dma_free(struct virt_dma_chan *vc)\n{\n'
        "\ttasklet_kill(&vc->task);\n}\n"),
    "drivers/dma/tegra20-apb-dma.c": _user("tegra_dma_channel", "tasklet", "tegra.h"),
    "drivers/hsi/clients/Makefile": "obj-$(CONFIG_NOKIA_MODEM) += nokia-modem.o\n",
    "drivers/hsi/clients/nokia-modem.c": _user("nokia_modem_device", "nokia_modem_rst_ind_tasklet",
                                               "nokia.h"),
    "drivers/hsi/controllers/Makefile": ("omap_ssi-objs += omap_ssi_core.o omap_ssi_port.o\n"
                                         "obj-$(CONFIG_OMAP_SSI) += omap_ssi.o\n"),
    "drivers/hsi/controllers/omap_ssi.h": "struct omap_ssi_controller {\n"
                                          "\tstruct tasklet_struct gdd_tasklet;\n};\n",
    "drivers/hsi/controllers/omap_ssi_core.c": _user("omap_ssi_controller", "gdd_tasklet",
                                                     "omap_ssi.h"),
    "drivers/hsi/controllers/omap_ssi_port.c": _user("omap_ssi_port", "wake_tasklet",
                                                     "omap_ssi_port.h"),
    # a member nothing uses any more, in a header its driver includes
    "drivers/hsi/controllers/omap_ssi_port.h": "struct omap_ssi_port {\n"
                                               "\tstruct tasklet_struct old_tasklet;\n};\n",
    # a forward declaration in a header no converted file includes
    "include/linux/kgdb.h": "struct tasklet_struct;\nvoid kgdb_breakpoint(void);\n",
}
JOIN_GROUPS = [
    ["drivers/input/serio/hil_mlc.c", "drivers/input/serio/hp_sdc_mlc.c",
     "include/linux/hil_mlc.h"],
    ["drivers/net/usb/cdc_ncm.c", "include/linux/usb/cdc_ncm.h"],
    ["drivers/dma/tegra186-gpc-dma.c", "drivers/dma/virt-dma.c", "drivers/dma/virt-dma.h"],
    ["drivers/dma/tegra20-apb-dma.c"],
    ["drivers/hsi/clients/nokia-modem.c"],
    ["drivers/hsi/controllers/omap_ssi.h", "drivers/hsi/controllers/omap_ssi_core.c"],
    ["drivers/hsi/controllers/omap_ssi_port.c"],
    ["drivers/hsi/controllers/omap_ssi_port.h"],
    ["include/linux/kgdb.h"],
]


def _join_new(text: str) -> str:
    text = text.replace("\tstruct tasklet_struct old_tasklet;\n", "").replace(
        "struct tasklet_struct;\n", "")
    text = _new(text).replace("tasklet_kill(", "cancel_work_sync(")
    return text.replace("static void hil_mlcs_process(unsigned long unused)",
                        "static void hil_mlcs_process(struct work_struct *unused)").replace(
        "DECLARE_TASKLET_OLD(", "DECLARE_WORK(")


class OneDriverPerPatch(unittest.TestCase):
    """A patch is the groups of one kbuild module, with the headers that
    declare their items: never joined through include/, a MAINTAINERS
    glob or a folder's section; a header alone in its group (a member
    nothing uses) goes with the one module that includes it, else alone;
    a 'share' sentence only names files that share a work item."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.kdir, self.out = write_tree(root / "k", {
            **JOIN_FILES, "MAINTAINERS": JOIN_MAINTAINERS, "Makefile": "VERSION = 7\n"}), \
            root / "out"
        os.utime(self.kdir / "Makefile", (1700000000, 1700000000))
        self.out.mkdir()
        groups = [[Outcome(p, Status.CONVERTED, "", [], JOIN_FILES[p], _join_new(JOIN_FILES[p]))
                   for p in g] for g in JOIN_GROUPS]
        write.patch(self.out, groups)
        write.report(self.out, "7.3.4", [o for g in groups for o in g])
        self.patches = build(self.kdir, self.out)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_one_driver_per_patch(self) -> None:
        self.assertEqual([p.files for p in self.patches], [
            ["drivers/dma/tegra186-gpc-dma.c", "drivers/dma/virt-dma.c", "drivers/dma/virt-dma.h"],
            ["drivers/dma/tegra20-apb-dma.c"],
            ["drivers/hsi/clients/nokia-modem.c"],
            ["drivers/hsi/controllers/omap_ssi.h", "drivers/hsi/controllers/omap_ssi_core.c",
             "drivers/hsi/controllers/omap_ssi_port.c", "drivers/hsi/controllers/omap_ssi_port.h"],
            ["drivers/input/serio/hil_mlc.c", "drivers/input/serio/hp_sdc_mlc.c",
             "include/linux/hil_mlc.h"],
            ["drivers/net/usb/cdc_ncm.c", "include/linux/usb/cdc_ncm.h"],
            ["include/linux/kgdb.h"]])
        self.assertEqual(self.patches[-1].subject,
                         "kgdb: Remove unused struct tasklet_struct declaration")

    def test_share_sentences_are_true(self) -> None:
        said = {tuple(p.files): " ".join(p.shared.split()) for p in self.patches}
        self.assertEqual(said[("drivers/dma/tegra186-gpc-dma.c", "drivers/dma/virt-dma.c",
                               "drivers/dma/virt-dma.h")],
                         "drivers/dma/tegra186-gpc-dma.c, drivers/dma/virt-dma.c and "
                         "drivers/dma/virt-dma.h are changed in one patch because they share "
                         "the work item task declared in drivers/dma/virt-dma.h, whose type changes "
                         "in all of them at once. They are maintained in 2 "
                         "MAINTAINERS sections. They are linked into 2 modules.")
        self.assertEqual(said[("drivers/input/serio/hil_mlc.c", "drivers/input/serio/hp_sdc_mlc.c",
                               "include/linux/hil_mlc.h")],
                         "drivers/input/serio/hil_mlc.c, drivers/input/serio/hp_sdc_mlc.c and "
                         "include/linux/hil_mlc.h are changed in one patch because they share "
                         "the work item tasklet declared in include/linux/hil_mlc.h, whose type changes "
                         "in all of them at once. They are linked into 2 "
                         "modules.")
        self.assertEqual(said[("drivers/net/usb/cdc_ncm.c", "include/linux/usb/cdc_ncm.h")],
                         "drivers/net/usb/cdc_ncm.c and include/linux/usb/cdc_ncm.h are changed "
                         "in one patch because they share the work item bh declared in "
                         "include/linux/usb/cdc_ncm.h, whose type changes in all "
                         "of them at once. They are maintained in 2 MAINTAINERS sections.")
        # one module, or one file: nothing to explain
        for files in (("drivers/dma/tegra20-apb-dma.c",), ("drivers/hsi/clients/nokia-modem.c",),
                      ("drivers/hsi/controllers/omap_ssi.h",
                       "drivers/hsi/controllers/omap_ssi_core.c",
                       "drivers/hsi/controllers/omap_ssi_port.c",
                       "drivers/hsi/controllers/omap_ssi_port.h")):
            self.assertEqual(said[files], "", files)
        cdc = [m for m in (self.out / "series").rglob("*.patch") if "cdc_ncm" in m.read_text()]
        self.assertEqual(len(cdc), 2, cdc)      # its patch and its cover letter
        # the covers' list of such patches is wrapped at 72 like the rest
        # (sample 46: its header was one line of 97 columns)
        covers = [m.read_text() for m in (self.out / "series").rglob("0000-*.patch")]
        heads = [ln for c in covers for ln in c.splitlines()
                 if ln.startswith("Patches whose files span")]
        self.assertTrue(heads and all(len(ln) <= 72 for ln in heads), heads)
        for m in cdc:
            text = m.read_text()
            self.assertNotIn("hil_mlc", text)


class ShareByDeclaration(unittest.TestCase):
    """A 'share' sentence names what one file declares for the others (a
    member or a global), never a local of a function (i915's
    `struct tasklet_struct *t = ...` in a static inline) nor a static
    variable that another file happens to name."""

    def test_locals_and_statics_are_nobodys_item(self) -> None:
        from detasklet.series.plan import shared_sentence
        hdr = ("struct sched { struct tasklet_struct tasklet; };\n"
               "static inline void flush_sched(struct sched *s)\n{\n"
               "\tstruct tasklet_struct *t = &s->tasklet;\n\ttasklet_unlock_wait(t);\n}\n")
        one = ("#include \"sched.h\"\nstatic struct tasklet_struct rx;\n"
               "static void go(struct sched *s, struct tasklet_struct *t)\n{\n"
               "\ttasklet_schedule(&s->tasklet);\n\ttasklet_schedule(t);\n}\n")
        two = ("#include \"sched.h\"\nstatic void stop(struct sched *s, int rx)\n{\n"
               "\tstruct tasklet_struct *t = &s->tasklet;\n\ttasklet_kill(t);\n}\n")
        unit = ["a/one.c", "a/sched.h", "a/two.c"]
        said = shared_sentence(unit, {"a/sched.h": hdr, "a/one.c": one, "a/two.c": two},
                               {f: None for f in unit}, {"a/one.c": "one.o", "a/two.c": "two.o"})
        self.assertIn("share the work item tasklet declared in a/sched.h,", said)
        self.assertNotIn(" t,", said)
        self.assertNotIn("rx", said)


AM_FOO = """\
#include "virt.h"

static void foo_task(struct tasklet_struct *t)
{
	struct foo *f = from_tasklet(f, t, task);

	foo_complete(f);
}

static int foo_probe(struct foo *f)
{
	int ret;

	ret = foo_hw_init(f);
	if (ret)
		goto err;
	foo_a(f);
	foo_b(f);
	foo_c(f);
	tasklet_setup(&f->task, foo_task);
	foo_g(f);
	foo_h(f);
	foo_i(f);
	return 0;
err:
	foo_d(f);
	foo_e(f);
	foo_f(f);
	tasklet_kill(&f->task);
	return ret;
}
"""
AM_VIRT_H = ("/* virtual channels */\n#include <linux/types.h>\n\nstruct virt {\n\tint id;\n"
             "\tstruct tasklet_struct task;\n\tint irq;\n};\n\nvoid virt_init(struct virt *v);\n")


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "M", "GIT_AUTHOR_EMAIL": "m@e.org",
           "GIT_COMMITTER_NAME": "M", "GIT_COMMITTER_EMAIL": "m@e.org"}
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)


class GitMails(unittest.TestCase):
    """The mails are git format-patch's, from scratch commits on the
    pristine files and the kernel's .gitattributes: real index lines (git
    am -3 applies every mail to a tree where one context line of each
    touched file moved, where plain git am does not), hunk headers of
    diff=cpp, and the same bytes twice."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.files = {**FILES, "drivers/dma/foo.c": AM_FOO, "drivers/dma/virt.h": AM_VIRT_H}
        self.kdir, self.out = root / "k", root / "out"
        write_tree(self.kdir, {**self.files, "MAINTAINERS": MAINTAINERS, "Makefile": "VERSION = 6\n",
                               ".gitattributes": "*.[ch] diff=cpp\n",
                               "drivers/dma/Makefile": "obj-y += foo.o bar.o\nobj-y += sub/\n",
                               "drivers/dma/sub/Makefile": "obj-y += baz.o\n"})
        os.utime(self.kdir / "Makefile", (1700000000, 1700000000))
        self.out.mkdir()
        conv = {p: _new(t).replace("tasklet_kill(", "cancel_work_sync(")
                for p, t in self.files.items()}
        groups = [[Outcome(p, Status.CONVERTED, "", [], self.files[p], conv[p]) for p in g]
                  for g in GROUPS]
        write.patch(self.out, groups)
        write.report(self.out, "6.12.0", [o for g in groups for o in g])
        build(self.kdir, self.out)
        self.mails = {d.name: sorted(m for m in d.glob("0*.patch") if "cover-letter" not in m.name)
                      for d in (self.out / "series").iterdir() if d.is_dir()}
        self.conv = conv

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_index_lines_are_the_blobs_and_hunks_use_diff_cpp(self) -> None:
        foo = next(m for ms in self.mails.values() for m in ms if "foo" in m.name).read_text()
        blob = _git(self.kdir, "hash-object", "drivers/dma/foo.c").stdout.strip()
        self.assertIn(f"\nindex {blob[:7]}..", foo)
        # diff=cpp: the function, where git's default names the label err:
        self.assertIn(" @@ static int foo_probe(struct foo *f)\n \tfoo_d(f);\n", foo)
        self.assertNotIn("@@ err:", foo)
        ids = [m.read_text().split()[1] for ms in self.mails.values() for m in ms]
        self.assertEqual(len(set(ids)), len(ids))
        self.assertTrue(all(re.fullmatch(r"[0-9a-f]{40}", i) for i in ids))

    def test_git_am_3_with_a_context_line_moved(self) -> None:
        recv = Path(self.tmp.name) / "recv"
        shutil.copytree(self.kdir, recv)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
            self.assertEqual(_git(recv, *args).returncode, 0)
        moved: dict[str, str] = {}
        for ms in self.mails.values():
            for m in ms:
                for fd in gitdiff.parse(m.read_text()):
                    moved[fd.path] = _move_context_line(recv / fd.path, fd)
        self.assertEqual(sorted(moved), sorted(self.files))
        self.assertEqual(_git(recv, "commit", "-q", "-am", "move one context line").returncode, 0)
        base = _git(recv, "rev-parse", "HEAD").stdout.strip()
        plain_failed = False
        for n, (name, ms) in enumerate(sorted(self.mails.items())):
            _git(recv, "checkout", "-q", "-B", f"plain{n}", base)
            r = _git(recv, "am", *map(str, ms))
            plain_failed |= r.returncode != 0
            _git(recv, "am", "--abort")
            _git(recv, "checkout", "-q", "-f", "-B", f"three{n}", base)
            r = _git(recv, "am", "-3", *map(str, ms))
            self.assertEqual(r.returncode, 0, (name, r.stdout, r.stderr))
            for m in ms:
                for fd in gitdiff.parse(m.read_text()):
                    line = moved[fd.path]
                    want = self.conv[fd.path].replace(line, "", 1) + line
                    self.assertEqual((recv / fd.path).read_text(), want, fd.path)
        self.assertTrue(plain_failed, "the moved lines do not stop a plain git am")


def _move_context_line(path: Path, fd: gitdiff.FileDiff) -> str:
    """Move a context line of fd's first hunk that no changed line
    touches, and that is unique in the file, to the end of the file; the
    line."""
    text = path.read_text()
    hunk = fd.hunks[0][1]
    for i, ln in enumerate(hunk):
        near = hunk[max(i - 1, 0):i + 2]
        if ln.startswith(" ") and ln.strip() and all(x.startswith(" ") for x in near) \
                and text.count(ln[1:]) == 1:
            path.write_text(text.replace(ln[1:], "", 1) + ln[1:])
            return ln[1:]
    raise AssertionError(f"{fd.path}: no context line to move")


IPW_MAINTAINERS = """\
List of maintainers
===================

INTEL PRO/WIRELESS 2100, 2200BG, 2915ABG NETWORK CONNECTION SUPPORT
M:	Ipw Person <ipw@example.org>
L:	linux-wireless@example.org
S:	Maintained
F:	drivers/net/wireless/intel/ipw2x00/
"""
IPW = "drivers/net/wireless/intel/ipw2x00/"
IPW_FILES = {
    IPW + "Makefile": "obj-$(CONFIG_IPW2100) += ipw2100.o\nobj-$(CONFIG_IPW2200) += ipw2200.o\n",
    IPW + "ipw2100.c": _user("ipw2100_priv", "irq_tasklet", "ipw2100.h"),
    IPW + "ipw2200.c": _user("ipw_priv", "irq_tasklet", "ipw2200.h"),
}


class OneSubjectPerMail(unittest.TestCase):
    """Two patches that got one prefix and one driver name (the folder
    ipw2x00/) but are two kbuild modules: each subject names its module,
    so no two mails of the series say the same."""

    def test_named_after_their_modules(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kdir = write_tree(Path(tmp) / "k", {**IPW_FILES, "MAINTAINERS": IPW_MAINTAINERS,
                                                "Makefile": "VERSION = 7\n"})
            os.utime(kdir / "Makefile", (1700000000, 1700000000))
            out = Path(tmp) / "out"
            out.mkdir()
            groups = [[Outcome(p, Status.CONVERTED, "", [], IPW_FILES[p], _new(IPW_FILES[p]))]
                      for p in (IPW + "ipw2100.c", IPW + "ipw2200.c")]
            write.patch(out, groups)
            write.report(out, "7.3.4", [o for g in groups for o in g])
            patches = build(kdir, out)
            self.assertEqual([p.subject for p in patches],
                             ["wifi: ipw2100: Convert from tasklet to BH workqueue",
                              "wifi: ipw2200: Convert from tasklet to BH workqueue"])
            mails = sorted(m for m in (out / "series").glob("*/0*.patch")
                           if not m.name.startswith("0000-"))
            self.assertEqual(len(mails), 2)
            self.assertIn("In ipw2200, the tasklet API is replaced", mails[1].read_text())


RTL_MAINTAINERS = """\
List of maintainers
===================

REALTEK WIRELESS DRIVER (rtlwifi family)
M:	Rtl Person <rtl@example.org>
L:	linux-wireless@example.org
S:	Maintained
F:	drivers/net/wireless/realtek/rtlwifi/
"""
RTL = "drivers/net/wireless/realtek/rtlwifi/"
RTL_FILES = {
    RTL + "Makefile": ("obj-$(CONFIG_RTLWIFI) += rtlwifi.o\nrtlwifi-objs := ps.o\n"
                       "obj-$(CONFIG_RTLWIFI_PCI) += rtl_pci.o\nrtl_pci-objs := pci.o\n"
                       "obj-$(CONFIG_RTLWIFI_USB) += rtl_usb.o\nrtl_usb-objs := usb.o\n"),
    RTL + "pci.c": _user("rtl_pci", "irq_tasklet", "wifi.h"),
    RTL + "ps.c": _user("rtl_priv", "irq_tasklet", "wifi.h"),
    RTL + "usb.c": _user("rtl_usb", "rx_work_tasklet", "usb.h"),
}


class OneSubjectWhenOneSpansModules(unittest.TestCase):
    """rtlwifi/ (sample 46): one patch spans the rtlwifi core and rtl_pci,
    the other is rtl_usb alone; both got 'wifi: rtlwifi', so the series
    carried two mails with one subject. The one that spans modules keeps
    the folder's name, the other adds its module."""

    def test_the_one_module_patch_names_its_module(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kdir = write_tree(Path(tmp) / "k", {**RTL_FILES, "MAINTAINERS": RTL_MAINTAINERS,
                                                "Makefile": "VERSION = 7\n"})
            os.utime(kdir / "Makefile", (1700000000, 1700000000))
            out = Path(tmp) / "out"
            out.mkdir()
            groups = [[Outcome(p, Status.CONVERTED, "", [], RTL_FILES[p], _new(RTL_FILES[p]))
                       for p in g] for g in ((RTL + "pci.c", RTL + "ps.c"), (RTL + "usb.c",))]
            write.patch(out, groups)
            write.report(out, "7.3.4", [o for g in groups for o in g])
            patches = build(kdir, out)
            self.assertEqual(sorted(p.subject for p in patches),
                             ["wifi: rtlwifi: Convert from tasklet to BH workqueue",
                              "wifi: rtlwifi: rtl_usb: Convert from tasklet to BH workqueue"])


ASPEED_MAINTAINERS = """\
List of maintainers
===================

ASPEED CRYPTO DRIVER
M:	Aspeed Person <aspeed@example.org>
L:	linux-crypto@example.org
S:	Maintained
F:	drivers/crypto/aspeed/
"""
ASPEED = "drivers/crypto/aspeed/"
ASPEED_FILES = {
    ASPEED + "Makefile": ("obj-$(CONFIG_A) += aspeed_crypto.o\naspeed_crypto-objs := aspeed-hace.o\n"
                          "obj-$(CONFIG_B) += aspeed_acry.o\naspeed_acry-objs := aspeed-acry.o\n"),
    ASPEED + "aspeed-hace.c": _user("aspeed_hace_dev", "done_task", "aspeed-hace.h"),
    ASPEED + "aspeed-acry.c": _user("aspeed_acry_dev", "done_task", "aspeed-acry.h"),
}


class ModuleNamesAsHistoryHasThem(unittest.TestCase):
    """Two modules of one folder (aspeed_acry, aspeed_crypto): the module
    named after the subsystem (aspeed_crypto) is 'crypto: aspeed' in the
    driver's history, and the subjects still differ."""

    def test_the_subsystems_word_goes(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kdir = write_tree(Path(tmp) / "k", {**ASPEED_FILES, "MAINTAINERS": ASPEED_MAINTAINERS,
                                                "Makefile": "VERSION = 7\n"})
            os.utime(kdir / "Makefile", (1700000000, 1700000000))
            out = Path(tmp) / "out"
            out.mkdir()
            groups = [[Outcome(p, Status.CONVERTED, "", [], ASPEED_FILES[p],
                               _new(ASPEED_FILES[p]))]
                      for p in (ASPEED + "aspeed-acry.c", ASPEED + "aspeed-hace.c")]
            write.patch(out, groups)
            write.report(out, "7.3.4", [o for g in groups for o in g])
            patches = build(kdir, out)
            self.assertEqual(sorted(p.subject for p in patches),
                             ["crypto: aspeed - Convert from tasklet to BH workqueue",
                              "crypto: aspeed_acry - Convert from tasklet to BH workqueue"])


class ShareSentenceLists(unittest.TestCase):
    """Several shared items and headers are listed as a sentence lists
    them ("a, b and c"), not joined by commas alone."""

    def test_and_before_the_last(self) -> None:
        from detasklet.series import plan
        old = {"d/a.h": "struct a {\n\tstruct tasklet_struct irq_t;\n\tstruct tasklet_struct pre_t;\n};\n",
               "d/b.h": "struct b {\n\tstruct tasklet_struct dfs_t;\n};\n",
               "d/x.c": "void x(struct a *a, struct b *b)\n{\n\ttasklet_schedule(&a->irq_t);\n"
                        "\ttasklet_schedule(&a->pre_t);\n\ttasklet_schedule(&b->dfs_t);\n}\n"}
        said = plan.shared_sentence(sorted(old), old, {f: None for f in old}, {})
        self.assertIn("share the work items dfs_t, irq_t and pre_t declared in d/a.h and d/b.h,",
                      " ".join(said.split()))


class CoverWords(unittest.TestCase):
    """What a cover letter says of its part, its counts and the series it
    waits for is true of that part (seed-43 read: part 3 of 3 said other
    parts followed it; each part counted its own files as the tree's; the
    net fixes named mlx5 "core" and our output folders)."""

    def series(self, part: int, parts: int):
        from detasklet.series.trees import Tree
        tree = Tree("net-next", tag="net-next", limit=15, why="netdev takes at most 15.")
        return series.Series(f"net-next-{part}", tree, [], part, parts)

    def test_each_part_says_which_parts_come_before_and_after(self) -> None:
        said = [" ".join(series.part_text(self.series(k, 3)).split()) for k in (1, 2, 3)]
        self.assertTrue(said[0].endswith("is applied; parts 2 and 3 follow this one."), said[0])
        self.assertTrue(said[1].endswith("it comes after part 1, and part 3 follows it."),
                        said[1])
        self.assertTrue(said[2].endswith("is applied; it comes after parts 1 and 2."), said[2])
        self.assertNotIn("followed by", " ".join(said))
        self.assertEqual(series.part_text(self.series(1, 1)), "")

    def test_a_part_counts_the_tree_and_its_own_files_apart(self) -> None:
        from detasklet.series import letter
        self.assertEqual(letter.count_sentence(26, 26, 13, 0, 0, 82),
                         "The tree has 82 files that use the tasklet API; 26 files of them are "
                         "converted in these 13 patches of this part.")
        self.assertEqual(letter.count_sentence(4, 4, 3, 0, 0),
                         "In this tree, 4 files use the tasklet API: 4 are converted in these 3 "
                         "patches.")
        # the core removal is not among the patches that convert a file
        self.assertEqual(letter.count_sentence(1, 1, 1, 0, 6),
                         "In this tree, 1 file uses the tasklet API: 1 is converted in the first "
                         "patch. The last patch removes the tasklet core itself, in 6 files not "
                         "counted among those.")

    def test_the_fixes_cover_names_no_output_folder(self) -> None:
        from detasklet.series import letter
        from detasklet.series.plan import Patch
        from detasklet.series.trees import Tree
        net = Tree("net", tag="net", fixes="net, the netdev tree for fixes")
        ps = [Patch(["drivers/net/a/a.c"], prefix="net: a", name="a", tree=net,
                    driver_prep={"fix": True, "subject": "Fix a"}),
              Patch(["drivers/net/b/b.c"], prefix="net: b", name="b", tree=net,
                    driver_prep={"fix": True, "subject": "Fix b"})]
        from types import SimpleNamespace
        fds = {p.files[0]: SimpleNamespace(path=p.files[0], added=1, removed=1) for p in ps}
        text = " ".join(" ".join(letter.fixes_cover(
            ps, fds, "Who", "", "the net-next tree", ["net-next-1", "net-next-2"])).split())
        self.assertNotIn("series/", text)
        self.assertIn("The conversions of these drivers, sent to the net-next tree in a series "
                      "of 2 parts, apply on top of them", text)

    def test_a_driver_under_a_fixed_row_is_not_named_after_core(self) -> None:
        from detasklet.series import drivers, plan
        fs = ["drivers/net/ethernet/mellanox/mlx5/core/cq.c",
              "drivers/net/ethernet/mellanox/mlx5/core/fpga/conn.c"]
        d = {f: drivers.Driver("drivers/net/ethernet/mellanox/mlx5/core",
                               "drivers/net/ethernet/mellanox/mlx5", "core", "folder",
                               "mlx5_core") for f in fs}
        self.assertEqual(plan.name_patch(fs, d, {f: "" for f in fs}),
                         ("drivers/net/ethernet/mellanox", "mlx5"))

    def test_a_common_name_is_not_cut_inside_a_word(self) -> None:
        from detasklet.series import prefix
        self.assertEqual(prefix.common_name(["xhci-dbgcap", "xhci-dbgtty"]), "xhci")
        self.assertEqual(prefix.common_name(["tegra186-gpc-dma", "tegra20-apb-dma"]), "tegra")
        self.assertEqual(prefix.from_table("drivers/usb/host", "xhci"),
                         ("usb: xhci", ":", "table"))

    def test_a_prep_and_its_conversion_alone_are_not_in_any_order(self) -> None:
        # sample 46: the i915 series (its prep patch and its conversion)
        # said "each patch applies on its own, in any order, except that
        # patch 2 applies on top of patch 1"
        from detasklet.series import letter
        from detasklet.series.plan import Patch
        prep = Patch(["a.c"], name="i915", prefix="drm/i915",
                     driver_prep={"subject": "Keep the lock"})
        ps = [prep, Patch(["a.c", "b.c"], name="i915")]
        said = letter.order_sentence(ps, {})
        self.assertEqual(said, "patch 2 applies on top of patch 1 (drm/i915: Keep the lock), "
                               "which prepares that driver.")
        ps.append(Patch(["c.c"], name="other"))
        self.assertTrue(letter.order_sentence(ps, {}).startswith(
            "each patch applies on its own, in any order, except that patch 2"))

    def test_a_conversion_on_a_fix_of_another_series_is_not_in_any_order(self) -> None:
        # round 43: net-next-2 said "each patch applies on its own, in any
        # order" while its mlx5 patch applies only on top of net's fix
        from detasklet.series import letter
        from detasklet.series.plan import Patch
        fix = Patch(["fpga/conn.c"], name="mlx5", driver_prep={"fix": True, "subject": "Kill"})
        ps = [Patch(["fpga/conn.c", "cq.c"], name="mlx5"), Patch(["x.c"], name="mlxsw")]
        said = letter.order_sentence(ps, {}, [fix], "net")
        self.assertEqual(said, "each patch applies on its own, in any order, except that "
                               "patch 1 (mlx5) applies only on top of the fix sent to net "
                               "named below.")
        self.assertEqual(letter.order_sentence(ps[:1], {}, [fix], "net"),
                         "patch 1 (mlx5) applies only on top of the fix sent to net named "
                         "below.")

    def test_the_conversions_on_fixes_are_listed_with_and(self) -> None:
        from detasklet.series import letter
        from detasklet.series.plan import Patch
        ps = [Patch(["a.c"], name="liquidio"), Patch(["x.c"], name="x"),
              Patch(["b.c"], name="mediatek")]
        fixes = [Patch(["a.c"], name="liquidio", driver_prep={"fix": True, "subject": "Fix a"}),
                 Patch(["b.c"], name="mediatek", driver_prep={"fix": True, "subject": "Fix b"})]
        said = letter.after_sentence(ps, fixes, "net")
        self.assertTrue(said.startswith("The conversions of liquidio (patch 1) and mediatek "
                                        "(patch 3) apply on top of fixes sent to net"), said)
