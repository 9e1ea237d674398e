# SPDX-License-Identifier: GPL-2.0-only
"""convert.output.tasklet_free: the core-removal patch, on made-up C and on each
reference tree in cache/ (make test unpacks them; a missing one fails)."""

import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.convert.output import tasklet_free as tf
from detasklet.convert.output import tasklet_free_text as tft
from detasklet.ctext.gitdiff import parse
from detasklet.ctext import lex
from detasklet.ctext.comments import named
from detasklet.ctext.tasklet import find_uses
from detasklet.convert.rewrite import comments as rewrite_comments

ROOT = Path(__file__).resolve().parents[2]
TREES = ("7.3", "6.12")

SNIPPET = """\
#include <linux/x.h>

/*
 * Tasklets
 */
struct tasklet_head {
	struct tasklet_struct *head;
};

static DEFINE_PER_CPU(struct tasklet_head, tasklet_vec);

#if defined(CONFIG_SMP)
void tasklet_unlock(struct tasklet_struct *t)
{
	clear_bit(TASKLET_STATE_RUN, &t->state);
}
#else
static inline void tasklet_unlock(struct tasklet_struct *t) { }
#endif

static int keep_me(int a)
{
	if (a) {
		return 1;
	} else {
		return 2;
	}
}
"""


class Drop(unittest.TestCase):
    def test_items_their_comment_the_emptied_if_and_doubled_blanks(self) -> None:
        parts = lex.items(SNIPPET)
        doomed = {k for k, p in enumerate(parts) if p.kind in ("code", "pp") and tf._names(p)}
        self.assertEqual(lex.join(tf.drop(parts, doomed)),
                         "#include <linux/x.h>\n\n" + SNIPPET[SNIPPET.index("static int keep_me"):])

    def test_leftovers_ignore_comments_and_strings(self) -> None:
        self.assertEqual(tf.leftovers('/* tasklet_schedule() */ char *s = "tasklet_kill";\n'), [])

    def test_leftovers_see_any_tasklet_identifier(self) -> None:
        self.assertEqual(tf.leftovers("static void tasklet_foo(void);\n"), ["tasklet_foo"])

    def test_a_file_without_the_core_is_refused(self) -> None:
        with self.assertRaises(tf.CoreError):
            tf.remove_core(tf.TRACE_IRQ_H, "int x;\n")


class _Tree:
    """The patch for one reference tree; subclasses name the tree."""
    version = ""

    @classmethod
    def setUpClass(cls) -> None:
        cls.kdir = ROOT / "cache" / f"linux-source-{cls.version}"
        if not (cls.kdir / "kernel/softirq.c").is_file():
            raise AssertionError(f"no kernel tree at {cls.kdir} (make references)")
        cls.tmp = Path(tempfile.mkdtemp(prefix="detasklet-tf-"))
        cls.text = tf.patch(cls.kdir)
        cls.paths = [fd.path for fd in parse(cls.text)]
        for f in cls.paths:
            (cls.tmp / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cls.kdir / f, cls.tmp / f)
        cls.applied = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch"],
                                     cwd=cls.tmp, input=cls.text, capture_output=True, text=True)
        cls.new = {f: (cls.tmp / f).read_text(errors="surrogateescape") for f in tf.FILES}

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_patch_applies(self) -> None:
        self.assertEqual(self.applied.returncode, 0, self.applied.stdout + self.applied.stderr)

    def test_git_form(self) -> None:
        self.assertTrue(self.text.startswith("diff --git a/include/linux/interrupt.h"))

    def test_no_tasklet_identifier_outside_comments(self) -> None:
        for f in tf.FILES:
            self.assertEqual(tf.leftovers(self.new[f]), [], f)

    def test_lkdtm_crash_point_follows_the_renamed_action(self) -> None:
        lk = (self.tmp / "drivers/misc/lkdtm/core.c").read_text(errors="replace")
        self.assertIn('"bh_workqueue_action"', lk)
        self.assertNotIn('"tasklet_action"', lk)

    def test_workqueue_softirq_action_and_cpu_dead_drain_stay(self) -> None:
        sc = self.new[tf.SOFTIRQ_C]
        for s in ("workqueue_softirq_action(false);", "workqueue_softirq_action(true);",
                  "workqueue_softirq_dead(cpu);", "CPUHP_SOFTIRQ_DEAD"):
            self.assertIn(s, sc)

    def test_actions_registered_and_defined(self) -> None:
        sc = self.new[tf.SOFTIRQ_C]
        reg = dict(re.findall(r"open_softirq\((\w+), (\w+)\);", sc))
        defined = set(re.findall(r"^static __latent_entropy void (\w+)\(void\)$", sc, re.M))
        self.assertEqual(set(reg), {"TASKLET_SOFTIRQ", "HI_SOFTIRQ"})
        self.assertEqual(set(reg.values()), defined)
        body = re.search(r"void bh_workqueue_action\(void\)\n\{\n(.*?)\n\}", sc, re.S)
        self.assertEqual(body.group(1).strip() if body else "", "workqueue_softirq_action(false);")

    def test_interrupt_h_keeps_the_vectors(self) -> None:
        ih = self.new[tf.INTERRUPT_H]
        self.assertIn("TASKLET_SOFTIRQ,", ih)
        self.assertIn("HI_SOFTIRQ=0,", ih)

    def test_if_endif_balance_unchanged(self) -> None:
        def balance(t: str) -> int:
            return t.count("#endif") - len(re.findall(r"^\s*#\s*if", t, re.M))
        for f in tf.FILES:
            old = (self.kdir / f).read_text(errors="replace")
            self.assertEqual(balance(self.new[f]), balance(old), f)

    def test_comments_no_longer_teach_tasklets(self) -> None:
        for f in (tf.INTERRUPT_H, tf.SOFTIRQ_C):
            prose = re.sub(r"\bTASKLET_SOFTIRQ\b|\"TASKLET\"", "", self.new[f])
            self.assertEqual(re.findall(r".*\b[Tt]asklets?\b.*", prose), [], f)

    def test_documentation_names_no_api_function(self) -> None:
        docs = [p for p in self.paths if p.startswith("Documentation/")]
        self.assertIn("Documentation/admin-guide/kernel-per-CPU-kthreads.rst", docs)
        edited = {p: (self.tmp / p).read_text(errors="replace") for p in docs}
        self.assertEqual(tft.doc_leftovers(self.kdir, edited), {})

    def test_comments_of_non_users_no_longer_name_the_api(self) -> None:
        worded = [p for p in self.paths if p in rewrite_comments.TABLE]
        self.assertIn("drivers/net/usb/lan78xx.c", worded)
        self.assertIn("drivers/staging/rtl8723bs/include/osdep_service_linux.h", worded)
        for p in worded:
            old = (self.kdir / p).read_text(errors="surrogateescape")
            new = (self.tmp / p).read_text(errors="surrogateescape")
            self.assertEqual(find_uses(old), [], p)
            self.assertTrue(named(old), p)
            self.assertEqual(named(new), [], p)

    def test_docs_leftover_is_refused(self) -> None:
        with self.assertRaises(tf.CoreError):
            tft.edit("Documentation/x.rst", "calls tasklet_schedule() twice\n",
                     (("calls tasklet_hi_schedule()", "calls queue_work()"),))

    def test_twice_is_refused(self) -> None:
        with self.assertRaises(tf.CoreError):
            tf.remove_core(tf.SOFTIRQ_C, self.new[tf.SOFTIRQ_C])


for _v in TREES:
    _name = "Tree_" + _v.replace(".", "_")
    globals()[_name] = type(_name, (_Tree, unittest.TestCase), {"version": _v})

if __name__ == "__main__":
    unittest.main()


class TreeCheck(unittest.TestCase):
    """detasklet leftovers --tree (make tasklet-free-tree): exit 1 while any
    source file names the API, in code or in a comment or a string (in any
    folder), or a Documentation/ file names one of its functions; 0 once
    none does."""

    def run_on(self, files: dict[str, str]) -> int:
        from contextlib import redirect_stdout
        from io import StringIO
        from detasklet.check import leftovers
        with tempfile.TemporaryDirectory() as t:
            for p, text in files.items():
                (Path(t) / p).parent.mkdir(parents=True, exist_ok=True)
                (Path(t) / p).write_text(text)
            with redirect_stdout(StringIO()):
                return leftovers.main(Path(t), None, None, None, tree=True)

    def test_exit_status(self) -> None:
        clean = {"drivers/a.c": "/* was a tasklet */\nvoid a(void) { }\n",
                 "Documentation/a.rst": "Tasklets ran in softirq context.\n"}
        self.assertEqual(self.run_on(clean), 0)
        for where, text in (("drivers/b.c", "/* before tasklet_schedule() */\n"),
                            ("tools/b.h", "// see tasklet_enable()\n"),
                            ("scripts/b.c", 'char *s = "struct tasklet_struct";\n'),
                            ("rust/b.rs", "/// like tasklet_kill()\n")):
            self.assertEqual(self.run_on({**clean, where: text}), 1, where)
        self.assertEqual(self.run_on({**clean, "tools/b.c": "void b(void) { tasklet_kill(t); }\n"}), 1)
        self.assertEqual(self.run_on({**clean, "Documentation/b.rst": "Call tasklet_schedule().\n"}), 1)
