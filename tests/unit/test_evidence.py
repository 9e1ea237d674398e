# SPDX-License-Identifier: GPL-2.0-only
"""series.evidence: a mail says what was measured for its files and
nothing else: compile-test's records, make runtime's passing workloads that
ran one of the files' converted functions."""

import json
import tempfile
import unittest
from pathlib import Path

from detasklet.series import evidence

RUNTIME = {
    "kernel": "7.3.4", "accel": "tcg",
    "workloads": [
        {"name": "ifb", "what": "ifb: tc mirred redirect of a veth's ingress, ping and iperf3",
         "verdict": "pass", "exercised": {"drivers/net/ifb.c": ["ifb_ri_tasklet"]},
         "converted": {"hits": {"ifb_ri_tasklet": 3750}}},
        {"name": "wpan", "what": "mac802154_hwsim: wpan-ping between two radios",
         "verdict": "fails-on-both", "exercised": {"net/mac802154/main.c": ["x"]},
         "converted": {"hits": {"x": 1}}},
        {"name": "ppp", "what": "ppp_async and ppp_synctty: pppd on both ends of a pty, ping",
         "verdict": "FAIL", "exercised": {"drivers/net/ppp/ppp_async.c": ["ppp_async_process"]},
         "converted": {"hits": {"ppp_async_process": 9}}},
    ],
}


class Evidence(unittest.TestCase):
    def test_a_passing_workload_that_ran_the_files_code_is_said(self) -> None:
        s = evidence.tested_sentence(["drivers/net/ifb.c"], RUNTIME)
        self.assertIn("Tested in QEMU (TCG, no KVM) on Linux 7.3.4", s)
        self.assertIn("ifb: tc mirred redirect", s)
        self.assertIn("ifb_ri_tasklet() ran 3750 times", s)
        self.assertIn("neither kernel's log has a lockdep", s)

    def test_failed_or_both_failed_or_other_files_say_nothing(self) -> None:
        self.assertEqual(evidence.tested_sentence(["net/mac802154/main.c"], RUNTIME), "")
        self.assertEqual(evidence.tested_sentence(["drivers/net/ppp/ppp_async.c"], RUNTIME), "")
        self.assertEqual(evidence.tested_sentence(["net/mac80211/rx.c"], RUNTIME), "")
        self.assertEqual(evidence.tested_sentence(["drivers/net/ifb.c"], {}), "")

    def test_nothing_measured_nothing_said(self) -> None:
        ev = evidence.Evidence({})
        self.assertEqual(ev.sentences(["drivers/net/ifb.c"]), [])
        self.assertEqual(ev.cover_lines(["drivers/net/ifb.c"]), [])

    def test_cover_lists_what_ran_for_its_files(self) -> None:
        ev = evidence.Evidence({"drivers/net/ifb.c": {"converted": "ok", "arch": "x86_64",
                                                       "config": "allmodconfig"}}, RUNTIME)
        lines = ev.cover_lines(["drivers/net/ifb.c", "drivers/net/ppp/ppp_async.c"])
        self.assertIn("Compile-tested: 1 of the 2 changed files built, each patch on its "
                      "own; each patch says with which configuration and on which "
                      "architectures.", lines)
        self.assertEqual([ln for ln in lines if ln.startswith("- ")],
                         ["- ifb: tc mirred redirect of a veth's ingress, ping and iperf3"])
        self.assertEqual(len(ev.sentences(["drivers/net/ifb.c"])), 2)

    def test_load_reads_out_runtime_json(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            rep: dict = {"files": []}
            self.assertEqual(evidence.load(out, rep).runtime, {})
            (out / "runtime").mkdir()
            (out / "runtime" / "runtime.json").write_text(json.dumps(RUNTIME))
            self.assertEqual(evidence.load(out, rep).runtime["kernel"], "7.3.4")
            (out / "runtime" / "runtime.json").write_text("{broken")
            self.assertEqual(evidence.load(out, rep).runtime, {})
