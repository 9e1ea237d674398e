# SPDX-License-Identifier: GPL-2.0-only
"""ctext.preproc and check.reached: a converted file whose objects build but
whose changed lines sit under an #ifdef the config leaves off is not built,
read from real `gcc -E` output; the record, report.md and the mail follow."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.check import compile_test as ct, reached
from detasklet.ctext import preproc
from detasklet.out.builds import Build
from detasklet.series.evidence import build_sentence

OLD = """#include "x.h"
static void f(unsigned long d)
{
}
#ifdef CONFIG_ON
static void g(void)
{
\ttasklet_schedule(&t);
}
#endif
#ifdef CONFIG_OFF
static void h(void)
{
\ttasklet_schedule(&t);
}
#endif
static void setup(void)
{
\tCALL(&t,
\t     f);
}
"""
# Each tasklet line changed: one in the body, one under CONFIG_ON, one under
# CONFIG_OFF, the second line of a macro call that spans two lines.
NEW = (OLD.replace("static void f(unsigned long d)", "static void f(struct work_struct *w)")
       .replace("\ttasklet_schedule(&t);", "\tqueue_work(system_bh_wq, &t);")
       .replace("\t     f);", "\t     f_work);"))
HDR_OLD = "#ifndef X_H\n#define X_H\n#define CALL(a, b) call(a, b)\n#ifdef CONFIG_OFF\nint old;\n#endif\n#endif\n"
HDR_NEW = HDR_OLD.replace("int old;", "int new_off;")


def gcc_e(d: Path, defines: list[str]) -> str:
    return subprocess.run(["gcc", "-E", *[f"-D{x}" for x in defines], str(d / "x.c")],
                          capture_output=True, text=True, check=True).stdout


@unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
class Preprocessed(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)
        (self.d / "x.c").write_text(NEW)
        (self.d / "x.h").write_text(HDR_NEW)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def seen(self, path: str, new: str, old: str, defines: list[str]) -> tuple[list[int], list[int]]:
        changed = preproc.changed_lines(old, new)
        present = preproc.present_lines(gcc_e(self.d, defines), (self.tmp.name,), {path})
        return changed, preproc.compiled(new, changed, present.get(path, set()))

    def test_the_line_under_the_off_ifdef_is_not_compiled(self) -> None:
        lines = NEW.splitlines()
        changed, got = self.seen("x.c", NEW, OLD, ["CONFIG_ON"])
        self.assertEqual([lines[n - 1].strip() for n in changed],
                         ["static void f(struct work_struct *w)", "queue_work(system_bh_wq, &t);",
                          "queue_work(system_bh_wq, &t);", "f_work);"])
        # the CONFIG_OFF one (line 14) is the only one missing; the macro
        # argument on its own line is in a region that is on
        self.assertEqual(sorted(set(changed) - set(got)), [14])
        _, got_both = self.seen("x.c", NEW, OLD, ["CONFIG_ON", "CONFIG_OFF"])
        self.assertEqual(got_both, changed)
        _, got_none = self.seen("x.c", NEW, OLD, [])
        self.assertEqual(sorted(set(changed) - set(got_none)), [8, 14])

    def test_a_header_line_through_its_includer(self) -> None:
        changed, got = self.seen("x.h", HDR_NEW, HDR_OLD, [])
        self.assertEqual(changed, [5])
        self.assertEqual(got, [])
        self.assertEqual(self.seen("x.h", HDR_NEW, HDR_OLD, ["CONFIG_OFF"])[1], [5])

    def test_lines_outside_any_if_need_no_i(self) -> None:
        self.assertEqual(sorted(set(preproc.changed_lines(OLD, NEW))
                                & preproc.conditional_lines(NEW)), [8, 14])


class Record(unittest.TestCase):
    """A file whose objects built but whose changed lines did not is not
    built: in report.json, report.md and the mail."""
    RUN = ct.Run(objects={"d/off.c": ct.ObjResult("x86_64", "skipped", "ok"),
                          "d/part.c": ct.ObjResult("x86_64", "skipped", "ok"),
                          "d/on.c": ct.ObjResult("x86_64", "skipped", "ok")},
                 reach=reached.Reach(changed={"d/off.c": [3, 4], "d/part.c": [3, 9],
                                              "d/on.c": [5]},
                                     seen={"d/part.c": {9}, "d/on.c": {5}}))
    BUILDS = ct.file_builds({f: {f} for f in ("d/off.c", "d/part.c", "d/on.c")}, RUN)

    def test_compiled_out_is_not_built(self) -> None:
        b = {f: Build.of(r) for f, r in self.BUILDS.items()}
        self.assertEqual(self.BUILDS["d/off.c"]["changed_lines"], {"compiled": 0, "of": 2})
        self.assertEqual([f for f, x in b.items() if x.built], ["d/on.c", "d/part.c"])
        self.assertFalse(b["d/off.c"].builds)
        self.assertIn("preprocessor conditions", b["d/off.c"].log)

    def test_report_md_and_the_mail(self) -> None:
        md = "\n".join(ct.md_section(self.BUILDS, self.RUN, ["x86_64"]))
        self.assertIn("2 of 3 converted files built", md)
        self.assertIn("- `d/off.c`: its objects build, but none of its 2 changed lines", md)
        self.assertIn("- `d/part.c`: 1 of 2 lines", md)
        s = build_sentence(["d/off.c", "d/part.c", "d/on.c"], self.BUILDS)
        self.assertIn("2 of the 3 changed files build", s)
        self.assertIn("Not built: d/off.c (its objects build, but none", s)
        self.assertIn("Not every changed line was compiled: 1 of the 2 in d/part.c", s)

    def test_an_object_without_the_changed_lines_goes_to_the_next_arch(self) -> None:
        by_file = {"d/off.c": {"d/off.c"}, "d/on.c": {"d/on.c"}, "d/x.h": {"d/on.c", "d/y.c"}}
        r = reached.Reach(changed={"d/off.c": [3], "d/on.c": [5], "d/x.h": [2]},
                          seen={"d/on.c": {5}})
        self.assertEqual([o for o in ("d/off.c", "d/on.c", "d/y.c") if reached.unseen(r, o, by_file)],
                         ["d/off.c", "d/on.c", "d/y.c"])     # d/on.c and d/y.c: for d/x.h
        r.seen["d/x.h"] = {2}
        self.assertEqual([o for o in ("d/off.c", "d/on.c", "d/y.c") if reached.unseen(r, o, by_file)],
                         ["d/off.c"])


if __name__ == "__main__":
    unittest.main()
