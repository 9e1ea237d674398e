# SPDX-License-Identifier: GPL-2.0-only
"""ctext.teardown: registrations by struct field, module_exit() and devm
action (never by name), references that take a function's address, and
the calls that complete work a caller waits for."""

from __future__ import annotations

import unittest

from detasklet.ctext import teardown as td

DRIVER = """\
static void foo_remove(struct pci_dev *pdev) { }
static void bar_remove(struct pci_dev *pdev) { }
static int foo_stop(struct net_device *dev) { return 0; }
static int foo_close(struct tty_struct *tty) { return 0; }
static void foo_exit(void) { }
static void foo_release(void *data) { }

static const struct net_device_ops foo_netdev_ops = {
	.ndo_open = foo_open,
	.ndo_stop = foo_stop,
};

static const struct tty_operations foo_tty_ops = {
	.close = foo_close,
};

static struct pci_driver foo_driver = {
	.probe = foo_probe,
	.remove = foo_remove,
};

int foo_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	return devm_add_action_or_reset(&pdev->dev, foo_release, pdev);
}
module_exit(foo_exit);
"""


class Registrations(unittest.TestCase):
    def setUp(self) -> None:
        self.regs = td.registrations(DRIVER)

    def test_by_field_of_the_struct(self) -> None:
        self.assertEqual(self.regs["foo_remove"].kind, "gone")
        self.assertIn(".remove of foo_driver (struct pci_driver)", self.regs["foo_remove"].how)
        self.assertEqual(self.regs["foo_stop"].kind, "down")
        self.assertEqual(self.regs["foo_probe"].kind, "start")
        self.assertEqual(self.regs["foo_open"].kind, "start")

    def test_module_exit_and_devm_action(self) -> None:
        self.assertEqual(self.regs["foo_exit"].kind, "gone")
        self.assertEqual(self.regs["foo_release"].kind, "gone")

    def test_behind_devexit_p(self) -> None:
        # an out-of-tree module that keeps the old kernels' wrapper (dahdi's wcb4xxp)
        regs = td.registrations("static struct pci_driver d = {\n\t.probe = p,\n"
                                "\t.remove = __devexit_p(r),\n};\n")
        self.assertEqual((regs["r"].kind, regs["p"].kind), ("gone", "start"))

    def test_a_name_proves_nothing(self) -> None:
        self.assertNotIn("bar_remove", self.regs)

    def test_a_tty_close_is_no_teardown(self) -> None:
        self.assertNotIn("foo_close", self.regs)


class References(unittest.TestCase):
    def test_address_taken(self) -> None:
        self.assertTrue(td.referenced("x->cb = helper;\nhelper(a);\n", "helper"))
        self.assertFalse(td.referenced("static void helper(int a)\n{\n}\nhelper (a);\n", "helper"))

    def test_static(self) -> None:
        self.assertTrue(td.is_static("static void\nhelper(int a)\n{\n}\n", "helper"))
        self.assertFalse(td.is_static("void helper(int a)\n{\n}\n", "helper"))


class Completions(unittest.TestCase):
    def test_subsystem_and_waitqueue_calls(self) -> None:
        self.assertEqual(td.completion_call("rc = memstick_next_req(msh, &req);"),
                         "memstick_next_req()")
        self.assertEqual(td.completion_call("wake_up_interruptible(&q);"),
                         "wake_up_interruptible()")
        self.assertEqual(td.completion_call("req->done(req);"), "->done()")
        # a semaphore a transaction's caller down()s on (hp_sdc)
        self.assertEqual(td.completion_call("if (sem)\n\t\tup(curr->act.semaphore);"), "up()")
        # the crypto API's request completions (s5p-sss, aspeed)
        self.assertEqual(td.completion_call("crypto_request_complete(backlog, -EINPROGRESS);"),
                         "crypto_request_complete()")
        # and the typed ones of include/crypto/ (crypto4xx's crypto4xx_pd_done())
        self.assertEqual(td.completion_call("\t\tskcipher_request_complete(req, 0);"),
                         "skcipher_request_complete()")
        self.assertEqual(td.completion_call("aead_request_complete(aead_req, err);"),
                         "aead_request_complete()")

    def test_a_named_completion_among_pointer_calls(self) -> None:
        # a call through a pointer is not one (ctext.pointers reads those);
        # a named completion after it is found
        self.assertEqual(td.completion_call("ops->kick(x); complete(&c);"), "complete()")
        self.assertEqual(td.completion_call("dd->is_async = true;\n(void)dd->resume(dd);"), "")
        self.assertEqual(td.completion_call("(*usercall)(dev, desc, st, arg);"), "")

    def test_none(self) -> None:
        self.assertEqual(td.completion_call("writel(1, base); napi_schedule(&n);"), "")
        self.assertEqual(td.completion_call("completed = 1; setup(x);"), "")
        self.assertEqual(td.completion_call("backup(x); set_up(y);"), "")
        # p->up() is no semaphore's up()
        self.assertEqual(td.completion_call("backup(x); p->up(x);"), "")


if __name__ == "__main__":
    unittest.main()
