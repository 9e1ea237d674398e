#!/usr/bin/env python3
"""Tests of the series: diffs, layout, drivers, prefixes, determinism.

A fixture tree is made in a temporary folder (its own MAINTAINERS and
Makefiles, no get_maintainer.pl, so To/Cc stay empty); the patch of one
driver is compared byte for byte with tests/series-data/. One line per
case, then 'N passed, N failed'.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from detasklet import gitdiff, maintainers, owners, prefix, report, series, style  # noqa: E402
from detasklet.classify import Outcome  # noqa: E402

DATA = ROOT / "tests" / "series-data"

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


def _new(text: str) -> str:
    for a, b in (("struct tasklet_struct", "struct work_struct"),
                 ("from_tasklet", "from_work"), ("tasklet_setup", "INIT_WORK"),
                 ("tasklet_schedule(", "queue_work(system_bh_wq, ")):
        text = text.replace(a, b)
    return text


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
    groups = [[Outcome(p, "converted", "", [], FILES[p], _new(FILES[p])) for p in g]
              for g in GROUPS]
    series.write(out, groups)
    report.write(out, "6.12.0", [o for g in groups for o in g])
    return kdir, out


def build(kdir: Path, out: Path) -> list[series.Patch]:
    ident = series.Ident("A U Thor <author@example.org>", 1700000000)
    return series.build(kdir, out, ident, 1, "out")


def case_gitdiff_roundtrip() -> str:
    old = "int a;\n\nvoid f(void)\n{\n\tx();\n}\n"
    new = old.replace("x()", "y()")
    d = gitdiff.file_diff("a.c", old, new)
    if "@@ -2,5 +2,5 @@ int a;\n" not in d or not d.startswith("diff --git a/a.c b/a.c\n"):
        return "unexpected header:\n" + d
    fd = gitdiff.parse(d)[0]
    return "" if gitdiff.apply(old, fd) == new and (fd.added, fd.removed) == (1, 1) else \
        "round trip failed"


def case_tidy_realign() -> str:
    old = "\ttasklet_init(&p->t, cb,\n\t\t     (unsigned long)p);\n"
    new = "\tINIT_WORK(&p->t, cb,\n\t\t     (unsigned long)p);\n"
    want = "\tINIT_WORK(&p->t, cb,\n\t\t  (unsigned long)p);\n"
    got = style.tidy(old, new)
    return "" if got == want else f"got {got!r}"


def case_tidy_indent_and_fnptr() -> str:
    old = "        struct tasklet_struct t;\n\tvoid (*cb) (unsigned long d);\n"
    new = "        struct work_struct t;\n\tvoid (*cb) (struct work_struct *work);\n"
    want = "\tstruct work_struct t;\n\tvoid (*cb)(struct work_struct *work);\n"
    got = style.tidy(old, new)
    return "" if got == want else f"got {got!r}"


def case_tidy_wrap() -> str:
    line = "\t\t\tqueue_work(system_bh_highpri_wq, &some->very_long_structure_name[index].member_field_tasklet);\n"
    got = style.tidy("\t\t\tx;\n", line)
    parts = got.splitlines()
    if len(parts) != 2 or max(style.width(p) for p in parts) > 100:
        return f"not wrapped: {got!r}"
    if style.width(style.indent_of(parts[1])) != style.width("\t\t\tqueue_work("):
        return f"continuation not aligned: {got!r}"
    return "" if style.tidy("\t\t\tx;\n", got) == got else "not idempotent"


def case_tidy_only_changed_lines() -> str:
    old = "        int keep;\n\ttasklet_schedule(&t);\n"
    new = "        int keep;\n\tqueue_work(system_bh_wq, &t);\n"
    return "" if style.tidy(old, new) == new else "touched an unchanged line"


def case_tidy_four_space_file() -> str:
    # fore200e indents by 4 spaces: a changed line gets one tab per level
    # (checkpatch LEADING_SPACE), the unchanged lines stay as they are.
    old = "{\n    int a;\n    tasklet_schedule(&t);\n    if (a)\n        tasklet_kill(&t);\n}\n"
    new = "{\n    int a;\n    queue_work(system_bh_wq, &t);\n    if (a)\n        cancel_work_sync(&t);\n}\n"
    want = "{\n    int a;\n\tqueue_work(system_bh_wq, &t);\n    if (a)\n\t\tcancel_work_sync(&t);\n}\n"
    got = style.tidy(old, new)
    return "" if got == want else f"got {got!r}"


def case_get_maintainer_order_is_stable() -> str:
    # get_maintainer.pl lists people in Perl hash order; unseeded, six runs
    # on ibmvnic's patch gave two orders. make test unpacks the tree first.
    kdir = ROOT / "cache" / "linux-source-6.12"
    if not (kdir / "scripts/get_maintainer.pl").is_file():
        return f"no reference tree at {kdir}"
    patch = "".join(f"--- a/{f}\n+++ b/{f}\n@@ -1,1 +1,1 @@\n-x\n+y\n" for f in
                    ("drivers/net/ethernet/ibm/ibmvnic.c", "drivers/net/ethernet/ibm/ibmvnic.h"))
    answers = {str(maintainers.recipients(kdir, patch)) for _ in range(6)}
    return "" if len(answers) == 1 else f"{len(answers)} different To/Cc orders in 6 runs"


def case_maintainers_owner() -> str:
    idx = maintainers.Index(maintainers.parse(MAINTAINERS))
    o = idx.owner("drivers/dma/foo.c")
    if not o or o[1].name != "FOO DMA DRIVER":
        return f"foo.c owner {o}"
    o = idx.owner("drivers/dma/sub/baz.c")
    if not o or o[1].name != "DMA GENERIC OFFLOAD ENGINE SUBSYSTEM":
        return f"baz.c owner {o}"
    return "" if idx.has_sub_entries("drivers/dma") and \
        not idx.has_sub_entries("drivers/net/wireless/ath/ath9k") else "sub entries"


def case_kbuild_modules() -> str:
    m = owners.kbuild_modules("dasd_mod-objs := dasd.o dasd_ioctl.o \\\n\tdasd_proc.o\n"
                              "obj-$(CONFIG_DASD) += dasd_mod.o\nobj-y += other.o\n")
    want = {"dasd": "dasd_mod", "dasd_ioctl": "dasd_mod", "dasd_proc": "dasd_mod",
            "dasd_mod": "dasd_mod", "other": "other"}
    return "" if m == want else f"got {m}"


def case_prefix_table() -> str:
    want = {("drivers/dma", "at_hdmac"): ("dmaengine: at_hdmac", ":"),
            ("drivers/dma/qcom", "bam_dma"): ("dmaengine: qcom: bam_dma", ":"),
            ("drivers/dma", "dma-axi-dmac"): ("dmaengine: axi-dmac", ":"),
            ("drivers/crypto", "ccp"): ("crypto: ccp", " -"),
            ("drivers/net/wireless/ath", "ath9k"): ("wifi: ath9k", ":"),
            ("drivers/infiniband/hw", "hfi1"): ("RDMA/hfi1", ":"),
            ("net", "mac80211"): ("wifi: mac80211", ":"),
            ("drivers/unknown", "thing"): ("unknown: thing", ":")}
    for (where, name), (p, sep) in want.items():
        got = prefix.from_table(where, name)
        if got[:2] != (p, sep):
            return f"{where}/{name}: {got}"
    subj = prefix.prefix_of_subject("[PATCH v2 3/7] crypto: ccp - Fix a leak")
    subj2 = prefix.prefix_of_subject("dmaengine: at_hdmac: Fix x: y")
    return "" if subj == ("crypto: ccp", " -") and subj2 == ("dmaengine: at_hdmac: Fix x", ":") \
        else f"history prefixes: {subj} {subj2}"


def case_prefix_history() -> str:
    """In a git checkout the most frequent prefix of the file's history wins."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
    with tempfile.TemporaryDirectory() as d:
        def git(*a: str) -> None:
            subprocess.run(["git", "-C", d, *a], env=env, check=True, capture_output=True)
        git("init", "-q")
        for n, subj in enumerate(["dmaengine: foo: Fix a", "dmaengine: Fix b",
                                  "dmaengine: foo: Fix c", "Merge branch x"]):
            Path(d, "foo.c").write_text(f"int a{n};\n")
            git("add", "foo.c")
            git("commit", "-q", "-m", subj)
        got = prefix.from_history(Path(d), ["foo.c"])
    return "" if got == ("dmaengine: foo", ":") else f"got {got}"


def case_split_and_golden() -> str:
    with tempfile.TemporaryDirectory() as d:
        kdir, out = fixture(Path(d))
        patches = build(kdir, out)
        subjects = [p.subject.split(":")[0:2] for p in patches]
        files = [p.files for p in patches]
        if files != [["drivers/dma/bar.c", "drivers/dma/sub/baz.c", "drivers/dma/virt.h"],
                     ["drivers/dma/foo.c"], ["drivers/net/wireless/ath/ath9k/main.c"]]:
            return f"patches: {files}"
        got = [p.subject for p in patches]
        want = ["dmaengine: virt: Convert from tasklet to BH workqueue",
                "dmaengine: foo: Convert from tasklet to BH workqueue",
                "wifi: ath9k: Convert from tasklet to BH workqueue"]
        if got != want:
            return f"subjects {got} ({subjects})"
        sdir = out / "series"
        names = sorted(p.name for p in sdir.iterdir())
        if len(names) != 4 or names[0] != "0000-cover-letter.patch":
            return f"files {names}"
        text = (sdir / names[2]).read_text()
        golden = DATA / "0002-foo.patch"
        if os.environ.get("DETASKLET_UPDATE_GOLDEN"):
            golden.write_text(text)
        if text != golden.read_text():
            return "0002 differs from tests/series-data/0002-foo.patch"
        together = "".join(fd.text for n in names[1:]
                           for fd in gitdiff.parse((sdir / n).read_text()))
        allp = (out / "all.patch").read_text()
        if sorted(together.split("diff --git")) != sorted(allp.split("diff --git")):
            return "series != all.patch"
    return ""


def case_deterministic() -> str:
    """Two runs on the same paths write the same bytes (and series/ made
    again in the same OUT too)."""
    runs = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(2):
            shutil.rmtree(Path(d, "run"), ignore_errors=True)
            kdir, out = fixture(Path(d, "run"))
            build(kdir, out)
            runs.append({p.name: p.read_bytes() for p in sorted((out / "series").iterdir())})
        build(kdir, out)
        runs.append({p.name: p.read_bytes() for p in sorted((out / "series").iterdir())})
    return "" if runs[0] == runs[1] == runs[2] else "two runs differ"


def main() -> int:
    cases = [(n[5:].replace("_", "-"), f) for n, f in sorted(globals().items())
             if n.startswith("case_")]
    passed = failed = 0
    for name, fn in cases:
        try:
            err = fn()
        except Exception as e:  # a crash is a failure of that case
            err = f"{type(e).__name__}: {e}"
        if err:
            failed += 1
            print(f"FAIL series-{name}: {err}")
        else:
            passed += 1
            print(f"ok   series-{name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
