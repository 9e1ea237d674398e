# SPDX-License-Identifier: GPL-2.0-only
"""convert.facts.scan with PATHS: a header outside PATHS that declares a scanned
user's tasklet comes with it, and a header alone outside PATHS does not;
the header's users outside PATHS that share its work item come too (the
run says so), and one that includes it for something else does not.
The whole tree: tools/ and samples/ are scanned, the host programs'
scripts/ is not, and a Rust file that names the API is not taken for
converted."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from detasklet.convert import pipeline
from detasklet.convert.facts import scan

FILES = {
    "include/linux/foo.h": "struct foo {\n\tstruct tasklet_struct task;\n};\n",
    "include/linux/bar.h": "struct bar {\n\tstruct tasklet_struct task;\n};\n",
    "drivers/foo/foo.c": ("#include <linux/foo.h>\n\nstatic void foo_task(struct tasklet_struct *t)\n"
                          "{\n\tstruct foo *f = from_tasklet(f, t, task);\n}\n\n"
                          "void foo_start(struct foo *f)\n{\n\ttasklet_setup(&f->task, foo_task);\n"
                          "\ttasklet_schedule(&f->task);\n}\n"),
}


class Paths(unittest.TestCase):
    def test_header_outside_paths_comes_with_its_user(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kdir = Path(tmp)
            for p, t in FILES.items():
                (kdir / p).parent.mkdir(parents=True, exist_ok=True)
                (kdir / p).write_text(t)
            outs = [o for g in pipeline.run(kdir, ["drivers/foo"], 1, 60, decs=[]) for o in g]
        self.assertEqual({o.path: o.status for o in outs},
                         {"drivers/foo/foo.c": "converted", "include/linux/foo.h": "converted"})


OTHER_USER = ("#include <linux/foo.h>\n\nvoid other_stop(struct foo *f)\n{\n"
              "\ttasklet_disable(&f->task);\n}\n")
UNRELATED = ("#include <linux/foo.h>\n\nstatic struct tasklet_struct own;\n"
             "static void own_cb(struct tasklet_struct *t)\n{\n}\n"
             "void own_start(void)\n{\n\ttasklet_setup(&own, own_cb);\n"
             "\ttasklet_schedule(&own);\n}\n")


class HeaderUsers(unittest.TestCase):
    def test_the_headers_users_outside_paths_come_and_are_named(self) -> None:
        files = {**FILES, "drivers/other/other.c": OTHER_USER,
                 "drivers/unrelated/unrelated.c": UNRELATED}
        with tempfile.TemporaryDirectory() as tmp:
            kdir = Path(tmp)
            for p, t in files.items():
                (kdir / p).parent.mkdir(parents=True, exist_ok=True)
                (kdir / p).write_text(t)
            with self.assertLogs("detasklet", "INFO") as logs:
                outs = [o for g in pipeline.run(kdir, ["drivers/foo"], 1, 60, decs=[])
                        for o in g]
        self.assertEqual({o.path: o.status for o in outs},
                         {"drivers/foo/foo.c": "converted", "include/linux/foo.h": "converted",
                          "drivers/other/other.c": "converted"})
        self.assertIn("PATHS: drivers/other/other.c and include/linux/foo.h, outside PATHS, "
                      "are converted with drivers/foo/foo.c: they share work items",
                      "\n".join(logs.output))


class WholeTree(unittest.TestCase):
    USE = "static struct tasklet_struct t;\nvoid f(void) { tasklet_schedule(&t); }\n"

    def test_tools_and_samples_are_users_scripts_and_rust_are_not(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kdir = Path(tmp)
            for p in ("tools/testing/selftests/bpf/test_kmods/bpf_testmod.c",
                      "samples/foo/foo.c", "scripts/mod/x.c", "rust/kernel/x.rs"):
                (kdir / p).parent.mkdir(parents=True, exist_ok=True)
                (kdir / p).write_text(self.USE)
            problems: list[tuple[str, str]] = []
            users = [u.path for u in scan.scan_tree(kdir, [], problems)]
        self.assertEqual(users, ["samples/foo/foo.c",
                                 "tools/testing/selftests/bpf/test_kmods/bpf_testmod.c"])
        self.assertEqual([p for p, _ in problems], ["rust/kernel/x.rs"])
        self.assertIn("rules rewrite C only", problems[0][1])


if __name__ == "__main__":
    unittest.main()
