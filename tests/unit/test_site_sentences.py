# SPDX-License-Identifier: GPL-2.0-only
"""convert.verdicts.sites: the sentence each kill gets says the driver's reason in
the driver's terms: a kill after a disable of its item that waited
(tasklet_disable()) goes, as cancel_work_sync() would do nothing there
(disabled-first); a flush-then-cancel names its
callbacks as a list ("a() and b() never queue ..."), and not the tool's
proof; a teardown helper reached from a probe's unwind and a remove says
both; two structs' members of one name (a channel's and a device's
tasklet) are two items, each with its own callback."""

import unittest

from detasklet.convert.verdicts import sites
from detasklet.convert.verdicts.decisions import Decision
from detasklet.ctext.lex import mask

TWO_CALLBACKS = """\
struct qv { struct tasklet_struct resp; int irq; };
static void core_cb(struct tasklet_struct *t) { struct qv *q = from_tasklet(q, t, resp); }
static void slc_cb(struct tasklet_struct *t) { struct qv *q = from_tasklet(q, t, resp); }
static irqreturn_t isr(int irq, void *d) { struct qv *q = d; tasklet_schedule(&q->resp); return 0; }
int qv_up(struct qv *q, int core)
{
	if (core)
		tasklet_setup(&q->resp, core_cb);
	else
		tasklet_setup(&q->resp, slc_cb);
	return request_irq(q->irq, isr, 0, "qv", q);
}
void qv_down(struct qv *q)
{
	free_irq(q->irq, q);
	tasklet_kill(&q->resp);
}
void qv_off(struct qv *q)
{
	free_irq(q->irq, q);
	tasklet_disable(&q->resp);
	tasklet_kill(&q->resp);
}
"""

PROBE_AND_REMOVE = """\
struct ch { struct tasklet_struct err_task; };
static void ch_err(struct tasklet_struct *t) { struct ch *c = from_tasklet(c, t, err_task); }
static void ch_remove(struct ch *c)
{
	tasklet_kill(&c->err_task);
}
static int dp_probe(struct platform_device *pdev)
{
	struct ch *c = kzalloc(sizeof(*c), GFP_KERNEL);

	tasklet_setup(&c->err_task, ch_err);
	if (setup(c))
		goto err;
	return 0;
err:
	ch_remove(c);
	return -EIO;
}
static void dp_remove(struct platform_device *pdev)
{
	ch_remove(platform_get_drvdata(pdev));
}
static struct platform_driver dp_driver = {
	.probe = dp_probe,
	.remove = dp_remove,
};
"""


def _kills(code: str) -> dict[str, sites.Site]:
    p = sites.plan({"drivers/x/x.c": mask(code)}, [], set())
    assert not p.refusals, p.refusals
    return {s.function: s for s in p.sites if s.api == "tasklet_kill"}


class KillSentences(unittest.TestCase):
    def test_a_teardown_kill_of_two_callbacks_says_them_as_a_list(self) -> None:
        # qtnfmac (sample 46): "waits for a running a(), b() as tasklet_kill()
        # did ...; a(), b() and the functions of the group it calls make no"
        code = TWO_CALLBACKS + ("static void qv_remove(struct platform_device *pdev)\n{\n"
                                "\tstruct qv *q = platform_get_drvdata(pdev);\n\n"
                                "\tfree_irq(q->irq, q);\n\ttasklet_kill(&q->resp);\n}\n"
                                "static struct platform_driver qv_driver = {\n"
                                "\t.remove = qv_remove,\n};\n")
        s = _kills(code)["qv_remove"]
        self.assertEqual((s.replacement, s.analysis), ("cancel_work_sync", "teardown"))
        self.assertIn("waits for a running core_cb() or slc_cb() as tasklet_kill() did", s.why)
        self.assertIn("core_cb(), slc_cb() and the functions they call in this driver wake "
                      "no waiter and complete no request", s.why)

    def test_after_a_disable_the_kill_goes(self) -> None:
        s = _kills(TWO_CALLBACKS)["qv_off"]
        self.assertEqual((s.replacement, s.verdict, s.analysis),
                         ("removed", "exact", "disabled-first"))
        self.assertIn("the tasklet_disable() of resp before it in qv_off() has already "
                      "dropped a pending run, waited for a running one", s.why)

    def test_after_a_disable_nosync_cancel_alone(self) -> None:
        s = _kills(TWO_CALLBACKS.replace("tasklet_disable(", "tasklet_disable_nosync("))["qv_off"]
        self.assertEqual((s.replacement, s.analysis), ("cancel_work_sync", "disabled-first"))
        self.assertIn("cancel_work_sync() has at most a running callback to wait for", s.why)

    def test_flush_then_cancel_lists_its_callbacks(self) -> None:
        s = _kills(TWO_CALLBACKS)["qv_down"]
        self.assertEqual(s.replacement, "flush_work")
        self.assertIn("a pending run of core_cb() and slc_cb() happen", s.why)
        self.assertIn("core_cb() and slc_cb() never queue resp themselves", s.why)
        self.assertNotIn("proven", s.why)       # the tool's proof is not the driver's reason
        # the driver's terms, not the tool's "group"; isr() is freed before
        # the kill, so nothing queues resp after flush_work(): no cancel
        # (three maintainers' reads asked to drop one that does nothing)
        self.assertIn("nor do the functions they call in this driver", s.why)
        self.assertNotIn("group", s.why)
        self.assertNotIn("waits for a running one", s.why)
        self.assertTrue(s.why.endswith("so nothing queues it again after flush_work(), and no "
                                       "cancel_work_sync() is needed"), s.why)

    def test_probe_unwind_and_remove(self) -> None:
        s = _kills(PROBE_AND_REMOVE)["ch_remove"]
        self.assertEqual((s.replacement, s.analysis), ("cancel_work_sync", "teardown"))
        # per caller, what it is and when it calls, in plain words (omap_ssi:
        # "called only from ssi_probe() ...; ssi_remove() ...: each of those ...,
        # or undoes a start callback's own set-up" read as "only from the probe")
        self.assertTrue(s.why.startswith(
            "ch_remove() is called from two functions only: dp_probe(), registered as .probe "
            "of dp_driver (struct platform_driver), on its error path, to undo its own set-up "
            "when a later step fails; and dp_remove(), registered as .remove of dp_driver "
            "(struct platform_driver), when the device is unbound. cancel_work_sync() waits"),
            s.why)
        self.assertNotIn("only from dp_probe()", s.why)
        self.assertNotIn("start callback", s.why)
        self.assertNotIn("each of those", s.why)

    def test_one_caller_is_not_each_of_those(self) -> None:
        code = PROBE_AND_REMOVE.replace("\tch_remove(c);\n\treturn -EIO;", "\treturn -EIO;")
        s = _kills(code)["ch_remove"]
        self.assertEqual((s.replacement, s.analysis), ("cancel_work_sync", "teardown"))
        self.assertTrue(s.why.startswith(
            "ch_remove() is called only from dp_remove(), registered as .remove of dp_driver "
            "(struct platform_driver), when the device is unbound. cancel_work_sync()"), s.why)


PAIRS = """\
struct mt { struct tasklet_struct pre; };
static void pre_cb(struct tasklet_struct *t) { struct mt *m = from_tasklet(m, t, pre); }
void mt_init(struct mt *m) { tasklet_setup(&m->pre, pre_cb); }
void mt_chan(struct mt *m) { tasklet_disable(&m->pre); tasklet_enable(&m->pre); }
void mt_reset(struct mt *m) { tasklet_disable(&m->pre); tasklet_enable(&m->pre); }
void mt_beacon(struct mt *m) { tasklet_disable(&m->pre); tasklet_enable(&m->pre); }
"""


class DisableSentences(unittest.TestCase):
    def test_enables_listed_with_and(self) -> None:
        decs = [Decision("drivers/x/x.c", fn, "tasklet_enable", "pre", "enable_work",
                         "a pre-TBTT run lost costs one beacon", "decisions/x.toml")
                for fn in ("mt_chan", "mt_reset", "mt_beacon")]
        p = sites.plan({"drivers/x/x.c": mask(PAIRS)}, decs, set())
        why = next(s.why for s in p.sites if s.api == "tasklet_disable")
        self.assertIn("enable_work() in mt_beacon(), mt_chan() and mt_reset() does not queue "
                      "it again; why losing that run is safe is said with those "
                      "enable_work() calls", why)


TWO_STRUCTS = """\
struct xc { struct tasklet_struct tasklet; struct completion done; };
struct xd { struct tasklet_struct tasklet; struct xc *chan[2]; };
static void xc_tasklet(struct tasklet_struct *t)
{
	struct xc *c = from_tasklet(c, t, tasklet);

	complete(&c->done);
}
static void xd_tasklet(struct tasklet_struct *t)
{
	struct xd *d = from_tasklet(d, t, tasklet);

	d->chan[0] = NULL;
}
static int xc_probe(struct platform_device *pdev)
{
	struct xc *c = kzalloc(sizeof(*c), GFP_KERNEL);

	tasklet_setup(&c->tasklet, xc_tasklet);
	return 0;
}
static void xc_remove(struct platform_device *pdev)
{
	struct xc *c = platform_get_drvdata(pdev);

	tasklet_kill(&c->tasklet);
}
static int xd_probe(struct platform_device *pdev)
{
	struct xd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	tasklet_setup(&d->tasklet, xd_tasklet);
	return 0;
}
static void xd_remove(struct platform_device *pdev)
{
	struct xd *d = platform_get_drvdata(pdev);

	tasklet_kill(&d->tasklet);
}
static struct platform_driver xc_driver = {
	.probe = xc_probe,
	.remove = xc_remove,
};
static struct platform_driver xd_driver = {
	.probe = xd_probe,
	.remove = xd_remove,
};
"""


class TwoStructs(unittest.TestCase):
    def test_each_kill_reads_its_own_structs_callback(self) -> None:
        k = _kills(TWO_STRUCTS)
        chan, dev = k["xc_remove"], k["xd_remove"]
        self.assertEqual((chan.replacement, chan.analysis), ("flush_work", "teardown-flush"))
        self.assertIn("pending run of xc_tasklet() can complete work", chan.why)
        self.assertNotIn("waits for a running one", chan.why)
        self.assertIn("xc_tasklet() never queues tasklet itself, nor do the functions it "
                      "calls in this driver", chan.why)
        self.assertIn("and the functions it calls in this driver wake no waiter", dev.why)
        self.assertNotIn("xd_tasklet", chan.why)
        self.assertEqual((dev.replacement, dev.analysis), ("cancel_work_sync", "teardown"))
        self.assertIn("waits for a running xd_tasklet() as tasklet_kill() did", dev.why)
        self.assertNotIn("xc_tasklet", dev.why)
        self.assertEqual((chan.struct, dev.struct), ("struct xc", "struct xd"))

    def test_one_struct_keeps_every_callback(self) -> None:
        s = _kills(TWO_CALLBACKS)["qv_down"]
        self.assertIn("core_cb() and slc_cb()", s.why)


if __name__ == "__main__":
    unittest.main()
