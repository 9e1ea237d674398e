# SPDX-License-Identifier: GPL-2.0-only
"""convert.rewrite.protocol writes the DETASKLET_* variables; scripts/detasklet_cocci.py,
which the script rules import, reads them back."""

import os
import unittest
from unittest import mock

import detasklet_cocci
from detasklet.convert.rewrite import protocol
from detasklet.convert.facts.groups import Group
from detasklet.convert.facts.legacy_local import LocalCb


class RoundTrip(unittest.TestCase):
    def setUp(self) -> None:
        g = Group(["a.c"], hi_keys={"rx_tasklet"}, legacy={"cb": "mt76.f"},
                  legacy_local={"cb2": LocalCb("field", "t", "struct s", "d", "a.c", "cb2_work")},
                  sync_helpers={"stop", "reset"})
        self.env = protocol.env(g)

    def test_every_variable_is_read(self) -> None:
        with mock.patch.dict(os.environ, self.env):
            self.assertEqual(detasklet_cocci.item_wq("&p->chan[i].rx_tasklet"),
                             "system_bh_highpri_wq")
            self.assertEqual(detasklet_cocci.item_wq("&p->tx_tasklet"), "system_bh_wq")
            self.assertEqual(detasklet_cocci.legacy_field("cb"), "mt76.f")
            self.assertEqual(detasklet_cocci.legacy_local("cb2")["expr"],
                             "container_of(work, struct s, t)->t_data")
            self.assertEqual(detasklet_cocci.legacy_local("cb2")["wrapper"], "cb2_work")
            self.assertEqual(detasklet_cocci.sync_helpers(), {"stop", "reset"})

    def test_nothing_proven_nothing_read(self) -> None:
        with mock.patch.dict(os.environ, protocol.env(Group(["a.c"]))):
            self.assertEqual(detasklet_cocci.legacy_field("cb"), "")
            self.assertEqual(detasklet_cocci.legacy_local("cb2"), {})
            self.assertEqual(detasklet_cocci.sync_helpers(), set())


if __name__ == "__main__":
    unittest.main()
