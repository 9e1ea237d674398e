# SPDX-License-Identifier: GPL-2.0-only
"""ctext.workqueue: the flags a tree's BH workqueues accept, read from its
workqueue.h, never guessed from a name being defined."""

import unittest

from detasklet.ctext.lex import mask
from detasklet.ctext.workqueue import bh_allows, declares

V612 = """enum wq_flags {
	WQ_BH			= 1 << 0, /* execute in bottom half (softirq) context */
	WQ_HIGHPRI		= 1 << 4, /* high priority */
	WQ_PERCPU		= 1 << 8, /* bound to a specific cpu */
	/* BH wq only allows the following flags */
	__WQ_BH_ALLOWS		= WQ_BH | WQ_HIGHPRI,
};
"""
V73 = V612.replace("WQ_BH | WQ_HIGHPRI,", "WQ_BH | WQ_HIGHPRI | WQ_PERCPU,")


class Workqueue(unittest.TestCase):
    def test_612_defines_percpu_but_bh_does_not_allow_it(self) -> None:
        self.assertTrue(declares(mask(V612), "WQ_PERCPU"))
        self.assertEqual(bh_allows(mask(V612)), {"WQ_BH", "WQ_HIGHPRI"})

    def test_73_allows_percpu(self) -> None:
        self.assertEqual(bh_allows(mask(V73)), {"WQ_BH", "WQ_HIGHPRI", "WQ_PERCPU"})

    def test_no_bh_workqueues_allows_nothing(self) -> None:
        self.assertEqual(bh_allows(mask("enum { WQ_UNBOUND = 2 };\n")), frozenset())

    def test_a_comment_is_not_a_declaration(self) -> None:
        self.assertFalse(declares(mask("/* system_percpu_wq */\n"), "system_percpu_wq"))
