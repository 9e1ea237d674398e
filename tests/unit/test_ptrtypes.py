# SPDX-License-Identifier: GPL-2.0-only
"""ctext.ptrtypes: the struct type of the object whose pointer member is
called or set; and the resolver of convert.verdicts.analyses that matches
a call through a member with the functions stored into that member of the
same struct type (a member of the same name in another struct is not it)."""

from __future__ import annotations

import unittest

from detasklet.convert.verdicts import analyses
from detasklet.ctext import pointers as pt
from detasklet.ctext import ptrtypes as ty
from detasklet.ctext.lex import mask

TYPES = """\
struct hw_ops {
	int (*write)(struct port *p, const u8 *buf, int len);
};

struct port {
	const struct hw_ops *ops;
	struct disc *disc;
	void *disc_data;
	struct port_stats stats[4];
};

struct chan {
	struct vchan vc;
	struct port __rcu *port, *other;
};
"""


class Members(unittest.TestCase):
    def test_struct_members_and_pointers(self) -> None:
        t = ty.members(mask(TYPES))
        self.assertEqual(t["port"], {"ops": "hw_ops", "disc": "disc", "stats": "port_stats"})
        self.assertEqual(t["chan"], {"vc": "vchan", "port": "port", "other": "port"})
        self.assertEqual(t["hw_ops"], {})

    def test_a_nested_struct_declares_its_members(self) -> None:
        # r8152: struct desc_info { ... } rx_desc, tx_desc; inside struct r8152
        t = ty.members(mask("struct r8152 {\n\tstruct desc_info {\n"
                            "\t\tvoid (*vlan_tag)(void *desc, struct sk_buff *skb);\n"
                            "\t} rx_desc, tx_desc;\n\tunion {\n\t\tstruct foo *u;\n\t};\n"
                            "\tstruct {\n\t\tstruct bar *q;\n\t} flow;\n};\n"))
        self.assertEqual(t["r8152"], {"rx_desc": "desc_info", "tx_desc": "desc_info",
                                      "u": "foo"})

    def test_a_member_of_two_types_is_not_known(self) -> None:
        t = ty.merged([ty.members(mask(TYPES)), ty.members("struct port { struct x *ops; };")])
        self.assertEqual(t["port"]["ops"], "")
        self.assertEqual(t["port"]["disc"], "disc")


CODE = TYPES + """\
static struct port *global_port;

static const struct disc_ops my_disc = {
	.write = my_write,
	.inner = {
		.write = my_inner_write,
	},
};

static struct hw_ops my_table[] = {
	{ .write = my_hw_write },
	[1] = { .write = my_hw_write1 },
};

static int my_write(struct port *p, struct chan *c)
{
	struct hw_ops *h = p->ops;

	c->vc.free = my_free;
	p->ops->write(p, NULL, 0);
	{
		struct disc *p = NULL;
		p->write(p);
	}
	h->write(p);
	global_port->ops->write(p);
	return ((struct hw_ops *)x)->write(p);
}

static void proto(struct other *p);

static void other(void)
{
	p->ops->write(p);
}
"""


class Resolve(unittest.TestCase):
    def setUp(self) -> None:
        self.code = mask(CODE)
        self.types = ty.merged([ty.members(self.code),
                                {"disc_ops": {"inner": "disc_inner_ops"}}])
        self.decls = ty.Declarations(self.code)

    def test_calls_through_members_have_their_struct(self) -> None:
        a = self.code.index("static int my_write(")
        a = self.code.index("{", a)
        b = self.code.index("static void proto")
        self.assertEqual(pt.typed_calls(self.code, a, b, self.decls, self.types), [
            ("write", "p->ops->write", "hw_ops"),
            ("write", "p->write", "disc"),          # the inner block's p
            ("write", "h->write", "hw_ops"),
            ("write", "global_port->ops->write", "hw_ops"),
            ("write", "->write", "")])              # a cast: not known

    def test_a_parameter_of_another_function_or_a_prototype_is_not_seen(self) -> None:
        a = self.code.index("{", self.code.index("static void other("))
        self.assertEqual(pt.typed_calls(self.code, a, len(self.code), self.decls, self.types),
                         [("write", "p->ops->write", "")])

    def test_stores_have_the_struct_of_their_initialiser_or_object(self) -> None:
        got = {(n, fn): tag for n, fn, tag in pt.typed_stores(self.code, self.decls, self.types)}
        self.assertEqual(got[("write", "my_write")], "disc_ops")
        self.assertEqual(got[("write", "my_inner_write")], "disc_inner_ops")
        self.assertEqual(got[("write", "my_hw_write")], "hw_ops")
        self.assertEqual(got[("write", "my_hw_write1")], "hw_ops")
        self.assertEqual(got[("free", "my_free")], "vchan")

    def test_a_plain_pointer_has_no_struct(self) -> None:
        code = mask("void f(void (*cb)(int))\n{\n\tcb = my_cb;\n\t(*cb)(1);\n}\n")
        d = ty.Declarations(code)
        self.assertEqual(pt.typed_stores(code, d, {}), [("cb", "my_cb", None)])
        a = code.index("{")
        self.assertEqual(pt.typed_calls(code, a, len(code), d, {}), [("cb", "(*cb)", None)])


LDISC = """\
struct hw_ops {
	int (*write)(struct port *p, const u8 *buf, int len);
};

struct port {
	const struct hw_ops *ops;
	void *disc_data;
};

struct ldisc_ops {
	int (*write)(struct port *p, const u8 *buf, int len);
	void (*wakeup)(struct port *p);
};

struct sp {
	struct port *port;
	struct tasklet_struct tsk;
};

static void sp_process(struct tasklet_struct *t)
{
	struct sp *ap = from_tasklet(ap, t, tsk);
	struct port *port = ap->port;

	port->ops->write(port, NULL, 0);
}

static int sp_write(struct port *port, const u8 *buf, int len)
{
	return -EAGAIN;
}

static void sp_wakeup(struct port *port)
{
	struct sp *ap = port->disc_data;

	tasklet_schedule(&ap->tsk);
}

static int sp_open(struct port *port)
{
	struct sp *ap = kzalloc(sizeof(*ap), GFP_KERNEL);

	tasklet_setup(&ap->tsk, sp_process);
	port->disc_data = ap;
	return 0;
}

static struct ldisc_ops sp_ldisc = {
	.open = sp_open,
	.write = sp_write,
	.wakeup = sp_wakeup,
};
"""


class Targets(unittest.TestCase):
    def test_a_member_of_the_same_name_in_another_struct_is_not_a_target(self) -> None:
        # ppp_synctty: tty->ops->write() is the tty driver's, not the
        # ldisc's .write the file sets
        f = analyses.facts_of({"sp.c": mask(LDISC)})
        t = analyses.targets("write", "hw_ops", f)
        self.assertEqual((t.proven, t.maybe, t.complete), (frozenset(), frozenset(), False))
        self.assertEqual(analyses.through_pointers("tsk", f), [])
        self.assertEqual(analyses.unresolved("tsk", f), "port->ops->write() in sp_process()")

    def test_the_same_struct_is_a_target(self) -> None:
        code = LDISC.replace("port->ops->write(port, NULL, 0);",
                             "ap->ldisc->write(port, NULL, 0);").replace(
            "\tstruct port *port;\n", "\tstruct port *port;\n\tstruct ldisc_ops *ldisc;\n")
        f = analyses.facts_of({"sp.c": mask(code)})
        self.assertEqual(analyses.unresolved("tsk", f), "")
        self.assertEqual(analyses.through_pointers("tsk", f),
                         ["ap->ldisc->write(), where the driver stores sp_write() in the write of its struct ldisc_ops objects"])

    def test_a_struct_not_known_may_hold_the_function_and_outside_code(self) -> None:
        # the holder's struct is defined in no file read: over-approximated
        # (the reach follows sp_write()), and the call is not complete
        code = LDISC.replace("struct port {\n\tconst struct hw_ops *ops;\n", "struct port {\n")
        f = analyses.facts_of({"sp.c": mask(code)})
        t = analyses.targets("write", "", f)
        self.assertEqual((t.proven, t.maybe, t.complete),
                         (frozenset(), frozenset({"sp_write"}), False))
        self.assertEqual(analyses.through_pointers("tsk", f),
                         ["port->ops->write(), which may hold sp_write()"])
        self.assertEqual(analyses.unresolved("tsk", f), "port->ops->write() in sp_process()")


class OwnerStruct(unittest.TestCase):
    """The struct whose member a tasklet expression names through a chain:
    k3dma's &c->vc.task is virt-dma's task, not sun6i's sdev->task."""

    CODE = mask("""\
struct virt_dma_chan { struct tasklet_struct task; };
struct k3_dma_chan { struct virt_dma_chan vc; int id; };
static void k3_free(struct k3_dma_chan *c)
{
	tasklet_kill(&c->vc.task);
	tasklet_kill(&(c)->vc.task);
}
""")

    def test_through_an_embedded_struct(self) -> None:
        decls, types = ty.Declarations(self.CODE), ty.members(self.CODE)
        at = self.CODE.index("tasklet_kill")
        self.assertEqual(ty.owner_struct(decls, at, "&c->vc.task", types),
                         "struct virt_dma_chan")
        self.assertEqual(ty.owner_struct(decls, at, "&c->task", types), "struct k3_dma_chan")

    def test_not_known(self) -> None:
        decls, types = ty.Declarations(self.CODE), ty.members(self.CODE)
        at = self.CODE.index("tasklet_kill")
        self.assertEqual(ty.owner_struct(decls, at, "&d->vc.task", types), "")    # d undeclared
        self.assertEqual(ty.owner_struct(decls, at, "&c->other.task", types), "")
        self.assertEqual(ty.owner_struct(decls, at, "&task", types), "")


if __name__ == "__main__":
    unittest.main()
