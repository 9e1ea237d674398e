# SPDX-License-Identifier: GPL-2.0-only
"""series.message: the mapping rows and notes follow what each site became."""

import unittest
from pathlib import Path

from detasklet.ctext import gitdiff
from detasklet.series import message
from detasklet.series.evidence import Evidence

ROOT = Path(__file__).resolve().parents[2]
CASE = "disable-in-atomic-decided-sync"


def _site(rep: str) -> dict:
    return {"path": f"{CASE}.c", "line": 42, "function": "ring_tx_timeout",
            "api": "tasklet_disable_in_atomic", "item": "tx_tasklet", "replacement": rep,
            "verdict": "decided", "analysis": f"tests/{CASE}.toml", "why": "Because."}


class InAtomic(unittest.TestCase):
    def setUp(self) -> None:
        old = (ROOT / "tests" / f"{CASE}.c").read_text()
        new = (ROOT / "expected" / f"{CASE}.c").read_text()
        self.files = gitdiff.parse(gitdiff.file_diff(f"{CASE}.c", old, new))

    def _body(self, *reps: str) -> str:
        return message.body("ring", self.files, Evidence({}), sites=[_site(r) for r in reps])

    def test_sync_site_has_the_sync_row_and_note_not_the_loop_note(self) -> None:
        text = self._body("disable_work_sync")
        self.assertIn("tasklet_disable_in_atomic() -> disable_work_sync()\n", text)
        self.assertIn("becomes disable_work_sync() where the", text)
        self.assertNotIn("work_busy()", text)
        self.assertIn("ring_tx_timeout() ->\n  disable_work_sync(): Because.", text)

    def test_loop_site_keeps_the_loop_row_and_note(self) -> None:
        text = self._body("disable_work")
        self.assertIn("tasklet_disable_in_atomic() -> disable_work() and a wait on work_busy()\n",
                      text)
        self.assertIn("disable_work_sync() would not do here", text)
        self.assertNotIn("becomes disable_work_sync() where", text)

    def test_both_kinds_name_both(self) -> None:
        text = self._body("disable_work", "disable_work_sync")
        self.assertIn("disable_work_sync() would not do here", text)
        self.assertIn("becomes disable_work_sync() where", text)



SCHED_OLD = """\
static void tx_irq(struct priv *p)
{
\ttasklet_hi_schedule(&p->tx_task);
}

static void tx_retry(struct priv *p)
{
\ttasklet_schedule(&p->tx_task);
}
"""


def _sched(rep: str, fn: str = "tx_retry") -> dict:
    return {"path": "sched.c", "line": 8, "function": fn, "api": "tasklet_schedule",
            "item": "tx_task", "replacement": rep, "verdict": "decided",
            "analysis": "decisions/sched.toml", "why": "One item, both ways."}


class QueueRows(unittest.TestCase):
    """smc91x: its one tasklet_schedule() was decided onto the highpri
    queue; the mapping must not say it went to system_bh_wq."""

    def _body(self, new: str, sites: list[dict]) -> str:
        files = gitdiff.parse(gitdiff.file_diff("sched.c", SCHED_OLD, new))
        return message.body("sched", files, Evidence({}), sites=sites)

    def test_every_call_decided_names_the_queue_it_went_to(self) -> None:
        new = SCHED_OLD.replace("tasklet_hi_schedule(", "queue_work(system_bh_highpri_wq, "
                                ).replace("tasklet_schedule(", "queue_work(system_bh_highpri_wq, ")
        text = self._body(new, [_sched("system_bh_highpri_wq")])
        self.assertIn("tasklet_schedule() -> queue_work(system_bh_highpri_wq, ...)\n", text)
        self.assertNotIn("system_bh_wq,", text)

    def test_calls_no_site_covers_keep_the_default_queue(self) -> None:
        old2 = SCHED_OLD + "\nstatic void rx(struct priv *p)\n{\n\ttasklet_schedule(&p->rx);\n}\n"
        new = old2.replace("tasklet_hi_schedule(", "queue_work(system_bh_highpri_wq, ").replace(
            "tasklet_schedule(&p->tx", "queue_work(system_bh_highpri_wq, &p->tx").replace(
            "tasklet_schedule(", "queue_work(system_bh_wq, ")
        files = gitdiff.parse(gitdiff.file_diff("sched.c", old2, new))
        text = message.body("sched", files, Evidence({}), sites=[_sched("system_bh_highpri_wq")])
        self.assertIn("tasklet_schedule() -> queue_work(system_bh_highpri_wq, ...)\n"
                      "                        or queue_work(system_bh_wq, ...)", text)


class TwoStructsOneName(unittest.TestCase):
    """Sites of two structs' members of one name (txx9dmac's channel and
    device 'tasklet') with the same reason are two bullets, each saying
    whose; one struct's keep the short form."""

    def kill(self, fn: str, struct: str) -> dict:
        return {"path": "x.c", "line": 1 if "chan" in fn else 2, "function": fn,
                "api": "tasklet_kill", "item": "tasklet", "replacement": "cancel_work_sync",
                "verdict": "exact", "analysis": "teardown", "why": "Gone.", "struct": struct}

    def test_whose_member(self) -> None:
        got = message.site_bullets([self.kill("x_chan_remove", "struct x_chan"),
                                    self.kill("x_remove", "struct x_dev")])
        self.assertEqual(got, [
            "tasklet_kill(tasklet) of struct x_chan in x_chan_remove() -> cancel_work_sync(): "
            "Gone.",
            "tasklet_kill(tasklet) of struct x_dev in x_remove() -> cancel_work_sync(): Gone."])

    def test_one_struct_one_bullet(self) -> None:
        got = message.site_bullets([self.kill("x_chan_remove", "struct x_chan"),
                                    self.kill("x_chan_stop", "struct x_chan")])
        self.assertEqual(got, ["tasklet_kill(tasklet) in x_chan_remove() and x_chan_stop() -> "
                               "cancel_work_sync(): Gone."])

    def test_a_struct_not_read_is_no_second_struct(self) -> None:
        # jme (sample 47): "rxclean_task of struct jme_adapter" beside sites
        # of the same item whose struct was not read
        got = message.site_bullets([self.kill("x_chan_remove", "struct x_chan"),
                                    self.kill("x_chan_stop", "")])
        self.assertEqual(got, ["tasklet_kill(tasklet) in x_chan_remove() and x_chan_stop() -> "
                               "cancel_work_sync(): Gone."])


OLD_C = """\
static void chan_resume(struct chan *c)
{
\t/* The tasklet_enable() below orders the ring reads */
\ttasklet_enable(&c->tasklet);
\t/* kick the tasklet once more */
\ttasklet_schedule(&c->tasklet); /* see tasklet_kill() in remove */
}
"""


class StaleComments(unittest.TestCase):
    def setUp(self) -> None:
        new = (OLD_C.replace("tasklet_enable(&c->tasklet)", "enable_work(&c->tasklet)")
               .replace("tasklet_schedule(&c->tasklet)", "queue_work(system_bh_wq, &c->tasklet)"))
        self.files = gitdiff.parse(gitdiff.file_diff("drivers/x/chan.c", OLD_C, new))

    def test_api_named_in_a_kept_comment_is_quoted(self) -> None:
        quotes, others = message.stale_comments(self.files)
        self.assertEqual(quotes, ['drivers/x/chan.c: "The tasklet_enable() below orders the ring reads"',
                                  'drivers/x/chan.c: "see tasklet_kill() in remove"'])
        self.assertEqual(others, 1)

    def test_the_message_says_so(self) -> None:
        text = message.body("chan", self.files, Evidence({})).replace("\n", " ")
        self.assertIn("name a tasklet call that is gone and need rewording:", text)
        self.assertIn("Comments that speak of the tasklet are left as they are", text)
        self.assertNotIn("tasklet_kill() ->", text)    # named by a comment only

    def test_the_tools_own_comment_does_not_count(self) -> None:
        new = OLD_C.replace("\ttasklet_enable(&c->tasklet);\n",
                            "\t/* as tasklet_unlock_spin_wait() did */\n\tenable_work(&c->tasklet);\n")
        quotes, _ = message.stale_comments(gitdiff.parse(gitdiff.file_diff("c.c", OLD_C, new)))
        self.assertNotIn('c.c: "as tasklet_unlock_spin_wait() did"', quotes)


# A driver patch (cocci/drivers/) removed DECLARE_TASKLET_OLD() and the
# ->state test and added a tasklet_init() the rules then converted.
DP_OLD = """\
static void done(unsigned long data);
DECLARE_TASKLET_OLD(done_tasklet, done);
u32 confirm(struct hcd *h)
{
\tif (!h->task->state)
\t\ttasklet_schedule(h->task);
\treturn 0;
}
"""
DP_NEW = """\
static void done(struct work_struct *work);
u32 confirm(struct hcd *h)
{
\tqueue_work(system_bh_wq, &h->task);
\treturn 0;
}
"""


class Rewritten(unittest.TestCase):
    """The table of a file that a driver patch rewrote before the rules is
    that of the text the rules converted (report.json "keys")."""

    def setUp(self) -> None:
        self.files = gitdiff.parse(gitdiff.file_diff("hcd.c", DP_OLD, DP_NEW))

    def test_rows_of_the_text_the_rules_converted(self) -> None:
        text = message.body("hcd", self.files, Evidence({}),
                            keys={"hcd.c": ["tasklet_init", "tasklet_schedule"]})
        self.assertIn("tasklet_init() -> INIT_WORK()", text)
        self.assertNotIn("DECLARE_TASKLET_OLD", text)

    def test_without_keys_the_removed_lines_say(self) -> None:
        text = message.body("hcd", self.files, Evidence({}))
        self.assertIn("DECLARE_TASKLET_OLD() -> DECLARE_WORK()", text)


CAST_OLD = """static void host_task(void *data)
{
\tstruct host_data *hostdata = (struct host_data *)data;

\thost_poll(hostdata);
}

static int host_init(struct host_data *hostdata)
{
\ttasklet_init(&hostdata->task, (void *)host_task,
\t\t     (unsigned long)hostdata);
\treturn 0;
}
"""
CAST_NEW = """static void host_task(struct work_struct *work)
{
\tstruct host_data *hostdata = from_work(hostdata, work, task);

\thost_poll(hostdata);
}

static int host_init(struct host_data *hostdata)
{
\tINIT_WORK(&hostdata->task, host_task);
\treturn 0;
}
"""


class InitCallbacks(unittest.TestCase):
    """tasklet_init's note follows each callback's own parameter: a void *
    callback passed through a cast (ibmvscsi_task) was called through a
    mismatched function type, and the note says the conversion ends that;
    one unsigned long callback is one ("Callbacks" was plural for one)."""

    def test_a_cast_callback_is_said_to_be_one(self) -> None:
        files = gitdiff.parse(gitdiff.file_diff("host.c", CAST_OLD, CAST_NEW))
        text = " ".join(message.body("host", files, Evidence({})).split())
        self.assertNotIn("took an unsigned long", text)
        self.assertIn("host_task() took a void * and was passed to tasklet_init() through "
                      "a (void *) cast", text)
        self.assertIn("a function type that was not its own", text)

    def test_one_unsigned_long_callback_is_singular(self) -> None:
        old = CAST_OLD.replace("(void *data)", "(unsigned long data)").replace(
            "(void *)host_task", "host_task")
        files = gitdiff.parse(gitdiff.file_diff("host.c", old, CAST_NEW))
        text = " ".join(message.body("host", files, Evidence({})).split())
        self.assertIn("The callback registered with tasklet_init() took an unsigned long "
                      "and now takes the struct work_struct pointer", text)
        self.assertNotIn("Callbacks", text)
        self.assertNotIn("mismatched", text)


KBD_OLD = """static void kbd_bh(struct tasklet_struct *unused);
static DECLARE_TASKLET_DISABLED(keyboard_tasklet, kbd_bh);

static void kbd_start(void)
{
\ttasklet_disable(&keyboard_tasklet);
\ttasklet_enable(&keyboard_tasklet);
}

int kbd_init(void)
{
\ttasklet_enable(&keyboard_tasklet);
\ttasklet_schedule(&keyboard_tasklet);
\treturn 0;
}
"""
KBD_NEW = """static void kbd_bh(struct work_struct *work);
static DECLARE_WORK(keyboard_tasklet, kbd_bh);
static bool kbd_bh_ready;

static void kbd_start(void)
{
\tdisable_work_sync(&keyboard_tasklet);
\tenable_and_queue_work(system_bh_wq, &keyboard_tasklet);
}

int kbd_init(void)
{
\tsmp_store_release(&kbd_bh_ready, true);
\tqueue_work(system_bh_wq, &keyboard_tasklet);
\treturn 0;
}
"""
KBD_ROWS = {"DECLARE_TASKLET_DISABLED": "DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and "
            "kbd_bh_ready", "tasklet_enable": "tasklet_enable() -> setting kbd_bh_ready "
            "(kbd_init())"}


def _kbd_site(api: str, rep: str) -> dict:
    return {"path": "keyboard.c", "line": 7, "function": "kbd_start", "api": api,
            "item": "keyboard_tasklet", "replacement": rep, "verdict": "decided",
            "analysis": "decisions/vt-keyboard.toml", "why": "Because."}


class DriverRows(unittest.TestCase):
    """A file a driver patch rewrote in place: its table lists the API the
    tree had (report.json "keys" of the text the patch starts from), with
    the rows the driver patch states (report.json "mapping"): vt keyboard's
    message said DECLARE_TASKLET() and enable_and_queue_work() alone."""

    def setUp(self) -> None:
        self.files = gitdiff.parse(gitdiff.file_diff("keyboard.c", KBD_OLD, KBD_NEW))
        self.sites = [_kbd_site("tasklet_disable", "disable_work_sync"),
                      _kbd_site("tasklet_enable", "enable_and_queue_work")]
        self.keys = {"keyboard.c": ["struct", "DECLARE_TASKLET_DISABLED", "tasklet_schedule",
                                    "tasklet_disable", "tasklet_enable"]}

    def test_the_rows_of_the_driver_patch(self) -> None:
        text = message.body("keyboard", self.files, Evidence({}), sites=self.sites,
                            keys=self.keys, mapped=KBD_ROWS)
        self.assertIn("  DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and kbd_bh_ready\n", text)
        self.assertNotIn("DECLARE_TASKLET() ->", text)
        self.assertIn("tasklet_enable() -> enable_and_queue_work() or setting kbd_bh_ready "
                      "(kbd_init())", " ".join(text.split()))
        # the generic row's note ("it never held a run back") is not this driver's
        self.assertNotIn("never held a run back", text)

    def test_the_cover_lists_the_rows_of_its_patches(self) -> None:
        from detasklet.series import letter
        kbd = message.patch_rows(self.files, self.sites, self.keys, {}, KBD_ROWS)
        other = [("tasklet_kill", "tasklet_kill() -> cancel_work_sync()"),
                 ("tasklet_enable", "tasklet_enable() -> enable_work()")]
        rows = letter.union_rows([kbd, other])
        self.assertIn("DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and kbd_bh_ready", rows)
        self.assertIn("tasklet_kill() -> cancel_work_sync()", rows)      # not "... per site"
        self.assertIn("tasklet_enable() -> enable_and_queue_work() or enable_work() or "
                      "setting kbd_bh_ready (kbd_init())", rows)
        self.assertFalse([r for r in rows if r.startswith("DECLARE_TASKLET()")])



class KeptComments(unittest.TestCase):
    """A comment outside the hunks that says tasklet is kept too (nfp's
    kernel-doc '@tasklet: ctrl vNIC, tasklet for servicing the r_vec'):
    the message says so, where it said only 'Identifiers ... are kept'."""

    def test_the_files_comments_are_counted(self) -> None:
        from detasklet.ctext.tasklet import kept_tasklet_comments
        old = ("/**\n * @tasklet: ctrl vNIC, tasklet for servicing the r_vec\n */\n"
               "struct v { struct tasklet_struct tasklet; };\n"
               'char *s = "/* tasklet */";\n// the tasklet runs\n')
        new = old.replace("struct tasklet_struct", "struct work_struct").replace(
            "// the tasklet runs", "// the work runs")
        self.assertEqual(kept_tasklet_comments(old, new), 1)

    def test_the_message_says_they_are_kept(self) -> None:
        files = gitdiff.parse(gitdiff.file_diff("host.c", CAST_OLD, CAST_NEW))
        said = "comments that speak of the tasklet are kept"
        self.assertNotIn(said, " ".join(message.body("host", files, Evidence({})).lower().split()))
        text = message.body("host", files, Evidence({}), kept_comments=True)
        self.assertIn("Comments that speak of the tasklet are left as they are", " ".join(text.split()))


if __name__ == "__main__":
    unittest.main()


class DriverPrep(unittest.TestCase):
    def test_each_paragraph_of_the_reason_stays_one(self) -> None:
        prep = {"message": "First  paragraph,\nwrapped.\n\nSecond one."}
        text = message.driver_prep_body(prep, [], Evidence({}))
        self.assertEqual(text, "First paragraph, wrapped.\n\nSecond one.\n")
