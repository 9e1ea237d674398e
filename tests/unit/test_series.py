"""series: drivers, subjects and the mail files, on a fixture tree with its
own MAINTAINERS and Makefiles (no get_maintainer.pl: To/Cc stay empty);
one driver's patch is compared byte for byte with tests/data/0002-foo.patch
(DETASKLET_UPDATE_GOLDEN=1 writes it)."""

import logging
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from detasklet.convert import write
from detasklet.convert.classify import Outcome
from detasklet.ctext import gitdiff
from detasklet.out.files import Status
from detasklet.series import write as series
from detasklet.series.identity import Ident

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
        if os.environ.get("DETASKLET_UPDATE_GOLDEN"):
            (DATA / "0002-foo.patch").write_text(text)
        self.assertEqual(text, (DATA / "0002-foo.patch").read_text())

    def test_patches_together_are_all_patch(self) -> None:
        sdir = self.out / "series"
        together = "".join(fd.text for n in sorted(sdir.glob("*/0*.patch"))
                           if "cover-letter" not in n.name
                           for fd in gitdiff.parse(n.read_text()))
        allp = (self.out / "all.patch").read_text()
        self.assertEqual(sorted(together.split("diff --git")), sorted(allp.split("diff --git")))

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


if __name__ == "__main__":
    unittest.main()
