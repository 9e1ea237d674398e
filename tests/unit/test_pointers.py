# SPDX-License-Identifier: GPL-2.0-only
"""ctext.pointers: the calls through a function pointer a body makes, and
the functions stored into a member; and the kill reach that follows them
(convert.verdicts.analyses): a pointer the group sets is followed, one it
never sets makes the reach incomplete."""

from __future__ import annotations

import unittest

from detasklet.convert.verdicts import analyses, outside
from detasklet.ctext import pointers as pt
from detasklet.ctext.lex import mask


class PointerCalls(unittest.TestCase):
    def test_member_calls(self) -> None:
        body = ("{\n\tstruct foo_engine *e = from_tasklet(e, t, bh);\n"
                "\te->sched->submit_fn(e);\n\tops.handler(x);\n\tq[i].ops->done(q);\n}\n")
        self.assertEqual(pt.pointer_calls(body), [
            ("submit_fn", "e->sched->submit_fn"), ("handler", "ops.handler"),
            ("done", "q[i].ops->done")])

    def test_dereferenced_pointer(self) -> None:
        self.assertEqual(pt.pointer_calls("{ (*p->fn)(x); (* cb) (1); }"),
                         [("fn", "(*p->fn)"), ("cb", "(*cb)")])

    def test_a_cast_object_keeps_the_member(self) -> None:
        self.assertEqual(pt.pointer_calls("{ return ((struct a *)p)->m(2); }"),
                         [("m", "->m")])

    def test_not_pointer_calls(self) -> None:
        # direct calls, a member read, a condition followed by a cast call
        body = "{ foo(x); y = a->b; if (a->flag) (void)bar(); sizeof(x->m); }"
        self.assertEqual(pt.pointer_calls(body), [])

    def test_in_a_comment_or_string_after_mask(self) -> None:
        body = mask('{ /* ops->handler(x) */ pr_info("e->fn(x)"); }')
        self.assertEqual(pt.pointer_calls(body), [])


class Assigned(unittest.TestCase):
    def test_initialiser_and_assignments(self) -> None:
        code = ("static const struct foo_ops ops = {\n\t.handler = foo_handler,\n"
                "\t.done = &foo_done,\n\t.map = (void *)foo_map\n};\n"
                "void f(struct e *e, struct q q) { e->submit_fn = foo_submit; "
                "q.cb = foo_cb; p = foo_p; }\n")
        self.assertEqual(pt.assigned(code), {
            "handler": {"foo_handler"}, "done": {"foo_done"}, "map": {"foo_map"},
            "submit_fn": {"foo_submit"}, "cb": {"foo_cb"}, "p": {"foo_p"}})

    def test_not_assignments(self) -> None:
        code = ("void f(void) { if (e->fn == foo) x; if (a <= b) y; e->fn = foo(1); "
                "e->fn = NULL; e->n = 0; }\n")
        self.assertEqual(pt.assigned(code), {})


GROUP = """\
struct foo_engine {
	struct tasklet_struct bh;
	void (*submit_fn)(struct foo_engine *e);
	const struct foo_ops *ops;
};

static void foo_submit(struct foo_engine *e)
{
	tasklet_schedule(&e->bh);
}

static void foo_bh(struct tasklet_struct *t)
{
	struct foo_engine *e = from_tasklet(e, t, bh);

	e->submit_fn(e);
}

static void foo_setup(struct foo_engine *e)
{
	e->submit_fn = foo_submit;
	tasklet_setup(&e->bh, foo_bh);
}
"""


class Reach(unittest.TestCase):
    def test_follows_a_member_the_group_sets(self) -> None:
        f = analyses.facts_of({"foo.c": mask(GROUP)})
        self.assertEqual(analyses.requeues_itself("bh", f), "foo_bh")
        self.assertEqual(analyses.unresolved("bh", f), "")
        self.assertEqual(analyses.through_pointers("bh", f), [
            "e->submit_fn(), where the driver stores foo_submit() in the submit_fn of its struct foo_engine objects"])

    def test_a_member_never_set_is_unresolved(self) -> None:
        code = GROUP.replace("\te->submit_fn = foo_submit;\n", "").replace(
            "e->submit_fn(e);", "e->ops->complete_fn(e);")
        f = analyses.facts_of({"foo.c": mask(code)})
        self.assertEqual(analyses.requeues_itself("bh", f), "")
        self.assertEqual(analyses.unresolved("bh", f), "e->ops->complete_fn() in foo_bh()")

    def test_a_member_also_set_to_a_parameter_is_unresolved(self) -> None:
        # a registration function stores its caller's callback: the group
        # cannot say what runs, though it also stores foo_submit there
        code = GROUP + ("void foo_set(struct foo_engine *e, void (*fn)(struct foo_engine *))\n"
                        "{\n\te->submit_fn = fn;\n}\n")
        f = analyses.facts_of({"foo.c": mask(code)})
        self.assertEqual(analyses.requeues_itself("bh", f), "foo_bh")
        self.assertEqual(analyses.unresolved("bh", f), "e->submit_fn() in foo_bh()")

    def test_the_kill_sentence_says_what_an_unfollowed_call_could_drop(self) -> None:
        # the maintainer's question: what cancel_work_sync() could drop; not
        # a note that the tool did not read something
        from detasklet.convert.verdicts import kills
        from detasklet.convert.verdicts.sites import Site
        code = GROUP.replace("\te->submit_fn = foo_submit;\n", "").replace(
            "e->submit_fn(e);", "e->ops->complete_fn(e);") + (
            "static void foo_pause(struct foo_engine *e)\n{\n\ttasklet_kill(&e->bh);\n}\n")
        f = analyses.facts_of({"foo.c": mask(code)})
        s = Site("foo.c", 30, "foo_pause", "tasklet_kill", "&e->bh", "bh")
        self.assertEqual(kills.kill(s, f), "")
        # nothing can queue bh after the flush: flush_work() alone
        self.assertEqual((s.replacement, s.verdict), ("flush_work", "exact"))
        # and why that code cannot queue bh again (convert.verdicts.outside):
        # the one function that queues it is static and its address goes nowhere
        self.assertTrue(s.why.endswith(
            "nor do the functions it calls in this driver; the other function queueing it "
            "cannot run at the kill: foo_submit() (static, never called: no call names it and "
            "its address is never taken); nor can e->ops->complete_fn() in foo_bh() (a call "
            "through a pointer): the bh member of struct foo_engine is named in no other "
            "file, and the one function here that queues it (foo_submit()) is static and "
            "its address is taken nowhere, so nothing queues it again after flush_work(), and no cancel_work_sync() is "
            "needed"), s.why)
        # said as the driver's reason, not as the tool's proof (sample 46:
        # "(a file that does is among these)", "not by a call")
        self.assertNotIn("among these", s.why)
        self.assertNotIn("not read", s.why)

    def test_a_teardown_flush_gives_the_completion_not_the_callers(self) -> None:
        # megaraid_fini_mbox(): its callers (.remove, and .probe's unwind) were
        # listed with no reason; the completion alone makes the choice
        from detasklet.convert.verdicts import kills
        from detasklet.convert.verdicts.sites import Site
        code = GROUP.replace("\te->submit_fn = foo_submit;\n", "").replace(
            "e->submit_fn(e);", "complete(&e->done);") + (
            "static void foo_remove(struct platform_device *pdev)\n{\n"
            "\tstruct foo_engine *e = platform_get_drvdata(pdev);\n\n"
            "\tfree_irq(e->irq, e);\n\ttasklet_kill(&e->bh);\n}\n\n"
            "static struct platform_driver foo_driver = {\n\t.remove = foo_remove,\n};\n")
        f = analyses.facts_of({"foo.c": mask(code)})
        line = code[:code.index("tasklet_kill(")].count("\n") + 1
        s = Site("foo.c", line, "foo_remove", "tasklet_kill", "&e->bh", "bh")
        self.assertEqual(kills.kill(s, f), "")
        self.assertEqual((s.replacement, s.analysis), ("flush_work", "teardown-flush"))
        self.assertTrue(s.why.startswith(
            "free_irq() comes before it, and a pending run of foo_bh() can complete work a "
            "caller waits for (complete()): flush_work() lets it run"), s.why)
        self.assertNotIn("registered", s.why)


class AddressTaken(unittest.TestCase):
    CODE = ("static irqreturn_t foo_irq(int irq, void *d);\n"
            "static const struct foo_ops ops = {\n\t.start = foo_start,\n};\n"
            "int foo_probe(struct foo *f)\n{\n"
            "\tfoo_start(f);\n"
            "\terr = request_irq(f->irq, foo_irq, 0, \"foo\", f);\n"
            "\tf->done = &foo_start;\n"
            "\tif (f->cb == foo_start)\n\t\treturn 0;\n"
            "\tfoo_register(f, (void *)foo_start);\n"
            "\treturn 0;\n}\nEXPORT_SYMBOL_GPL(foo_probe);\n")

    def test_where_the_address_goes(self) -> None:
        code = mask(self.CODE)
        self.assertEqual(pt.address_taken(code, "foo_start"), [
            "stored in start", "stored in done", "named", "passed to foo_register()"])
        self.assertEqual(pt.address_taken(code, "foo_irq"), ["passed to request_irq()"])

    def test_calls_prototypes_and_exports_take_no_address(self) -> None:
        code = mask(self.CODE)
        self.assertEqual(pt.address_taken(code, "foo_probe"), [])
        self.assertEqual(pt.exported(code), {"foo_probe"})


QUEUED = """struct foo {
	struct tasklet_struct bh;
	void (*notify)(struct foo *f);
};

static void foo_kick(struct foo *f)
{
	tasklet_schedule(&f->bh);
}

static irqreturn_t foo_irq(int irq, void *d)
{
	foo_kick(d);
	return IRQ_HANDLED;
}

static void foo_bh(struct tasklet_struct *t)
{
	struct foo *f = from_tasklet(f, t, bh);

	f->notify(f);
}

static int foo_probe(struct foo *f)
{
	tasklet_setup(&f->bh, foo_bh);
	return request_irq(f->irq, foo_irq, 0, "foo", f);
}
"""


class Outside(unittest.TestCase):
    def test_queued_only_from_an_interrupt(self) -> None:
        f = analyses.facts_of({"foo.c": mask(QUEUED)})
        self.assertEqual(outside.queuers("bh", f), {"foo_kick": "foo_kick", "foo_irq": "foo_kick"})
        self.assertEqual(outside.entries("bh", f), [])

    def test_a_caller_exported(self) -> None:
        code = QUEUED + "void foo_poke(struct foo *f)\n{\n\tfoo_irq(0, f);\n}\nEXPORT_SYMBOL(foo_poke);\n"
        f = analyses.facts_of({"foo.c": mask(code)})
        self.assertEqual(outside.entries("bh", f),
                         [outside.Entry("foo_poke", "exported", "foo_kick")])

    def test_an_address_in_an_ops_table_or_a_header(self) -> None:
        code = QUEUED + "static const struct foo_ops ops = {\n\t.kick = foo_kick,\n};\n"
        f = analyses.facts_of({"foo.c": mask(code)})
        self.assertEqual(outside.entries("bh", f),
                         [outside.Entry("foo_kick", "stored in kick", "foo_kick")])
        f = analyses.facts_of({"foo.h": mask(QUEUED)})
        self.assertEqual([e.how for e in outside.entries("bh", f)],
                         ["defined in foo.h", "defined in foo.h"])

    def test_a_header_macro_that_queues(self) -> None:
        # a file that only expands FOO_KICK() names no tasklet API: no group has it
        f = analyses.facts_of({"foo.c": mask(QUEUED), "foo.h": mask(
            "#define FOO_KICK(f) \\\n\ttasklet_schedule(&(f)->bh)\n#define FOO_N 4\n")})
        self.assertEqual(outside.entries("bh", f),
                         [outside.Entry("FOO_KICK", "a macro of foo.h", "FOO_KICK")])

    def test_a_helper_that_queues_the_tasklet_it_is_given(self) -> None:
        code = QUEUED + ("void foo_resched(struct tasklet_struct *t)\n{\n"
                         "\ttasklet_hi_schedule(t);\n}\n")
        f = analyses.facts_of({"foo.c": mask(code)})
        self.assertEqual(outside.entries("bh", f),
                         [outside.Entry("foo_resched", "not static", "foo_resched")])


if __name__ == "__main__":
    unittest.main()
