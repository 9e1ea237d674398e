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


BENCH = {
    "kernel": "7.3.4", "accel": "tcg", "command": "make runtime-bench", "rounds": 3,
    "ratios": {
        "ifb.ifb_mbit": {"pristine_median": 400.0, "converted_median": 410.0,
                         "ratio_median": 1.025, "spread": [0.9, 1.1], "rounds": 3,
                         "better": "higher"},
        "hwsim.hwsim_mbit": {"pristine_median": 20.0, "converted_median": 21.0,
                             "ratio_median": 1.05, "spread": [0.95, 1.2], "rounds": 3,
                             "better": "higher"},
    },
}


class RuntimeBench(unittest.TestCase):
    """make runtime-bench's figures in a cover letter: only of the workloads
    that ran the series' files, only of OUT's patches and runtime.json's
    kernel."""

    def _out(self, tmp: str, bench: dict, patches: dict | None = None) -> Path:
        out = Path(tmp)
        (out / "all.patch").write_text("diff --git a/drivers/net/ifb.c b/drivers/net/ifb.c\n")
        (out / "tasklet-free.patch").write_text("core\n")
        ids = evidence.patch_ids(out)
        (out / "runtime").mkdir()
        (out / "runtime" / "runtime.json").write_text(json.dumps({**RUNTIME, "patches": ids}))
        (out / "bench").mkdir()
        (out / "bench" / "runtime-bench.json").write_text(
            json.dumps({**bench, "patches": ids if patches is None else patches}))
        return out

    def test_the_series_workloads_figures_are_quoted(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            ev = evidence.load(self._out(tmp, BENCH), {"files": []})
        lines = ev.cover_lines(["drivers/net/ifb.c"])
        rows = [ln for ln in lines if ln.startswith("- ifb,")]
        self.assertEqual(rows, ["- ifb, throughput: 1.02 [0.90, 1.10] (medians "
                                "400 and 410 Mbit/s; higher is better; 3 rounds)"])
        self.assertFalse([ln for ln in lines if "mac80211_hwsim" in ln],
                         "hwsim ran none of ifb.c's functions")
        self.assertIn("  make runtime-bench KDIR=<linux-7.3.4> ROUNDS=3", lines)
        self.assertFalse([ln for ln in lines if "load average" in ln], "no load recorded")
        self.assertEqual(ev.cover_lines(["net/mac802154/main.c"]), [])

    def test_other_patches_or_kernel_quote_nothing(self) -> None:
        for bench, ids in ((BENCH, {"all.patch": "0" * 64, "tasklet-free.patch": ""}),
                           ({**BENCH, "kernel": "6.12.118"}, None), (BENCH, {})):
            with tempfile.TemporaryDirectory() as tmp:
                ev = evidence.load(self._out(tmp, bench, ids), {"files": []})
            self.assertEqual(ev.bench, {})
            lines = ev.cover_lines(["drivers/net/ifb.c"])
            self.assertIn("- ifb: tc mirred redirect of a veth's ingress, ping and iperf3",
                          lines)
            self.assertFalse([ln for ln in lines if "throughput:" in ln], lines)

    def test_a_runtime_json_of_other_patches_is_not_said(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = self._out(tmp, BENCH)
            (out / "all.patch").write_text("another conversion\n")
            ev = evidence.load(out, {"files": []})
        self.assertEqual((ev.runtime, ev.bench), ({}, {}))
        self.assertEqual(ev.cover_lines(["drivers/net/ifb.c"]), [])

    def test_a_runtime_json_of_another_tree_is_not_said(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = self._out(tmp, BENCH)
            self.assertEqual(evidence.load(out, {"files": [], "kernel": "7.3.4"}).bench, BENCH |
                             {"patches": evidence.patch_ids(out)})
            ev = evidence.load(out, {"files": [], "kernel": "6.12.118"})
        self.assertEqual((ev.runtime, ev.bench), ({}, {}))
